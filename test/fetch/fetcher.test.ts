import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, Fetcher, type FetcherOptions } from '../../src/actors/fetch/index.js';
import { UA, sleep, startServer, writeForever, type TestServer } from './server.js';

const FEED = '<?xml version="1.0"?><rss version="2.0"><channel><title>Test feed</title></channel></rss>';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function serve(routes: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(routes);
  open.push(s);
  return s;
}
function fetcher(opts: Partial<FetcherOptions> = {}): Fetcher {
  const f = new Fetcher({ userAgent: UA, allowlist: ['127.0.0.0/8'], crawlDelayMs: 0, respectRobots: false, ...opts });
  open.push(f);
  return f;
}
async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe('conditional GET', () => {
  it('200 then 304 with the stored validators', async () => {
    const s = await serve({
      '/feed': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"' || req.headers['if-modified-since'] === 'Sun, 01 Mar 2026 10:00:00 GMT') {
          res.writeHead(304).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag: '"v1"', 'last-modified': 'Sun, 01 Mar 2026 10:00:00 GMT', 'cache-control': 'max-age=120' });
        res.end(FEED);
      },
    });
    const f = fetcher();
    const first = await f.fetch({ url: `${s.origin}/feed` });
    expect(first).toMatchObject({ status: 200, notModified: false, etag: '"v1"', lastModified: 'Sun, 01 Mar 2026 10:00:00 GMT', contentType: 'application/rss+xml', charset: 'utf-8', maxAgeMs: 120_000, permanentRedirect: null });
    expect(first.body.toString()).toBe(FEED);

    const second = await f.fetch({ url: `${s.origin}/feed`, etag: first.etag, lastModified: first.lastModified });
    expect(second).toMatchObject({ status: 304, notModified: true, etag: '"v1"', lastModified: 'Sun, 01 Mar 2026 10:00:00 GMT' });
    expect(second.body.length).toBe(0);
    expect(s.requests[1]!.headers['if-none-match']).toBe('"v1"');
    expect(s.requests[1]!.headers['if-modified-since']).toBe('Sun, 01 Mar 2026 10:00:00 GMT');
    expect(s.requests[0]!.headers['if-none-match']).toBeUndefined();
  });

  it('sends the configured User-Agent and asks for compression', async () => {
    const s = await serve({ '/feed': (_req, res) => res.end(FEED) });
    await fetcher().fetch({ url: `${s.origin}/feed` });
    expect(s.requests[0]!.headers['user-agent']).toBe(UA);
    expect(s.requests[0]!.headers['accept-encoding']).toMatch(/gzip/);
    expect(s.requests[0]!.headers['accept']).toMatch(/rss\+xml/);
  });
});

describe('content encodings', () => {
  it.each([
    ['gzip', gzipSync(FEED)],
    ['x-gzip', gzipSync(FEED)],
    ['deflate', deflateSync(FEED)],
    ['deflate', deflateRawSync(FEED)], // servers that send raw deflate
    ['br', brotliCompressSync(FEED)],
    ['gzip, br', brotliCompressSync(gzipSync(FEED))], // stacked: undone in reverse
  ] as const)('%s', async (encoding, body) => {
    const s = await serve({ '/feed': (_req, res) => res.writeHead(200, { 'content-encoding': encoding }).end(body) });
    const r = await fetcher().fetch({ url: `${s.origin}/feed` });
    expect(r.body.toString()).toBe(FEED);
  });

  it('an unknown or corrupt encoding is FETCH_DECODE', async () => {
    const s = await serve({
      '/zstd-ish': (_req, res) => res.writeHead(200, { 'content-encoding': 'compress' }).end('xx'),
      '/corrupt': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from('this is not gzip at all')),
    });
    const f = fetcher();
    expect((await failure(f.fetch({ url: `${s.origin}/zstd-ish` }))).code).toBe('FETCH_DECODE');
    expect((await failure(f.fetch({ url: `${s.origin}/corrupt` }))).code).toBe('FETCH_DECODE');
  });
});

