import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertBreaking } from '../../src/actors/store/breaking.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { iso, seedCoverage, stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

/**
 * One article shape everywhere: feed, trending and breaking items and the articles of search,
 * Full Coverage and article pages all carry `article_id` and `click_url` (`/r/{article_id}`);
 * article views keep `id` too. And the errors that misled clients: a route without parameters,
 * a cursor used with another region, category or search.
 */
const CORE = ['article_id', 'story_id', 'title', 'summary', 'thumbnail_url', 'publisher_id', 'publisher_name', 'published_at', 'source_url', 'click_url', 'category', 'region'];

describe('one article shape, with click_url', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();
  let coverageIds: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(30, 'sh', 0));
    coverageIds = await seedCoverage(db.sql, cache, 'comet', 40);
    // the entry is read again from SQL, with the headlines of its other publishers (related)
    await cache.del('story:comet');
    await upsertBreaking(db.sql, [{ story_id: 'comet', since: Date.now() - 60_000, last_spike_at: Date.now(), ended_at: null, regions: ['eu'], signal: 's:comet', articles: 4, publishers: 3, baseline: 1 }]);
    api = await startApi(db.sql, cache, { now: () => Date.parse(iso(45)) }, { trendingIntervalMs: 3_600_000 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  const core = (x: Record<string, unknown>, where: string) => {
    for (const k of CORE) expect(x, `${where} lacks ${k}`).toHaveProperty(k);
    expect(x.click_url, where).toBe(`/r/${encodeURIComponent(x.article_id as string)}`);
  };

  it('feed, related headlines, trending and breaking items carry click_url', async () => {
    const feed = (await api.get('/v1/feed?related=true&limit=50')).body.items as Record<string, unknown>[];
    for (const it of feed) core(it, `feed item ${String(it.story_id)}`);
    const related = feed.flatMap((i) => (i.related as Record<string, unknown>[] | undefined) ?? []);
    expect(related.length).toBeGreaterThan(0);
    for (const r of related) expect(r.click_url).toBe(`/r/${r.article_id as string}`);
    const trending = (await api.get('/v1/trending')).body.items as Record<string, unknown>[];
    expect(trending.length).toBeGreaterThan(0);
    for (const it of trending) core(it, 'trending item');
    const breaking = (await api.get('/v1/breaking')).body.items as Record<string, unknown>[];
    expect(breaking.map((b) => b.story_id)).toEqual(['comet']);
    core(breaking[0]!, 'breaking item');
  });

  it('search, Full Coverage and article pages carry article_id beside id', async () => {
    const hits = (await api.get('/v1/search?q=comet')).body.items as Record<string, unknown>[];
    expect(hits.length).toBeGreaterThan(0);
    const story = (await api.get('/v1/stories/comet')).body.articles as Record<string, unknown>[];
    expect(story.map((a) => a.id).sort()).toEqual([...coverageIds].sort());
    const page = (await api.get(`/v1/articles/${coverageIds[0]}`)).body;
    for (const [where, a] of [...hits.map((h) => ['search', h] as const), ...story.map((s) => ['story', s] as const), ['article', page.article], ...page.related.map((r: Record<string, unknown>) => ['related', r] as const)] as [string, Record<string, unknown>][]) {
      core(a, where);
      expect(a.article_id, where).toBe(a.id);
    }
  });

  it('a click_url is a working click: 302 to the source', async () => {
    const item = (await api.get('/v1/feed?limit=1')).body.items[0];
    const r = await api.get(item.click_url);
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(item.source_url);
  });

  it('a parameter on a route that takes none is refused without an empty "allowed:" list', async () => {
    for (const path of ['/v1/stories/comet?foo=1', `/v1/articles/${coverageIds[0]}?foo=1`, '/v1/me?foo=1']) {
      const r = await api.get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.error.code).toBe('unknown_parameter');
      expect(r.body.error.message).toBe('unknown parameter "foo": this route takes no query parameters');
    }
    // a route with parameters still lists them
    expect((await api.get('/v1/feed?foo=1')).body.error.message).toMatch(/allowed: region, category, cursor, limit, related, for, hide_read, lang$/);
  });

  it('a cursor used with another region or category names the feed it belongs to', async () => {
    const first = await api.get('/v1/feed?region=us&limit=3');
    const cursor = first.body.next_cursor as string;
    expect(cursor).toBeTruthy();
    expect((await api.get(`/v1/feed?region=us&limit=3&cursor=${cursor}`)).status).toBe(200);
    for (const [q, named] of [['region=uk', 'region=us&category=top'], ['region=us&category=science', 'region=us&category=top'], ['', 'region=us&category=top']]) {
      const r = await api.get(`/v1/feed?${q}&limit=3&cursor=${cursor}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('invalid_cursor');
      expect(r.body.error.message, q).toContain(`the feed ${named}`);
      expect(r.body.error.message).not.toMatch(/invalid or expired/);
    }
  });

  it('the same for search and for the personalised feed; a cursor of nothing known says so', async () => {
    const s = await api.get('/v1/search?q=headline&region=us&limit=2');
    const sc = s.body.next_cursor as string;
    expect(sc).toBeTruthy();
    const wrong = await api.get(`/v1/search?q=headline&region=uk&limit=2&cursor=${sc}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('this search with no category and region=us');

    const auth = { authorization: 'Bearer shape-reader-0123456789' };
    const me = await api.get('/v1/feed?for=me&region=us&limit=3', auth);
    const mc = me.body.next_cursor as string;
    expect(mc).toBeTruthy();
    const other = await api.get(`/v1/feed?for=me&region=uk&limit=3&cursor=${mc}`, auth);
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain('the feed region=us&category=top (for=me)');

    // signed for nothing this node knows (another secret, or tampered): not blamed on a region
    const [body] = sc.split('.');
    const forged = await api.get(`/v1/feed?limit=3&cursor=${body}.AAAAAAAAAAAAAAAAAAAAAA`);
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toMatch(/not issued for this query/);
    const malformed = await api.get('/v1/feed?limit=3&cursor=abc');
    expect(malformed.body.error.message).toMatch(/^The cursor is malformed/);
  });
});
