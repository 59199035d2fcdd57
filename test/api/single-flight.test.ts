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
  /** when set, ranking reads also wait for it: the test decides when a render in flight may finish */
  gate: Promise<void> | null = null;
  override async zrevrangebyscore(...args: Parameters<MemoryCache['zrevrangebyscore']>) {
    await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.gate) await this.gate;
    return super.zrevrangebyscore(...args);
  }
}

/** A gate the test opens; it opens by itself after `ms` so a broken route fails instead of hanging. */
function gate(ms = 10_000): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  const t = setTimeout(open, ms);
  return { promise, open: () => (clearTimeout(t), open()) };
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 1));
  }
}

describe('feed route under a burst of identical requests', () => {
  let db: TestDb;
  let api: ApiHarness;
  let renders = 0;
  /** feed requests that reached the route (each asks the hot cache first) */
  let arrived = 0;
  let cache: SlowCache;

  beforeAll(async () => {
    db = await scratchPostgres();
    cache = new SlowCache();
    await seedStories(db.sql, cache, stories(40, 's', 0));
    cache.delayMs = 150;
    // no hot cache, so every render that starts builds a page and a snapshot of its own
    const feed = new FeedService({ sql: db.sql, cache, codec: new CursorCodec('test-secret-0123456789'), hotTtlMs: 0 });
    const render = feed.render.bind(feed);
    feed.render = (q: FeedQuery) => {
      renders++;
      return render(q);
    };
    const cached = feed.cached.bind(feed);
    feed.cached = (q: FeedQuery) => {
      arrived++;
      return cached(q);
    };
    api = await startApi(db.sql, cache, { feed });
    // the feed cache has no epoch yet: let the rebuild that starts with the service finish first
    await feed.checkCache();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('renders once for requests that arrive together, and every one gets the same page and cursor', async () => {
    // "together": the render in flight is held until all 12 requests have reached the route
    // (on a loaded machine 12 fresh connections can take longer than one slowed render)
    const g = gate();
    cache.gate = g.promise;
    const want = arrived + 12;
    const burst = Promise.all(Array.from({ length: 12 }, () => api.get('/v1/feed?limit=10')));
    await until(() => arrived >= want);
    g.open();
    cache.gate = null;
    const got = await burst;
    for (const r of got) expect(r.status).toBe(200);
    expect(renders).toBe(1);
    expect(new Set(got.map((r) => r.text)).size).toBe(1);
    // later requests render again (nothing is cached past the flight)
    const before = renders;
    await api.get('/v1/feed?limit=10');
    expect(renders).toBe(before + 1);
  });

  it('serves the last first page at once while a rebuild is in flight, then the rebuilt one', async () => {
    const old = await api.get('/v1/feed?limit=10');
    const before = renders;
    const g = gate(); // the rebuild stays in flight until the other reader has its answer
    cache.gate = g.promise;
    let slowDone = false;
    const slow = api.get('/v1/feed?limit=10').finally(() => (slowDone = true)); // starts a rebuild (no hot cache)
    await until(() => renders > before); // the rebuild has begun
    const meanwhile = await api.get('/v1/feed?limit=10');
    expect(slowDone).toBe(false); // answered while the rebuild was in flight, not queued behind it
    expect(renders).toBe(before + 1);
    g.open();
    cache.gate = null;
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