describe('size limits', () => {
  it('cuts a gzip bomb (1 GiB of zeros, streamed) at the decompressed cap', async () => {
    let served = 0;
    const s = await serve({
      '/bomb': async (_req, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/rss+xml' });
        const gz = createGzip({ level: 9 });
        gz.on('data', (d: Buffer) => { served += d.length; });
        gz.pipe(res);
        res.on('close', () => gz.destroy());
        await writeForever(gz, Buffer.alloc(1024 * 1024), 1024 * 1024 * 1024);
      },
    });
    const err = await failure(fetcher({ maxBodyBytes: 1024 * 1024 }).fetch({ url: `${s.origin}/bomb` }));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(err.message).toMatch(/decoded body/);
    // The wire body stayed far below the cap: the compressed cap alone would not have caught it.
    expect(served).toBeLessThan(1024 * 1024);
  });

  it('cuts an endless body at the wire cap', async () => {
    const s = await serve({
      '/endless': async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        await writeForever(res, Buffer.alloc(64 * 1024, 0x20));
      },
    });
    const err = await failure(fetcher({ maxBodyBytes: 512 * 1024 }).fetch({ url: `${s.origin}/endless` }));
    expect(err.code).toBe('FETCH_TOO_LARGE');
  });

  it('refuses early when Content-Length is over the cap', async () => {
    const s = await serve({ '/big': (_req, res) => res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end(Buffer.alloc(10 * 1024 * 1024)) });
    const err = await failure(fetcher({ maxBodyBytes: 1024 * 1024 }).fetch({ url: `${s.origin}/big` }));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(err.message).toMatch(/declares/);
  });

  it('a body exactly at the cap passes', async () => {
    const s = await serve({ '/exact': (_req, res) => res.end(Buffer.alloc(4096, 0x61)) });
    const r = await fetcher({ maxBodyBytes: 4096 }).fetch({ url: `${s.origin}/exact` });
    expect(r.body.length).toBe(4096);
  });
});

