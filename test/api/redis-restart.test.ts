import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService } from '../../src/api/feed.js';
import { feedKey } from '../../src/actors/store/feed-items.js';
import { openCache, type Cache } from '../../src/runtime/cache.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { freePort, hasRedisServer, startRedis } from '../helpers/private-services.js';
import { seedStories } from '../helpers/seed.js';
import { stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}

describe.skipIf(!hasRedisServer)('feed API while Redis is killed and restarted', () => {
  let db: TestDb;
  let api: ApiHarness;
  let cache: Cache;
  let redis: ChildProcess | null = null;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    db = await scratchPostgres();
    cache = await openCache({ redisUrl: `redis://127.0.0.1:${port}`, prefix: 'apitest:' });
    await seedStories(db.sql, cache, stories(80, 'r', 0));
    // the epoch is checked at start and then when the test says (a timer would race the test's steps)
    api = await startApi(db.sql, cache, { feed: new FeedService({ sql: db.sql, cache, codec: new CursorCodec('test-secret-0123456789'), hotTtlMs: 0, epochCheckMs: 3_600_000 }) });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await cache?.close();
    redis?.kill('SIGKILL');
    await db?.cleanup();
  });

  it('answers correctly from PostgreSQL while Redis is down, and uses Redis again once it is back', async () => {
    // the reference: the same feed computed from PostgreSQL alone
    // (a fresh in-process cache each time, so the reference sees what is stored now)
    const reference = () => new FeedService({ sql: db.sql, cache: new MemoryCache(), codec: new CursorCodec('x') });
    const ref = async (limit: number) => (await reference().page({ region: 'global', category: 'technology', cursor: null, limit })).items.map((i) => i.story_id);
    const want = await ref(50);
    expect(want.length).toBe(10);

    const first = await api.get('/v1/feed?category=technology&limit=5');
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(await ref(5));
    expect(await cache.zcard(feedKey('global', 'technology'))).toBeGreaterThan(0);

    // requests in flight while Redis dies: every one still answers, with the right page
    const ref5 = await ref(5);
    const storm = Promise.all(
      Array.from({ length: 40 }, (_, i) => new Promise((r) => setTimeout(r, i * 5)).then(() => api.get('/v1/feed?category=technology&limit=5'))),
    );
    await new Promise((r) => setTimeout(r, 60));
    const exited = new Promise((r) => redis!.once('exit', r));
    redis!.kill('SIGKILL');
    await exited;
    for (const r of await storm) {
      expect(r.status, r.text).toBe(200);
      expect(r.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(ref5);
    }
    redis = null;
    await until(async () => (await cache.ping().then(() => false, () => true)));

    // in flight: the cursor handed out before the crash, and fresh first pages
    const seen = first.body.items.map((i: { story_id: string }) => i.story_id);
    let cursor = first.body.next_cursor as string | null;
    while (cursor) {
      const r = await api.get(`/v1/feed?category=technology&limit=5&cursor=${cursor}`);
      expect(r.status, r.text).toBe(200);
      seen.push(...r.body.items.map((i: { story_id: string }) => i.story_id));
      cursor = r.body.next_cursor;
    }
    expect(seen).toHaveLength(want.length);
    expect(new Set(seen)).toEqual(new Set(want));
    const down = await api.get('/v1/feed?category=technology&limit=7');
    expect(down.status, down.text).toBe(200);
    expect(down.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(await ref(7));
    const next = await api.get(`/v1/feed?category=technology&limit=7&cursor=${down.body.next_cursor}`); // snapshot kept in PostgreSQL
    expect(next.status, next.text).toBe(200);
    const both = [...down.body.items, ...next.body.items].map((i: { story_id: string }) => i.story_id);
    expect(new Set(both)).toEqual(new Set(want));
    expect(both).toHaveLength(want.length);
    expect((await api.get('/v1/stories/r0003')).status).toBe(200);
    expect((await api.get('/readyz')).status).toBe(503);

    redis = await startRedis(port);
    await until(async () => (await cache.ping(), true));
    expect(await cache.zcard(feedKey('global', 'technology'))).toBe(0); // a restarted Redis is empty
    // ingest writes first: a few new stories land in the empty Redis before any reader comes
    const fresh = stories(3, 'n', 500).map((x) => ({ ...x, category: 'technology' }));
    await seedStories(db.sql, cache, fresh);
    const wantAll = await ref(50);
    expect(wantAll).toHaveLength(want.length + 3);
    expect(await cache.zcard(feedKey('global', 'technology'))).toBe(3);
    // the epoch went with Redis's data, so every feed is rebuilt from PostgreSQL, merged with
    // what ingest wrote (a feed is not left at the three new stories it was refilled with)
    await api.feed.checkCache();
    expect(await cache.zcard(feedKey('global', 'technology'))).toBe(wantAll.length);
    expect(await cache.zcard(feedKey('global', 'top'))).toBe(83);
    expect(await cache.zcard(feedKey('us', 'top'))).toBe(40 + fresh.filter((x) => x.region === 'us').length);

    const back = await api.get('/v1/feed?category=technology&limit=9');
    expect(back.status).toBe(200);
    expect(back.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(await ref(9));
    const top = await api.get('/v1/feed?limit=50');
    expect(top.status).toBe(200);
    expect(top.body.items).toHaveLength(50);
    expect((await api.get('/readyz')).status).toBe(200);
  });
});
