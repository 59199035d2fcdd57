import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, Fetcher, type FetcherOptions } from '../../src/actors/fetch/index.js';
import { RobotsCache } from '../../src/actors/fetch/robots.js';
import { transport } from '../../src/actors/fetch/transport.js';
import { UA, startServer, type TestServer } from './server.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const text = (body: string, status = 200) => (_req: unknown, res: import('node:http').ServerResponse) =>
  res.writeHead(status, { 'content-type': 'text/plain' }).end(body);

async function setup(robots: Parameters<typeof startServer>[0][string], opts: Partial<FetcherOptions> = {}) {
  const s = await startServer({
    '/robots.txt': robots,
    '/feed': text('<rss/>'),
    '/private/feed': text('<rss/>'),
    '/real-robots.txt': text('User-agent: *\nDisallow: /private/\n'),
  });
  const f = new Fetcher({ userAgent: UA, allowlist: ['127.0.0.0/8'], crawlDelayMs: 0, ...opts });
  open.push(s, f);
  return { s, f };
}
async function failure(p: Promise<unknown>): Promise<FetchError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}
const paths = (s: TestServer) => s.requests.map((r) => r.path);

describe('robots.txt', () => {
  it('a disallowed path is refused before it is requested', async () => {
    const { s, f } = await setup(text('User-agent: *\nDisallow: /private/\n'));
    expect((await f.fetch({ url: `${s.origin}/feed` })).status).toBe(200);
    const err = await failure(f.fetch({ url: `${s.origin}/private/feed` }));
    expect(err.code).toBe('ROBOTS_DISALLOWED');
    expect(paths(s)).toEqual(['/robots.txt', '/feed']);
    expect(s.requests[0]!.headers['user-agent']).toBe(UA);
  });

  it('a group for our product token beats the * group', async () => {
    const { s, f } = await setup(text('User-agent: *\nAllow: /\n\nUser-agent: newsagg-test\nDisallow: /\n'));
    expect((await failure(f.fetch({ url: `${s.origin}/feed` }))).code).toBe('ROBOTS_DISALLOWED');
  });

  it.each([
    [404, 'allows all'],
    [401, 'allows all'],
    [410, 'allows all'],
  ])('a %i robots.txt %s', async (status) => {
    const { s, f } = await setup(text('nope', status));
    expect((await f.fetch({ url: `${s.origin}/private/feed` })).status).toBe(200);
  });

  it.each([500, 503, 429])('a %i robots.txt disallows all for a while', async (status) => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    let robotsStatus = status;
    const { s, f } = await setup((_req, res) => res.writeHead(robotsStatus).end(robotsStatus === 200 ? 'User-agent: *\nAllow: /\n' : ''), { now: () => now });
    const err = await failure(f.fetch({ url: `${s.origin}/feed` }));
    expect(err).toMatchObject({ code: 'ROBOTS_DISALLOWED', retryAfterMs: 600_000 });
    now += 5 * 60_000;
    expect(await failure(f.fetch({ url: `${s.origin}/feed` }))).toMatchObject({ retryAfterMs: 300_000 });
    expect(paths(s)).toEqual(['/robots.txt']); // cached, not asked again
    robotsStatus = 200;
    now += 5 * 60_000;
    expect((await f.fetch({ url: `${s.origin}/feed` })).status).toBe(200);
    expect(paths(s)).toEqual(['/robots.txt', '/robots.txt', '/feed']);
  });

  it('is fetched once for many concurrent fetches and refreshed after its TTL', async () => {
    let now = 1_000_000;
    const { s, f } = await setup(text('User-agent: *\nDisallow: /private/\n'), { now: () => now, robotsTtlMs: 60_000, perHostConcurrency: 4 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => f.fetch({ url: `${s.origin}/feed?i=${i}` })));
    expect(paths(s).filter((p) => p === '/robots.txt').length).toBe(1);
    now += 60_001;
    await f.fetch({ url: `${s.origin}/feed` });
    expect(paths(s).filter((p) => p === '/robots.txt').length).toBe(2);
  });

  it('redirects of robots.txt are followed', async () => {
    const { s, f } = await setup((_req, res) => res.writeHead(301, { location: '/real-robots.txt' }).end());
    expect((await failure(f.fetch({ url: `${s.origin}/private/feed` }))).code).toBe('ROBOTS_DISALLOWED');
  });

  it('respectRobots: false never asks', async () => {
    const { s, f } = await setup(text('User-agent: *\nDisallow: /\n'), { respectRobots: false });
    expect((await f.fetch({ url: `${s.origin}/feed` })).status).toBe(200);
    expect(paths(s)).toEqual(['/feed']);
  });

  it('reports Crawl-delay for our token to the origin queue', async () => {
    const s = await startServer({ '/robots.txt': text('User-agent: newsagg-test\nCrawl-delay: 7\nDisallow: /x\n') });
    const agent = new Agent();
    open.push(s, agent);
    const delays: [string, number][] = [];
    const cache = new RobotsCache({
      fetch: transport(agent, UA),
      productToken: 'newsagg-test',
      ttlMs: 60_000,
      unavailableTtlMs: 60_000,
      maxBytes: 64 * 1024,
      timeoutMs: 5_000,
      now: Date.now,
      onCrawlDelay: (host, ms) => delays.push([host, ms]),
    });
    await cache.check(new URL(`${s.origin}/feed`), AbortSignal.timeout(5_000));
    expect(delays).toEqual([[s.origin, 7_000]]); // per origin: the port is part of it
    await expect(cache.check(new URL(`${s.origin}/x`), AbortSignal.timeout(5_000))).rejects.toMatchObject({ code: 'ROBOTS_DISALLOWED' });
  });
});
