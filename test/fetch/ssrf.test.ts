import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, Fetcher, type FetcherOptions } from '../../src/actors/fetch/index.js';
import { SsrfGuard, type LookupFn } from '../../src/actors/fetch/ssrf.js';
import { UA, startServer, type TestServer } from './server.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** Injected DNS: the only way these names resolve. */
const DNS: Record<string, { address: string; family: 4 | 6 }[]> = {
  'evil.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.evil.test': [{ address: '169.254.169.254', family: 4 }],
  'v6.evil.test': [{ address: '::1', family: 6 }],
  'mapped.evil.test': [{ address: '::ffff:10.0.0.1', family: 6 }],
  'sub.evil.test': [{ address: '127.0.0.1', family: 4 }],
  'good.test': [{ address: '127.0.0.1', family: 4 }],
  'mixed.test': [{ address: '10.0.0.1', family: 4 }, { address: '127.0.0.1', family: 4 }],
  'public.test': [{ address: '93.184.215.14', family: 4 }],
};
const lookup: LookupFn = async (host) => {
  const a = DNS[host];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a;
};

let server: TestServer;
async function fetcher(opts: Partial<FetcherOptions> = {}): Promise<Fetcher> {
  server = await startServer({
    '/feed': (_req, res) => res.end('<rss/>'),
    '/to-evil': (_req, res) => res.writeHead(302, { location: `http://evil.test:${server.port}/feed` }).end(),
    '/to-metadata': (_req, res) => res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  });
  const f = new Fetcher({ userAgent: UA, crawlDelayMs: 0, respectRobots: false, lookup, ...opts });
  open.push(server, f);
  return f;
}
async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe('SSRF guard (no allowlist)', () => {
  it.each([
    ['evil.test', /127\.0\.0\.1 \(loopback\)/],
    ['metadata.evil.test', /169\.254\.169\.254 \(link-local\)/],
    ['v6.evil.test', /loopback/],
    ['mapped.evil.test', /private \(inside IPv6\)/],
    ['mixed.test', /private/],
    ['127.0.0.1', /loopback/],
    ['169.254.169.254', /link-local/],
    ['[::1]', /loopback/],
    ['2130706433', /loopback/], // decimal 127.0.0.1, normalised by the URL parser
    ['metadata.google.internal', /metadata/],
  ])('%s is refused', async (host, message) => {
    const f = await fetcher();
    const port = host.includes('.test') ? `:${server.port}` : '';
    const err = await failure(f.fetch({ url: `http://${host}${port}/feed` }));
    expect(err.code).toBe('SSRF_BLOCKED');
    expect(err.message).toMatch(message);
    expect(server.requests.length).toBe(0); // nothing reached the server
  });

  it('an unknown name is FETCH_NETWORK, not SSRF', async () => {
    const f = await fetcher();
    expect((await failure(f.fetch({ url: 'http://nowhere.test/feed' }))).code).toBe('FETCH_NETWORK');
  });
});

describe('SSRF guard with an allowlist', () => {
  it('a CIDR lets the loopback server through', async () => {
    const f = await fetcher({ allowlist: ['127.0.0.0/8'] });
    const r = await f.fetch({ url: `http://evil.test:${server.port}/feed` });
    expect(r.status).toBe(200);
    // the Host header still names the original host
    expect(server.requests[0]!.headers.host).toBe(`evil.test:${server.port}`);
  });

  it('a hostname entry allows that name only, and redirects are checked again', async () => {
    const f = await fetcher({ allowlist: ['good.test'] });
    expect((await f.fetch({ url: `http://good.test:${server.port}/feed` })).status).toBe(200);
    const toEvil = await failure(f.fetch({ url: `http://good.test:${server.port}/to-evil` }));
    expect(toEvil.code).toBe('SSRF_BLOCKED');
    const toMetadata = await failure(f.fetch({ url: `http://good.test:${server.port}/to-metadata` }));
    expect(toMetadata.code).toBe('SSRF_BLOCKED');
    expect(server.requests.map((r) => r.path)).toEqual(['/feed', '/to-evil', '/to-metadata']);
  });

  it('a wildcard entry covers subdomains', async () => {
    const f = await fetcher({ allowlist: ['*.evil.test'] });
    expect((await f.fetch({ url: `http://sub.evil.test:${server.port}/feed` })).status).toBe(200);
    expect((await failure(f.fetch({ url: `http://evil.test:${server.port}/feed` }))).code).toBe('SSRF_BLOCKED');
  });
});

describe('SsrfGuard.resolve', () => {
  it.each([
    [[], 'public.test', '93.184.215.14'],
    [['127.0.0.0/8'], 'mixed.test', '127.0.0.1'], // the private one is skipped, the allowed one chosen
    [['10.0.0.0/8'], 'mixed.test', '10.0.0.1'],
    [['::1'], 'v6.evil.test', '::1'],
    [[], '8.8.8.8', '8.8.8.8'],
  ] as const)('allowlist %j: %s → %s', async (allow, host, address) => {
    const g = new SsrfGuard([...allow], lookup);
    expect((await g.resolve(host)).address).toBe(address);
  });

  it('a slow resolver is FETCH_TIMEOUT', async () => {
    const g = new SsrfGuard([], () => new Promise(() => undefined), 50);
    const err = await g.resolve('slow.test').then(() => null, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'FETCH_TIMEOUT' });
  });
});
