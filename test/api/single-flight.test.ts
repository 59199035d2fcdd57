import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService, type FeedQuery } from '../../src/api/feed.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

/** The in-process cache with a slow ranking read, as Redis under load would be, so renders overlap. */
class SlowCache extends MemoryCache {
  delayMs = 0;
  override async zrevrangebyscore(...args: Parameters<MemoryCache['zrevrangebyscore']>) {
    await new Promise((r) => setTimeout(r, this.delayMs));
    return super.zrevrangebyscore(...args);
  }
}

describe('feed route under a burst of identical requests', () => {
  let db: TestDb;
  let api: ApiHarness;
  let renders = 0;

  beforeAll(async () => {
    db = await scratchPostgres();
    const cache = new SlowCache();
    await seedStories(db.sql, cache, stories(40, 's', 0));
    cache.delayMs = 150;
    // no hot cache, so every render that starts builds a page and a snapshot of its own
    const feed = new FeedService({ sql: db.sql, cache, codec: new CursorCodec('test-secret-0123456789'), hotTtlMs: 0 });
    const render = feed.render.bind(feed);
    feed.render = (q: FeedQuery) => {
      renders++;
      return render(q);
    };
    api = await startApi(db.sql, cache, { feed });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('renders once for requests that arrive together, and every one gets the same page and cursor', async () => {
    const got = await Promise.all(Array.from({ length: 12 }, () => api.get('/v1/feed?limit=10')));
    for (const r of got) expect(r.status).toBe(200);
    expect(renders).toBeLessThanOrEqual(2);
    expect(new Set(got.map((r) => r.text)).size).toBe(renders);
    // later requests render again (nothing is cached past the flight)
    const before = renders;
    await api.get('/v1/feed?limit=10');
    expect(renders).toBe(before + 1);
  });

  it('serves the last first page at once while a rebuild is in flight, then the rebuilt one', async () => {
    const old = await api.get('/v1/feed?limit=10');
    const slow = api.get('/v1/feed?limit=10'); // starts a rebuild (no hot cache), slowed by the cache
    await new Promise((r) => setTimeout(r, 10));
    const meanwhile = await api.get('/v1/feed?limit=10');
    const rebuilt = await slow;
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.text).toBe(old.text);
    expect(rebuilt.text).toBe(old.text); // an unchanged ranking keeps its snapshot id, so the page (and its ETag) stays the same
    // the stale page's cursor still works
    const next = await api.get(`/v1/feed?limit=10&cursor=${meanwhile.body.next_cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.items[0].story_id).not.toBe(meanwhile.body.items[0].story_id);
  });
});
