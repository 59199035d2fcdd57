import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

/** Cached feed pages are answered synchronously from pre-built replies: they must be the same replies. */
describe('feed pages from the hot cache', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();
  const path = '/v1/feed?region=global&category=top&limit=5';

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(30, 'h', 0));
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('answers a repeat with the same body and headers, HEAD without a body, and 304 for its ETag', async () => {
    const first = await api.get(path);
    const hot = await api.get(path);
    expect(hot.status).toBe(200);
    expect(hot.text).toBe(first.text);
    for (const h of ['content-type', 'etag', 'cache-control', 'content-length']) expect(hot.headers[h], h).toBe(first.headers[h]);
    expect(hot.headers['content-type']).toBe('application/json; charset=utf-8');
    const head = await api.get(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBe(first.headers.etag);
    for (const inm of [String(first.headers.etag), `W/${first.headers.etag}`, `"other", ${first.headers.etag}`, '*']) {
      const nm = await api.get(path, { 'if-none-match': inm });
      expect(nm.status, inm).toBe(304);
      expect(nm.headers['cache-control']).toBe(first.headers['cache-control']);
    }
    expect((await api.get(path, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('still refuses bad parameters of a query string it has seen in a valid form', async () => {
    await api.get('/v1/feed?limit=5');
    for (const [q, code] of [
      ['limit=5&limit=5', 'repeated_parameter'],
      ['limit=51', 'invalid_limit'],
      ['limit=5&region=mars', 'invalid_region'],
      ['limit=5&cursor=nope', 'invalid_cursor'],
    ]) {
      const r = await api.get(`/v1/feed?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe(code);
    }
  });

  it('drops the kept page when the store announces a change to its feed', async () => {
    const before = await api.get(path);
    expect((await api.get(path)).text).toBe(before.text);
    await seedStories(db.sql, cache, stories(1, 'new', 10_000)); // publishes the invalidation, as the store does
    await new Promise((r) => setTimeout(r, 20));
    const after = await api.get(path);
    expect(after.body.items[0].story_id).toBe('new0000');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
