import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertBreaking, type BreakingRow } from '../../src/actors/store/breaking.js';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService } from '../../src/api/feed.js';
import { BreakingService } from '../../src/api/breaking.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { databases, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { T0, iso, stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';
import { expectMatchesOpenApi } from './schema.js';

const row = (story_id: string, minutesAgo: number, regions: string[]): BreakingRow => ({
  story_id, since: T0 + 1000 * 60_000 - minutesAgo * 60_000, last_spike_at: T0 + 1000 * 60_000, ended_at: null, regions,
  signal: `s:${story_id}`, articles: 30, publishers: 28, baseline: 8,
});

describe.each(databases)('GET /v1/breaking and breaking stories first in feeds (%s)', (_name, makeDb) => {
  let db: TestDb;
  let api: ApiHarness;
  let breaking: BreakingService;

  beforeAll(async () => {
    db = await makeDb();
    const cache = new MemoryCache();
    // 60 stories; two old ones (low in the ranking) become breaking
    await seedStories(db.sql, cache, stories(60, 's', 0));
    await seedStories(db.sql, cache, [
      { id: 'quake', publisher: 'p1', category: 'world', region: 'eu', updatedAt: iso(-500), title: 'Earthquake shakes Lisbon' },
      { id: 'storm', publisher: 'p1', category: 'science', region: 'us', updatedAt: iso(-400), title: 'Storm reaches coast' },
    ]);
    await upsertBreaking(db.sql, [row('quake', 5, ['eu']), row('storm', 20, ['us'])]);
    const codec = new CursorCodec('test-secret-0123456789');
    let ids: (region: string) => Promise<string[]> = async () => [];
    const feed = new FeedService({ sql: db.sql, cache, codec, snapshotSize: 300, breaking: (r) => ids(r) });
    breaking = new BreakingService({ sql: db.sql, stories: (list) => feed.stories(list), ttlMs: 0 });
    ids = (r) => breaking.ids(r);
    api = await startApi(db.sql, cache, { feed, codec, breaking });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('lists the stories breaking now, newest first, as feed items with breaking_since', async () => {
    const r = await api.get('/v1/breaking');
    expect(r.status).toBe(200);
    expectMatchesOpenApi('/v1/breaking', 'get', 200, r.body);
    expect(r.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(['quake', 'storm']);
    expect(r.body.items[0]).toMatchObject({ story_id: 'quake', title: 'Earthquake shakes Lisbon', category: 'world', breaking_since: new Date(T0 + 995 * 60_000).toISOString() });
    expect(r.headers['cache-control']).toMatch(/max-age=5/);
    expect(r.headers.etag).toBeDefined();
  });

  it.each([
    ['region=eu', ['quake']],
    ['region=us', ['storm']],
    ['region=apac', []],
    ['region=global', ['quake', 'storm']],
  ])('filters by edition: %s', async (q, want) => {
    const r = await api.get(`/v1/breaking?${q}`);
    expect(r.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(want);
  });

  it.each([
    ['region=mars', 'invalid_region'],
    ['regoin=eu', 'unknown_parameter'],
  ])('refuses %s with 400 %s', async (q, code) => {
    const r = await api.get(`/v1/breaking?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(code);
  });

  it('puts breaking stories first on the first page of the feeds they belong to, and nowhere twice', async () => {
    const top = await api.get('/v1/feed?limit=10');
    expect(top.body.items.slice(0, 2).map((i: { story_id: string }) => i.story_id)).toEqual(['quake', 'storm']);
    const eu = await api.get('/v1/feed?region=eu&limit=10');
    expect(eu.body.items[0].story_id).toBe('quake');
    expect(eu.body.items.map((i: { story_id: string }) => i.story_id)).not.toContain('storm');
    const science = await api.get('/v1/feed?category=science&limit=10');
    expect(science.body.items[0].story_id).toBe('storm');
    expect(science.body.items.map((i: { story_id: string }) => i.story_id)).not.toContain('quake');
    // the pages after the first do not repeat them
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await api.get(`/v1/feed?limit=20${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...p.body.items.map((i: { story_id: string }) => i.story_id));
      cursor = p.body.next_cursor;
    } while (cursor);
    expect(seen.filter((id) => id === 'quake')).toHaveLength(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(62);
  });

  it('gives the providers of other feeds the active set by edition', async () => {
    expect((await breaking.breakingStories('us')).map((b) => [b.story_id, b.regions])).toEqual([['storm', ['us']]]);
    expect(await breaking.ids('global')).toEqual(['quake', 'storm']);
  });

  it('answers a plain GET of the WebSocket route with 426', async () => {
    const r = await api.get('/v1/live');
    expect(r.status).toBe(426);
    expect(r.body.error.code).toBe('upgrade_required');
    expect(r.headers.upgrade).toBe('websocket');
  });
});
