import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyScore, toCachedStory, type CachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { validate } from '../api/schema.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

/** A story covered by `publishers` (one article each, `minutesAgo` apart from now), in `region`. */
async function seedStory(db: TestDb, cache: MemoryCache, id: string, region: string, coverage: { publisher: string; minutesAgo: number }[]): Promise<void> {
  const articles: ArticleRow[] = coverage.map((c, i) => ({
    id: `a-${id}-${i}`, url: `https://${c.publisher}.example/${id}`, url_hash: `uh-${id}-${i}`, simhash: null, title: `Report ${i} on ${id}`,
    snippet: null, thumbnail_url: null, publisher_id: c.publisher, published_at: ago(c.minutesAgo), category: 'world', region, language: 'en',
    story_id: id, duplicate_of: null, entities: [], places: [],
  }));
  await upsertArticles(db.sql, articles);
  const newest = Math.min(...coverage.map((c) => c.minutesAgo));
  const row = { id, title: `Story ${id}`, lead_article_id: articles[0]!.id, article_count: articles.length, publisher_count: new Set(coverage.map((c) => c.publisher)).size,
    first_seen: ago(Math.max(...coverage.map((c) => c.minutesAgo))), updated_at: ago(newest), category: 'world', regions: [region], entities: [], score: 0 };
  const story: StoryRow = { ...row, score: storyScore(row) };
  await upsertStories(db.sql, [story]);
  await publishStories(cache, [toCachedStory(story, { ...articles[0]!, publisher_name: `Name of ${articles[0]!.publisher_id}` })]);
}

describe('trending', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => ({ id: p, name: p, feed_url: `https://${p}.example/feed` })));
    await seedStory(db, cache, 'wide', 'us', ['a', 'b', 'c', 'd', 'e', 'f'].map((p, i) => ({ publisher: p, minutesAgo: 10 + i * 5 })));
    await seedStory(db, cache, 'one', 'us', [{ publisher: 'a', minutesAgo: 30 }]);
    await seedStory(db, cache, 'read', 'uk', [{ publisher: 'b', minutesAgo: 30 }]);
    await seedStory(db, cache, 'old', 'uk', ['a', 'b', 'c', 'd', 'e', 'f'].map((p) => ({ publisher: p, minutesAgo: 20 * 60 })));
    api = await startApi(db.sql, cache, { now: () => NOW }, { trendingIntervalMs: 3_600_000 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  const order = async (q = '') => ((await api.get(`/v1/trending${q}`)).body.items as { story_id: string; trend_score: number }[]);

  it('orders by coverage velocity: many publishers lately beats one, and beats many long ago', async () => {
    const items = await order();
    expect(items.map((i) => i.story_id)).toEqual(['wide', 'one', 'read', 'old']);
    // without clicks, two one-publisher stories of the same age score the same
    expect(items[1]!.trend_score).toBe(items[2]!.trend_score);
    expect(items[0]!.trend_score).toBeGreaterThan(items[1]!.trend_score);
  });

  it('clicks lift a story; editions keep their own lists; the shape is FeedItem & {trend_score}', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await api.get('/r/a-read-0', { authorization: `Bearer reader-number-${i}-0123456789` });
      expect(r.status).toBe(302);
    }
    // the same reader clicking again does not count twice
    await api.get('/r/a-read-0', { authorization: 'Bearer reader-number-0-0123456789' });
    await api.readers.trending.recompute();
    const items = await order();
    expect(items.map((i) => i.story_id).indexOf('read')).toBeLessThan(items.map((i) => i.story_id).indexOf('one'));
    expect((await order('?region=uk')).map((i) => i.story_id)).toEqual(['read', 'old']);
    expect((await order('?region=us&limit=1')).map((i) => i.story_id)).toEqual(['wide']);
    const page = (await api.get('/v1/trending?region=uk')).body;
    expect(validate(page, { $ref: '#/components/schemas/TrendingPage' })).toEqual([]);
  });

  it('sums one decayed term per distinct publisher and reader in the database, as the policy says', async () => {
    const { trendingStories } = await import('../../src/actors/store/trending.js');
    const { DEFAULT_TRENDING, decayedOne } = await import('../../src/api/trending/score.js');
    const got = new Map((await trendingStories(db.sql, { since: NOW - 86_400_000, until: NOW }, { velocityMs: DEFAULT_TRENDING.velocityHalfLifeMs, clicksMs: DEFAULT_TRENDING.clickHalfLifeMs })).map((s) => [s.id, s]));
    const want = [10, 15, 20, 25, 30, 35].reduce((a, m) => a + decayedOne(m * 60_000, DEFAULT_TRENDING.velocityHalfLifeMs), 0);
    expect(got.get('wide')!.velocity).toBeCloseTo(want, 9);
    expect(got.get('wide')!.clicks).toBe(0);
    // four distinct readers (one of them twice), all clicked at NOW
    expect(got.get('read')!.clicks).toBeCloseTo(4, 9);
    expect(got.get('old')!.velocity).toBeCloseTo(6 * decayedOne(20 * 3_600_000, DEFAULT_TRENDING.velocityHalfLifeMs), 9);
  });

  it('validates its parameters', async () => {
    expect((await api.get('/v1/trending?region=mars')).body.error.code).toBe('invalid_region');
    expect((await api.get('/v1/trending?limit=51')).body.error.code).toBe('invalid_limit');
    expect((await api.get('/v1/trending?q=x')).body.error.code).toBe('unknown_parameter');
  });
});

describe('trending follows the cards', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, ['a', 'b', 'c', 'd'].map((p) => ({ id: p, name: p, feed_url: `https://${p}.example/feed` })));
    // an empty node: the first recomputation finds nothing; the interval alone would wait an hour
    api = await startApi(db.sql, cache, { now: () => NOW }, { trendingIntervalMs: 3_600_000, trendingMinGapMs: 0 });
    await api.readers.trending.recompute();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  const trending = async (): Promise<{ story_id: string; coverage_count: number }[]> => (await api.get('/v1/trending')).body.items;

  it('fills as soon as the first stories are written, not an interval later', async () => {
    expect(await trending()).toEqual([]);
    // the store writes a story and announces it (the invalidation event every API node hears)
    await seedStory(db, cache, 'first', 'us', ['a', 'b', 'c'].map((p, i) => ({ publisher: p, minutesAgo: 5 + i })));
    let items: { story_id: string }[] = [];
    for (let i = 0; i < 200 && items.length === 0; i++) {
      items = await trending();
      if (items.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(items.map((i) => i.story_id)).toEqual(['first']);
  });

  it('shows the coverage count the story\'s card shows, also right after the story grew', async () => {
    const card = async () => ((await api.get('/v1/feed')).body.items as { story_id: string; coverage_count: number }[]).find((i) => i.story_id === 'first')!;
    expect((await trending())[0]!.coverage_count).toBe((await card()).coverage_count);
    // the story grows from 3 to 28 articles: its cache entry is written again and announced
    const [raw] = await cache.mget(['story:first']);
    const entry = JSON.parse(raw!) as CachedStory;
    await publishStories(cache, [{ ...entry, item: { ...entry.item, coverage_count: 28 } }]);
    expect((await card()).coverage_count).toBe(28);
    expect((await trending())[0]!.coverage_count).toBe(28);
  });
});
