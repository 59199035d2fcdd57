import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type PublisherInfo, type Simulator } from '../../src/simulator/index.js';
import { T0 } from './helpers.js';

describe('virtual hosts: one host per site', () => {
  let sim: Simulator;
  let agent: Agent;
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 30, seed: 'vhosts', now: () => T0, vhosts: true, misbehaving: { robotsDisallow: 1, redirectLoop: 1 } });
    agent = new Agent({ connect: { lookup: sim.lookup } });
  });
  afterAll(async () => {
    await agent.close();
    await sim.close();
  });
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await request(url, { dispatcher: agent, headers });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };
  const ok = (): PublisherInfo => sim.publishers.find((p) => p.behaviour === 'ok' && p.format === 'rss' && p.kind === 'outlet') as PublisherInfo;

  it('every site is its own *.sim.test host; feeds, items and conditional GET work there', async () => {
    const p = ok();
    expect(new URL(p.site_url).hostname).toBe(`${p.id}.sim.test`);
    expect(p.feed_url).toBe(`${p.site_url}rss.xml`);
    const first = await get(p.feed_url);
    expect(first.status).toBe(200);
    const link = /<item>\n<title>[^<]*<\/title>\n<link>([^<]+)<\/link>/.exec(first.text)?.[1] as string;
    expect(new URL(link).hostname).toBe(`${p.id}.sim.test`);
    expect((await get(link)).status).toBe(200);
    expect((await get(p.feed_url, { 'if-none-match': first.headers.etag as string })).status).toBe(304);
  });

  it('each site serves its own robots.txt', async () => {
    const bad = sim.publishers.find((p) => p.behaviour === 'robotsDisallow') as PublisherInfo;
    expect((await get(new URL('/robots.txt', bad.site_url).toString())).text).toContain('Disallow: /\n');
    const good = await get(new URL('/robots.txt', ok().site_url).toString());
    expect(good.text).not.toContain('Disallow: /\n');
    const sitemapSite = sim.publishers.find((p) => p.format === 'sitemap') as PublisherInfo;
    expect((await get(new URL('/robots.txt', sitemapSite.site_url).toString())).text).toContain(`Sitemap: ${sitemapSite.feed_url}`);
  });

  it('redirect loops stay on the site host', async () => {
    const p = sim.publishers.find((x) => x.behaviour === 'redirectLoop') as PublisherInfo;
    const res = await get(p.feed_url);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.location as string).host).toBe(new URL(p.site_url).host);
  });

  it('unknown site hosts answer 404; the main host still serves OPML with site URLs', async () => {
    expect((await get(`http://nope.sim.test:${sim.port}/rss.xml`)).status).toBe(404);
    const opml = await get(`${sim.url}/opml.xml`);
    expect(opml.text).toContain(`xmlUrl="${ok().feed_url}"`);
  });

  it('the hub knows vhost topics', async () => {
    const p = ok();
    const res = await request(`${sim.url}/hub`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.callback': 'http://127.0.0.1:9/cb', 'hub.topic': p.feed_url }).toString(),
    });
    await res.body.text();
    expect(res.statusCode).toBe(202);
    await sim.hub?.idle();
  });
});
