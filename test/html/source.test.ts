import { afterAll, describe, expect, it } from 'vitest';
import { findSiteSource, looksLikeSitemap, sitemapAsFeed } from '../../src/actors/html/source.js';
import { newsSitemap } from './fixtures.js';
import { plainFetch, startSite, type Route } from './server.js';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

async function site(build: (base: string) => Record<string, Route>): Promise<string> {
  const routes: Record<string, Route> = {};
  const s = await startSite(routes);
  closers.push(s.close);
  Object.assign(routes, build(s.url));
  return s.url;
}

describe('findSiteSource: what a publisher added by its site URL polls', () => {
  it('takes the feed a home page links to', async () => {
    const base = await site((b) => ({
      '/': { type: 'text/html', body: `<html><head><link rel="alternate" type="application/rss+xml" href="${b}/news.rss"></head><body>hi</body></html>` },
      '/news.rss': { type: 'application/rss+xml', body: '<rss version="2.0"><channel><title>x</title></channel></rss>' },
    }));
    expect(await findSiteSource(`${base}/`, plainFetch)).toEqual({ url: `${base}/news.rss`, kind: 'rss' });
  });

  it('falls back to the news sitemap robots.txt names when there is no feed', async () => {
    const base = await site((b) => ({
      '/': { type: 'text/html', body: '<html><head><title>No feed here</title></head></html>' },
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nSitemap: ${b}/sitemap-news.xml\n` },
      '/sitemap-news.xml': { type: 'application/xml', body: newsSitemap([{ loc: `${b}/a`, title: 'Harbour bridge reopens after repairs', date: ago(30) }]) },
    }));
    expect(await findSiteSource(`${base}/`, plainFetch)).toEqual({ url: `${base}/sitemap-news.xml`, kind: 'sitemap' });
  });

  it('answers null for a site with neither', async () => {
    const base = await site(() => ({ '/': { type: 'text/html', body: '<html><body>nothing</body></html>' } }));
    expect(await findSiteSource(`${base}/`, plainFetch)).toBeNull();
  });
});

describe('sitemapAsFeed', () => {
  it('turns fresh titled sitemap entries into feed entries, leaving untitled and stale ones out', () => {
    const xml = newsSitemap([
      { loc: 'https://s.example/a', title: 'Harbour bridge reopens', date: ago(30), keywords: 'bridges, harbour' },
      { loc: 'https://s.example/b', date: ago(40) },
      { loc: 'https://s.example/c', title: 'Too old', date: ago(60 * 24 * 5) },
    ]);
    expect(looksLikeSitemap(xml)).toBe(true);
    expect(looksLikeSitemap('<rss version="2.0"><channel/></rss>')).toBe(false);
    const f = sitemapAsFeed(xml, { baseUrl: 'https://s.example/sitemap.xml', now: Date.now });
    expect(f.entries.map((e) => [e.title, e.link, e.id])).toEqual([['Harbour bridge reopens', 'https://s.example/a', 'https://s.example/a']]);
    expect(f.entries[0]!.published).toBeTruthy();
    expect(f.meta.format).toBe('sitemap');
  });
});
