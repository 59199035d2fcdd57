import { XMLValidator } from 'fast-xml-parser';
import robotsParserModule from 'robots-parser';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type PublisherInfo, type Simulator } from '../../src/simulator/index.js';
import { get, header, T0 } from './helpers.js';

// robots-parser is CommonJS: its callable export sits on `default` under NodeNext typings
const mod = robotsParserModule as unknown as { default?: unknown };
const robotsParser = (typeof mod === 'function' ? mod : mod.default) as (url: string, body: string) => {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getSitemaps(): string[];
};

describe('misbehaving publishers', () => {
  let sim: Simulator;
  const HUGE = 3 * 1024 * 1024;
  beforeAll(async () => {
    sim = await startSimulator({
      publishers: 40, seed: 'misbehave', now: () => T0,
      misbehaving: { slow: 1, error500: 2, rateLimited: 1, malformed: 3, huge: 1, redirectLoop: 1, robotsDisallow: 1 },
      misbehaviour: { slowMs: 1500, hugeBytes: HUGE, retryAfterSeconds: 90 },
    });
  });
  afterAll(async () => sim.close());
  const withMode = (b: PublisherInfo['behaviour']): PublisherInfo[] => sim.publishers.filter((p) => p.behaviour === b);

  it('assigns exactly the requested counts, never to wire agencies', () => {
    const counts = { slow: 1, error500: 2, rateLimited: 1, malformed: 3, huge: 1, redirectLoop: 1, robotsDisallow: 1 };
    for (const [mode, n] of Object.entries(counts)) expect(withMode(mode as PublisherInfo['behaviour'])).toHaveLength(n);
    expect(sim.publishers.filter((p) => p.kind === 'wire').every((p) => p.behaviour === 'ok')).toBe(true);
  });

  it('fractions are shares of all publishers', async () => {
    const s = await startSimulator({ publishers: 50, seed: 2, now: () => T0, misbehaving: { error500: 0.1 } });
    try {
      expect(s.publishers.filter((p) => p.behaviour === 'error500')).toHaveLength(5);
    } finally {
      await s.close();
    }
  });

  it('too many misbehaving publishers is a config error', async () => {
    await expect(startSimulator({ publishers: 5, seed: 1, now: () => T0, misbehaving: { error500: 9 } })).rejects.toMatchObject({ code: 'SIM_CONFIG_INVALID' });
  });

  it('slow: headers only after the delay', async () => {
    const p = withMode('slow')[0] as PublisherInfo;
    await expect(request(p.feed_url, { headersTimeout: 200 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    const ok = await request(p.feed_url, { headersTimeout: 10_000 });
    expect(ok.statusCode).toBe(200);
    await ok.body.text();
  });

  it('error500: every feed request fails with 500', async () => {
    for (const p of withMode('error500')) {
      expect((await get(p.feed_url)).status).toBe(500);
      expect((await get(p.feed_url)).status).toBe(500);
    }
  });

  it('rateLimited: 429 with Retry-After until the window passes, then one 200 reopens the window', async () => {
    const p = withMode('rateLimited')[0] as PublisherInfo;
    const first = await get(p.feed_url);
    expect(first.status).toBe(429);
    expect(Number(header(first.headers, 'retry-after'))).toBe(90);
    sim.tick(30_000);
    const early = await get(p.feed_url);
    expect(early.status).toBe(429);
    expect(Number(header(early.headers, 'retry-after'))).toBe(60);
    sim.tick(60_000);
    expect((await get(p.feed_url)).status).toBe(200);
    const again = await get(p.feed_url);
    expect(again.status).toBe(429);
    expect(sim.publisherStats(p.id).rateLimitViolations).toBe(3);
  });

  it('malformed: 200 with a body no parser accepts', async () => {
    for (const p of withMode('malformed')) {
      const res = await get(p.feed_url);
      expect(res.status).toBe(200);
      if (p.format === 'jsonfeed') expect(() => JSON.parse(res.text)).toThrow();
      else expect(XMLValidator.validate(res.text)).not.toBe(true);
    }
  });

  it('huge: streams the configured size without Content-Length', async () => {
    const p = withMode('huge')[0] as PublisherInfo;
    const res = await request(p.feed_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    let n = 0;
    for await (const chunk of res.body) n += (chunk as Buffer).length;
    expect(n).toBeGreaterThanOrEqual(HUGE);
  });

  it('redirectLoop: following Location comes back to the feed', async () => {
    const p = withMode('redirectLoop')[0] as PublisherInfo;
    const seen: string[] = [];
    let url = p.feed_url;
    for (let hop = 0; hop < 6 && !seen.includes(url); hop++) {
      seen.push(url);
      const res = await get(url);
      expect(res.status).toBe(302);
      url = new URL(header(res.headers, 'location') as string, url).toString();
    }
    expect(seen).toContain(url);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('behaviour can change at run time: a failing site recovers with its validators intact', async () => {
    const p = withMode('ok').find((x) => x.kind === 'outlet' && x.format === 'rss') as PublisherInfo;
    const before = await get(p.feed_url);
    const etag = header(before.headers, 'etag') as string;
    sim.setBehaviour(p.id, 'error500');
    expect(p.behaviour).toBe('error500');
    expect((await get(p.feed_url)).status).toBe(500);
    sim.setBehaviour(p.id, 'malformed');
    expect(XMLValidator.validate((await get(p.feed_url)).text)).not.toBe(true);
    sim.setBehaviour(p.id, 'ok');
    expect((await get(p.feed_url, { 'if-none-match': etag })).status).toBe(304);
    expect(() => sim.setBehaviour(p.id, 'sulking' as PublisherInfo['behaviour'])).toThrow(/unknown behaviour/);
  });

  it('robotsDisallow: robots.txt forbids that site only, and fetching it anyway is counted', async () => {
    const robotsUrl = `${sim.url}/robots.txt`;
    const robots = robotsParser(robotsUrl, (await get(robotsUrl)).text);
    const bad = withMode('robotsDisallow')[0] as PublisherInfo;
    expect(robots.isAllowed(bad.feed_url, 'newsagg')).toBe(false);
    expect(robots.isAllowed(bad.site_url, 'newsagg')).toBe(false);
    for (const p of withMode('ok')) expect(robots.isAllowed(p.feed_url, 'newsagg')).toBe(true);
    const sitemaps = sim.publishers.filter((p) => p.format === 'sitemap').map((p) => p.feed_url);
    expect(robots.getSitemaps().sort()).toEqual(sitemaps.sort());
    const before = sim.stats().robotsViolations;
    expect((await get(bad.feed_url)).status).toBe(200);
    expect(sim.stats().robotsViolations).toBe(before + 1);
  });
});
