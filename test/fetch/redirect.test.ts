import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, Fetcher } from '../../src/actors/fetch/index.js';
import { UA, startServer, type TestServer } from './server.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const FEED = '<rss><channel><title>moved</title></channel></rss>';
const to = (status: number, location: string) => (_req: unknown, res: import('node:http').ServerResponse) => res.writeHead(status, { location }).end();

async function setup(routes: Parameters<typeof startServer>[0], maxRedirects?: number): Promise<{ s: TestServer; f: Fetcher }> {
  const s = await startServer({ '/feed': (_req, res) => res.end(FEED), ...routes });
  const f = new Fetcher({ userAgent: UA, allowlist: ['127.0.0.0/8'], crawlDelayMs: 0, respectRobots: false, ...(maxRedirects === undefined ? {} : { maxRedirects }) });
  open.push(s, f);
  return { s, f };
}
async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  return (err as FetchError).code;
}

describe('redirects', () => {
  it.each([
    ['301 → feed', { '/a': to(301, '/feed') }, '/feed'],
    ['308 → 301 → feed', { '/a': to(308, '/b'), '/b': to(301, '/feed') }, '/feed'],
    ['301 → 302 → feed: only the permanent part counts', { '/a': to(301, '/b'), '/b': to(302, '/feed') }, '/b'],
    ['302 → 301 → feed: a temporary first hop moves nothing', { '/a': to(302, '/b'), '/b': to(301, '/feed') }, null],
    ['307 → feed', { '/a': to(307, '/feed') }, null],
    ['303 → feed', { '/a': to(303, '/feed') }, null],
  ] as const)('%s', async (_name, routes, permanent) => {
    const { s, f } = await setup(routes);
    const r = await f.fetch({ url: `${s.origin}/a` });
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${s.origin}/feed`);
    expect(r.body.toString()).toBe(FEED);
    expect(r.permanentRedirect).toBe(permanent === null ? null : `${s.origin}${permanent}`);
  });

  it('absolute Location to another origin is followed', async () => {
    const other = await startServer({ '/feed': (_req, res) => res.end(FEED) });
    open.push(other);
    const { s, f } = await setup({ '/a': to(301, `${other.origin}/feed`) });
    const r = await f.fetch({ url: `${s.origin}/a` });
    expect(r.url).toBe(`${other.origin}/feed`);
    expect(r.permanentRedirect).toBe(`${other.origin}/feed`);
  });

  it.each([
    ['self loop', { '/a': to(301, '/a') }],
    ['two-step loop', { '/a': to(302, '/b'), '/b': to(302, '/a') }],
    ['loop ignoring the fragment', { '/a': to(302, '/b'), '/b': to(302, '/a#x') }],
  ] as const)('%s → FETCH_REDIRECT_LOOP', async (_name, routes) => {
    const { s, f } = await setup(routes);
    expect(await code(f.fetch({ url: `${s.origin}/a` }))).toBe('FETCH_REDIRECT_LOOP');
    expect(s.requests.length).toBeLessThanOrEqual(3);
  });

  it('a long chain → FETCH_TOO_MANY_REDIRECTS', async () => {
    const routes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/r${i}`, to(302, `/r${i + 1}`)]));
    const { s, f } = await setup(routes, 3);
    expect(await code(f.fetch({ url: `${s.origin}/r0` }))).toBe('FETCH_TOO_MANY_REDIRECTS');
    expect(s.requests.length).toBe(4); // the start and three followed hops
  });

  it('exactly maxRedirects hops still succeed', async () => {
    const { s, f } = await setup({ '/r0': to(302, '/r1'), '/r1': to(302, '/r2'), '/r2': to(302, '/feed') }, 3);
    expect((await f.fetch({ url: `${s.origin}/r0` })).status).toBe(200);
  });

  it.each([
    ['file:///etc/passwd'],
    ['ftp://127.0.0.1/feed'],
    ['http://user:secret@127.0.0.1/feed'],
  ])('a redirect to %s → FETCH_BAD_URL', async (location) => {
    const { s, f } = await setup({ '/a': to(302, location) });
    expect(await code(f.fetch({ url: `${s.origin}/a` }))).toBe('FETCH_BAD_URL');
  });

  it('conditional headers follow the redirect and a 304 at the end is "not modified"', async () => {
    const { s, f } = await setup({
      '/a': to(301, '/cond'),
      '/cond': (req, res) => (req.headers['if-none-match'] === '"e1"' ? res.writeHead(304).end() : res.writeHead(200, { etag: '"e1"' }).end(FEED)),
    });
    const r = await f.fetch({ url: `${s.origin}/a`, etag: '"e1"' });
    expect(r).toMatchObject({ status: 304, notModified: true, etag: '"e1"', permanentRedirect: `${s.origin}/cond` });
  });
});
