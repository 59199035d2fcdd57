import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { upsertBreaking } from '../../src/actors/store/breaking.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyKey, storyScore, toCachedStory, type CachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from './harness.js';
import { validate } from './schema.js';

/**
 * `region` on feed, breaking and trending items is the edition the item is listed under (or, in
 * lists spanning every edition, the story's home edition), never the lead publisher's country:
 * a quake in Toronto reported first by a British outlet is a US-edition story.
 */
const NOW = Date.now();
const ago = (min: number) => new Date(NOW - min * 60_000).toISOString();

interface Seed {
  id: string;
  /** the lead article's own region: its publisher's country, what items used to show */
  leadRegion: string;
  regions: string[];
  home: string[];
  publishers: string[];
}

const SEEDS: Seed[] = [
  // a Toronto quake led by a UK outlet: carried and at home in the US edition only
  { id: 'quake', leadRegion: 'uk', regions: ['us'], home: ['us'], publishers: ['bbc', 'cbc', 'nyt', 'ap'] },
  // Atlanta floods led by a European outlet: at home in the US, carried by the UK edition too
  { id: 'floods', leadRegion: 'eu', regions: ['us', 'uk'], home: ['us'], publishers: ['dw', 'guardian', 'cnn'] },
  // a story no edition claims: in the global lists only
  { id: 'nowhere', leadRegion: 'mea', regions: [], home: [], publishers: ['aljaz'] },
];

async function seed(db: TestDb, cache: MemoryCache): Promise<void> {
  await addPublishers(db.sql, [...new Set(SEEDS.flatMap((s) => s.publishers))].map((p) => ({ id: p, name: `Name ${p}`, feed_url: `https://${p}.example/feed` })));
  for (const s of SEEDS) {
    const articles: ArticleRow[] = s.publishers.map((p, i) => ({
      id: `a-${s.id}-${i}`, url: `https://${p}.example/${s.id}`, url_hash: `uh-${s.id}-${i}`, simhash: null, title: `Report ${i} on ${s.id}`,
      snippet: null, thumbnail_url: null, publisher_id: p, published_at: ago(10 + i), category: 'world', region: i === 0 ? s.leadRegion : s.regions[0] ?? null,
      language: 'en', story_id: s.id, duplicate_of: null, entities: [], places: [],
    }));
    await upsertArticles(db.sql, articles);
    const row = { id: s.id, title: s.id, lead_article_id: articles[0]!.id, article_count: articles.length, publisher_count: articles.length, first_seen: ago(20),
      updated_at: ago(10), category: 'world', regions: s.regions, home_regions: s.home, entities: [], score: 0 };
    const story: StoryRow = { ...row, score: storyScore(row) };
    await upsertStories(db.sql, [story]);
    await publishStories(cache, [toCachedStory(story, { ...articles[0]!, publisher_name: `Name ${articles[0]!.publisher_id}` })]);
  }
  await upsertBreaking(db.sql, [{ story_id: 'quake', since: NOW - 60_000, last_spike_at: NOW - 30_000, ended_at: null, regions: ['us'], signal: 's:quake', articles: 4, publishers: 4, baseline: 1 }]);
}

describe('region on items is the edition they are listed under', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await seed(db, cache);
    api = await startApi(db.sql, cache, {}, { trendingIntervalMs: 3_600_000 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  const regions = (items: { story_id: string; region: string }[]) => Object.fromEntries(items.map((i) => [i.story_id, i.region]));

  it('feeds: an edition labels its items with itself; the global feed with each story\'s home edition', async () => {
    expect(regions((await api.get('/v1/feed')).body.items)).toEqual({ quake: 'us', floods: 'us', nowhere: 'global' });
    expect(regions((await api.get('/v1/feed?region=us')).body.items)).toEqual({ quake: 'us', floods: 'us' });
    expect(regions((await api.get('/v1/feed?region=uk')).body.items)).toEqual({ floods: 'uk' });
    expect((await api.get('/v1/feed?region=eu')).body.items).toEqual([]);
  });

  it('breaking: region=uk is empty for a US-only story, region=us lists it labelled us, and so does the list of every edition', async () => {
    expect((await api.get('/v1/breaking?region=uk')).body.items).toEqual([]);
    expect(regions((await api.get('/v1/breaking?region=us')).body.items)).toEqual({ quake: 'us' });
    expect(regions((await api.get('/v1/breaking')).body.items)).toEqual({ quake: 'us' });
  });

  it('trending: each edition labels its items with itself, the global list with home editions', async () => {
    expect(regions((await api.get('/v1/trending?region=uk')).body.items)).toEqual({ floods: 'uk' });
    expect(regions((await api.get('/v1/trending?region=us')).body.items)).toEqual({ quake: 'us', floods: 'us' });
    expect(regions((await api.get('/v1/trending')).body.items)).toEqual({ quake: 'us', floods: 'us', nowhere: 'global' });
  });

  it('the personalised feed labels items with the edition asked for', async () => {
    const auth = { authorization: 'Bearer editions-reader-0123456789' };
    expect(regions((await api.get('/v1/feed?for=me&region=uk', auth)).body.items)).toEqual({ floods: 'uk' });
    expect(regions((await api.get('/v1/feed?for=me', auth)).body.items)).toEqual({ quake: 'us', floods: 'us', nowhere: 'global' });
  });

  it('an entry cached by an older version (region = the lead article\'s) is served with the edition', async () => {
    const [raw] = await cache.mget([storyKey('quake')]);
    const old = JSON.parse(raw!) as CachedStory;
    const { click_url: _c, ...item } = old.item;
    await cache.mset([{ key: storyKey('quake'), value: JSON.stringify({ ...old, item: { ...item, region: 'uk' } }), ttlMs: 60_000 }]);
    const got = (await api.get('/v1/feed?region=us&limit=5')).body.items.find((i: { story_id: string }) => i.story_id === 'quake');
    expect(got).toMatchObject({ region: 'us', click_url: '/r/a-quake-0' });
  });

  it('the OpenAPI document says what region means, and the items match it', async () => {
    const schemas = openApiDocument.components.schemas as unknown as Record<string, { properties: Record<string, { description?: string; enum?: string[] }> }>;
    const region = schemas.FeedItem!.properties.region!;
    expect(region.description).toMatch(/edition the item is listed under/);
    expect(region.description).toMatch(/never the lead publisher's country/i);
    expect(region.enum).toEqual(['global', 'us', 'uk', 'eu', 'apac', 'latam', 'mea']);
    const doc = openApiDocument as unknown as { paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { schema: Record<string, unknown> } } } } } }> };
    for (const path of ['/v1/feed?region=uk', '/v1/breaking', '/v1/trending?region=us']) {
      const schema = doc.paths[path.split('?')[0]!]!.get.responses[200].content['application/json'].schema;
      expect(validate((await api.get(path)).body, schema)).toEqual([]);
    }
  });
});
