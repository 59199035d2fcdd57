import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type PublisherInfo, type Simulator } from '../../src/simulator/index.js';
import { get, header, T0 } from './helpers.js';

describe('honest HTTP', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 60, seed: 'http', now: () => T0 });
  });
  afterAll(async () => sim.close());

  const formats = ['rss', 'atom', 'jsonfeed', 'sitemap'] as const;
  const honest = (format: PublisherInfo['format']): PublisherInfo => {
    const p = sim.publishers.find((x) => x.format === format && x.behaviour === 'ok' && x.kind === 'outlet');
    if (!p) throw new Error(`no honest ${format} publisher in the catalogue`);
    return p;
  };

  it.each(formats)('%s: 200 then 304 by ETag and by Last-Modified', async (format) => {
    const p = honest(format);
    const first = await get(p.feed_url);
    expect(first.status).toBe(200);
    const etag = header(first.headers, 'etag');
    const lastModified = header(first.headers, 'last-modified');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Date.parse(lastModified ?? '')).toBeLessThanOrEqual(T0);
    if (format === 'jsonfeed') expect(() => JSON.parse(first.text)).not.toThrow();
    else expect(XMLValidator.validate(first.text)).toBe(true);

    const byTag = await get(p.feed_url, { 'if-none-match': etag as string });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    expect(header(byTag.headers, 'etag')).toBe(etag);
    expect((await get(p.feed_url, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get(p.feed_url, { 'if-modified-since': lastModified as string })).status).toBe(304);
    const earlier = new Date(Date.parse(lastModified as string) - 1000).toUTCString();
    expect((await get(p.feed_url, { 'if-modified-since': earlier })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since
    expect((await get(p.feed_url, { 'if-none-match': '"stale"', 'if-modified-since': lastModified as string })).status).toBe(200);
  });

  it('new items change the ETag and Last-Modified, and the old validators then get 200', async () => {
    const p = honest('rss');
    const before = await get(p.feed_url);
    const oldTag = header(before.headers, 'etag') as string;
    sim.tick(60_000);
    const [item] = sim.publish(1, p.id);
    const after = await get(p.feed_url, { 'if-none-match': oldTag });
    expect(after.status).toBe(200);
    expect(header(after.headers, 'etag')).not.toBe(oldTag);
    expect(Date.parse(header(after.headers, 'last-modified') as string)).toBeGreaterThan(Date.parse(header(before.headers, 'last-modified') as string));
    expect(after.text).toContain(item?.id);
    const again = await get(p.feed_url, { 'if-none-match': header(after.headers, 'etag') as string });
    expect(again.status).toBe(304);
  });

  it('serves gzip when asked, with its own strong ETag that still validates', async () => {
    const p = honest('atom');
    const plain = await get(p.feed_url);
    const gz = await get(p.feed_url, { 'accept-encoding': 'gzip, deflate' });
    expect(header(gz.headers, 'content-encoding')).toBe('gzip');
    expect(header(gz.headers, 'vary')).toBe('Accept-Encoding');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(plain.text);
    expect(header(gz.headers, 'etag')).not.toBe(header(plain.headers, 'etag'));
    expect((await get(p.feed_url, { 'accept-encoding': 'gzip', 'if-none-match': header(gz.headers, 'etag') as string })).status).toBe(304);
    expect(header((await get(p.feed_url, { 'accept-encoding': 'gzip;q=0' })).headers, 'content-encoding')).toBeUndefined();
  });

  it('HEAD answers headers only', async () => {
    const p = honest('rss');
    const res = await get(p.feed_url, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(header(res.headers, 'etag')).toBeTruthy();
  });

  it('Cache-Control max-age and RSS <ttl> appear where the catalogue says', async () => {
    for (const p of sim.publishers.filter((x) => x.behaviour === 'ok')) {
      const res = await get(p.feed_url);
      const cc = header(res.headers, 'cache-control');
      if (p.max_age_seconds === null) expect(cc).toBeUndefined();
      else expect(cc).toBe(`public, max-age=${p.max_age_seconds}`);
      if (p.format === 'rss') expect(res.text.includes(`<ttl>${p.ttl_minutes}</ttl>`)).toBe(p.ttl_minutes !== null);
    }
    expect(sim.publishers.some((p) => p.max_age_seconds !== null)).toBe(true);
    expect(sim.publishers.some((p) => p.max_age_seconds === null)).toBe(true);
  });

  it('feeds list at most 20 items, newest first', async () => {
    sim.tick(6 * 3_600_000);
    for (const format of ['rss', 'atom'] as const) {
      const p = honest(format);
      sim.publish(25, p.id);
      const text = (await get(p.feed_url)).text;
      const count = (text.match(format === 'rss' ? /<item>/g : /<entry>/g) ?? []).length;
      expect(count).toBe(20);
      const dates = [...text.matchAll(format === 'rss' ? /<pubDate>([^<]+)</g : /<published>([^<]+)</g)].map((m) => Date.parse(m[1] as string));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    }
  });

  it('a hostile request target is a 400, and the server keeps serving', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = connect(sim.port, '127.0.0.1', () => sock.end('GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let data = '';
      sock.on('data', (d) => { data += d.toString('latin1'); });
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(raw.startsWith('HTTP/1.1 400')).toBe(true);
    expect((await get(honest('rss').feed_url)).status).toBe(200);
  });

  it('unknown paths answer 404 and other methods 405', async () => {
    expect((await get(`${sim.url}/s/nope/rss.xml`)).status).toBe(404);
    expect((await get(`${sim.url}/elsewhere`)).status).toBe(404);
    const p = honest('rss');
    expect((await get(`${p.site_url}a/999999-gone.html`)).status).toBe(404);
  });
});
