import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchEmbedded, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from './harness.js';

describe('per-client rate limits on public routes', () => {
  let db: TestDb;
  let api: ApiHarness;
  let t = 1_000_000;

  beforeAll(async () => {
    db = await scratchEmbedded();
    api = await startApi(db.sql, new MemoryCache(), { rateLimit: { rps: 1, burst: 3 }, now: () => t, apiTokens: ['reader-token-1234567890'] });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('answers 429 with Retry-After past the burst, refills over time, and gives a known token its own bucket', async () => {
    const paths = ['/v1/feed', '/v1/search?q=x', '/v1/stories/nope'];
    for (const p of paths) expect((await api.get(p)).status).not.toBe(429);
    for (const p of [...paths, '/r/nope', '/', '/thumbs/aa/bb.webp']) {
      const r = await api.get(p);
      expect(r.status, p).toBe(429);
      expect(r.body.error.code).toBe('rate_limited');
      expect(r.headers['retry-after']).toBe('1');
    }
    // a token the node does not know buys no fresh bucket
    expect((await api.get('/v1/feed', { authorization: 'Bearer made-up-token' })).status).toBe(429);
    expect((await api.get('/v1/feed', { authorization: 'Bearer reader-token-1234567890' })).status).toBe(200);
    t += 1000;
    expect((await api.get('/v1/feed')).status).toBe(200);
    expect((await api.get('/v1/feed')).status).toBe(429);
  });
});
