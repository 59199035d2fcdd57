import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../src/api/client-address.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchEmbedded, type TestDb } from '../helpers/db.js';
import { PGLITE_START_MS } from '../node/pg-fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

describe('per-client rate limits on public routes', () => {
  let db: TestDb;
  let api: ApiHarness;
  let t = 1_000_000;

  beforeAll(async () => {
    db = await scratchEmbedded();
    api = await startApi(db.sql, new MemoryCache(), { rateLimit: { rps: 1, burst: 3 }, now: () => t, apiTokens: ['reader-token-1234567890'] });
  }, PGLITE_START_MS); // embedded PGlite starts by running initdb in WASM: about 40 s on a loaded machine, close to 60 s
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

  it('behind a trusted proxy, limits per forwarded client (the hop the proxy appended, not a spoofable earlier one)', async () => {
    // the test client connects from 127.0.0.1: that is the trusted proxy here
    const proxied = await startApi(db.sql, new MemoryCache(), { rateLimit: { rps: 1, burst: 2 }, now: () => t, trustProxy: new TrustedProxies(['127.0.0.1/32', '10.0.0.0/8']) });
    try {
      const as = (xff: string) => proxied.get('/v1/feed?limit=1', { 'x-forwarded-for': xff });
      expect((await as('203.0.113.7')).status).toBe(200);
      expect((await as('203.0.113.7')).status).toBe(200);
      expect((await as('203.0.113.7')).status).toBe(429);
      expect((await as('1.2.3.4, 203.0.113.7')).status).toBe(429); // a forged first hop buys nothing
      expect((await as('203.0.113.7, 10.1.2.3')).status).toBe(429); // a second trusted proxy in the chain is skipped
      expect((await as('198.51.100.9')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('from a peer that is not a trusted proxy, X-Forwarded-For is ignored: every forged address shares the peer bucket', async () => {
    const direct = await startApi(db.sql, new MemoryCache(), { rateLimit: { rps: 1, burst: 2 }, now: () => t, trustProxy: new TrustedProxies(['10.0.0.0/8']) });
    try {
      const as = (xff: string) => direct.get('/v1/feed?limit=1', { 'x-forwarded-for': xff });
      expect((await as('203.0.113.7')).status).toBe(200);
      expect((await as('198.51.100.9')).status).toBe(200);
      expect((await as('192.0.2.44')).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});
