import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type PublisherInfo, type Simulator } from '../../src/simulator/index.js';
import { get, header, T0 } from './helpers.js';

function metaContent(html: string, attr: 'property' | 'name', key: string): string | undefined {
  const m = new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`).exec(html);
  return m?.[1];
}

function unescapeHtml(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

describe('sites: sitemaps, article pages, home pages, thumbnails', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 60, seed: 'site', now: () => T0 });
  });
  afterAll(async () => sim.close());

  it('a sitemap-only site serves a news sitemap whose articles carry OG and JSON-LD metadata', async () => {
    const p = sim.publishers.find((x) => x.format === 'sitemap' && x.behaviour === 'ok') as PublisherInfo;
    expect(p.feed_url).toBe(`${p.site_url}sitemap-news.xml`);
    const res = await get(p.feed_url);
    expect(res.status).toBe(200);
    expect(XMLValidator.validate(res.text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === 'url' }).parse(res.text);
    const urls = doc.urlset.url as { loc: string; 'news:news': Record<string, unknown> }[];
    expect(urls.length).toBeGreaterThan(0);
    const first = urls[0] as (typeof urls)[number];
    const news = first['news:news'] as { 'news:publication': { 'news:name': string }; 'news:publication_date': string; 'news:title': string };
    expect(news['news:publication']['news:name']).toBe(p.name);
    expect(Date.parse(news['news:publication_date'])).toBeLessThanOrEqual(T0);
    expect(first.loc.startsWith(p.site_url)).toBe(true);

    const page = await get(first.loc);
    expect(page.status).toBe(200);
    expect(header(page.headers, 'content-type')).toContain('text/html');
    const html = page.text;
    const title = unescapeHtml(metaContent(html, 'property', 'og:title') ?? '');
    expect(title).toBe(news['news:title']);
    expect(metaContent(html, 'property', 'og:url')).toBe(first.loc);
    expect(metaContent(html, 'property', 'og:site_name')).toBe(p.name);
    expect(metaContent(html, 'property', 'article:published_time')).toBe(news['news:publication_date']);
    const ldMatch = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
    const ld = JSON.parse(ldMatch?.[1] ?? 'null');
    expect(ld['@type']).toBe('NewsArticle');
    expect(ld.headline).toBe(title);
    expect(ld.datePublished).toBe(news['news:publication_date']);
    expect(ld.publisher.name).toBe(p.name);
    expect(ld.author[0].name.length).toBeGreaterThan(3);
    expect((html.match(/<p>/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('every site has a home page; feed sites link their feed with rel=alternate', async () => {
    for (const p of sim.publishers.slice(0, 25)) {
      const res = await get(p.site_url);
      expect(res.status).toBe(200);
      const alt = /<link rel="alternate" type="([^"]+)" title="[^"]*" href="([^"]+)">/.exec(res.text);
      if (p.format === 'sitemap') expect(alt).toBeNull();
      else {
        expect(alt?.[2]).toBe(p.feed_url);
        expect(alt?.[1]).toBe({ rss: 'application/rss+xml', atom: 'application/atom+xml', jsonfeed: 'application/feed+json' }[p.format]);
      }
    }
  });

  it('media:thumbnail URLs serve real PNGs', async () => {
    const withThumb = sim.publishers.filter((p) => p.format === 'rss' && p.behaviour === 'ok');
    let url: string | undefined;
    for (const p of withThumb) {
      url = /<media:thumbnail url="([^"]+)"/.exec((await get(p.feed_url)).text)?.[1];
      if (url) break;
    }
    expect(url).toBeDefined();
    const img = await get(url as string);
    expect(img.status).toBe(200);
    expect(header(img.headers, 'content-type')).toBe('image/png');
    const meta = await sharp(img.body).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([320, 180]);
  });

  it('pages are gzipped when asked', async () => {
    const p = sim.publishers.find((x) => x.behaviour === 'ok') as PublisherInfo;
    const plain = await get(p.site_url);
    const gz = await get(p.site_url, { 'accept-encoding': 'gzip' });
    expect(header(gz.headers, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(plain.text);
    expect(header(plain.headers, 'content-encoding')).toBeUndefined();
  });

  it('feed links resolve to the article of the same title', async () => {
    const p = sim.publishers.find((x) => x.format === 'atom' && x.behaviour === 'ok') as PublisherInfo;
    const text = (await get(p.feed_url)).text;
    const entry = /<entry>\n<title type="text">([^<]+)<\/title>[\s\S]*?<link rel="alternate" type="text\/html" href="([^"]+)"/.exec(text);
    const page = await get(entry?.[2] as string);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>${entry?.[1]}</h1>`);
  });
});