describe('timeouts and cancellation', () => {
  it('slow headers → FETCH_TIMEOUT', async () => {
    const s = await serve({ '/slow': async (_req, res) => { await sleep(5_000); res.end(FEED); } });
    const err = await failure(fetcher({ headersTimeoutMs: 200 }).fetch({ url: `${s.origin}/slow` }));
    expect(err.code).toBe('FETCH_TIMEOUT');
  });

  it('a body that stalls → FETCH_TIMEOUT', async () => {
    const s = await serve({ '/stall': async (_req, res) => { res.writeHead(200); res.write('<rss>'); await sleep(5_000); res.end(); } });
    const err = await failure(fetcher({ bodyTimeoutMs: 200 }).fetch({ url: `${s.origin}/stall` }));
    expect(err.code).toBe('FETCH_TIMEOUT');
  });

  it('a trickling body hits the total deadline → FETCH_TIMEOUT', async () => {
    const s = await serve({
      '/trickle': async (_req, res) => {
        res.writeHead(200);
        for (let i = 0; i < 100 && !res.destroyed; i++) { res.write(' '); await sleep(50); }
        res.end();
      },
    });
    const err = await failure(fetcher({ totalTimeoutMs: 400 }).fetch({ url: `${s.origin}/trickle` }));
    expect(err.code).toBe('FETCH_TIMEOUT');
  });

  it("the caller's signal → FETCH_ABORTED", async () => {
    const s = await serve({ '/slow': async (_req, res) => { await sleep(5_000); res.end(FEED); } });
    const ctl = new AbortController();
    const p = fetcher().fetch({ url: `${s.origin}/slow`, signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    expect((await failure(p)).code).toBe('FETCH_ABORTED');
  });

  it('an unreachable port → FETCH_NETWORK', async () => {
    const s = await serve({});
    const origin = s.origin;
    await s.close();
    expect((await failure(fetcher().fetch({ url: `${origin}/feed` }))).code).toBe('FETCH_NETWORK');
  });
});

describe('status codes', () => {
  it.each([
    [429, { 'retry-after': '120' }, 'FETCH_RATE_LIMITED', 120_000],
    [503, { 'retry-after': '7' }, 'FETCH_RATE_LIMITED', 7_000],
    [503, {}, 'FETCH_RATE_LIMITED', null],
    [404, {}, 'FETCH_HTTP_ERROR', null],
    [410, {}, 'FETCH_HTTP_ERROR', null],
    [500, {}, 'FETCH_HTTP_ERROR', null],
    [300, {}, 'FETCH_HTTP_ERROR', null],
  ] as const)('%i → %s', async (status, headers, code, retryAfterMs) => {
    const s = await serve({ '/x': (_req, res) => res.writeHead(status, headers).end('nope') });
    const err = await failure(fetcher().fetch({ url: `${s.origin}/x` }));
    expect(err).toMatchObject({ code, status, retryAfterMs });
  });

  it('Retry-After as an HTTP-date is measured against the injected clock', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const s = await serve({ '/x': (_req, res) => res.writeHead(429, { 'retry-after': 'Sun, 01 Mar 2026 12:05:00 GMT' }).end() });
    const err = await failure(fetcher({ now: () => now }).fetch({ url: `${s.origin}/x` }));
    expect(err).toMatchObject({ code: 'FETCH_RATE_LIMITED', retryAfterMs: 300_000 });
  });
});

describe('bad URLs', () => {
  it.each(['ftp://127.0.0.1/feed', 'file:///etc/passwd', 'http://user:pw@127.0.0.1/feed', 'not a url', 'javascript:alert(1)'])('%s → FETCH_BAD_URL', async (url) => {
    expect((await failure(fetcher().fetch({ url }))).code).toBe('FETCH_BAD_URL');
  });
});

describe('per-origin politeness', () => {
  it('never has more than perHostConcurrency requests in flight to one host', async () => {
    const s = await serve({ '/feed': async (_req, res) => { await sleep(60); res.end(FEED); } });
    const f = fetcher({ perHostConcurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => f.fetch({ url: `${s.origin}/feed?n=${i}` })));
    expect(s.requests.length).toBe(6);
    expect(s.maxInFlight).toBe(2);
  });

  it('two ports of one host are two origins: neither waits for the other, each is limited on its own', async () => {
    // site A holds its requests until told; with one request per origin, a second one to A must
    // wait for the first, while B (same address, other port) is served meanwhile
    let releaseA!: () => void;
    const heldA = new Promise<void>((r) => (releaseA = r));
    const a = await serve({ '/feed': async (_req, res) => { await heldA; res.end(FEED); } });
    const b = await serve({ '/feed': (_req, res) => res.end(FEED) });
    const f = fetcher({ perHostConcurrency: 1 });
    const first = f.fetch({ url: `${a.origin}/feed?n=1` });
    const second = f.fetch({ url: `${a.origin}/feed?n=2` });
    expect((await f.fetch({ url: `${b.origin}/feed` })).status).toBe(200);
    while (a.requests.length < 1) await sleep(5);
    expect(a.requests.map((r) => r.path)).toEqual(['/feed?n=1']); // the second waits its turn
    releaseA();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(a.maxInFlight).toBe(1);
  });

  it('with concurrency 1 requests run one at a time', async () => {
    const s = await serve({ '/feed': async (_req, res) => { await sleep(30); res.end(FEED); } });
    const f = fetcher({ perHostConcurrency: 1 });
    await Promise.all(Array.from({ length: 4 }, (_, i) => f.fetch({ url: `${s.origin}/feed?n=${i}` })));
    expect(s.maxInFlight).toBe(1);
  });
});

describe('metrics', () => {
  it('records newsagg_fetch_duration_seconds by outcome', async () => {
    const { Metrics } = await import('../../src/runtime/metrics.js');
    const metrics = new Metrics();
    const s = await serve({
      '/feed': (req, res) => (req.headers['if-none-match'] ? res.writeHead(304).end() : res.writeHead(200, { etag: '"a"' }).end(FEED)),
      '/gone': (_req, res) => res.writeHead(410).end(),
    });
    const f = new Fetcher({ userAgent: UA, allowlist: ['127.0.0.0/8'], crawlDelayMs: 0, respectRobots: false, metrics });
    open.push(f);
    await f.fetch({ url: `${s.origin}/feed` });
    await f.fetch({ url: `${s.origin}/feed`, etag: '"a"' });
    await f.fetch({ url: `${s.origin}/gone` }).catch(() => undefined);
    const text = await metrics.text();
    expect(text).toMatch(/newsagg_fetch_duration_seconds_count\{outcome="ok"\} 1/);
    expect(text).toMatch(/newsagg_fetch_duration_seconds_count\{outcome="not_modified"\} 1/);
    expect(text).toMatch(/newsagg_fetch_duration_seconds_count\{outcome="FETCH_HTTP_ERROR"\} 1/);
  });
});
