import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { crawlSitemapSite, SitemapNotFoundError, snippet } from '../../src/actors/html/crawl.js';
import { articlePage, newsSitemap, sitemapIndex } from './fixtures.js';
import { plainFetch, startSite, type Route } from './server.js';

const NOW = Date.parse('2024-05-10T12:00:00Z');
const now = (): number => NOW;
const ago = (h: number): string => new Date(NOW - h * 3600_000).toISOString();

const closers: (() => Promise<void>)[] = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

describe('crawlSitemapSite: a site with no feed, only a news sitemap', () => {
  it('finds the sitemap via robots.txt and an index, and yields raw articles', async () => {
    const long = 'Word '.repeat(120).trim();
    const routes: Record<string, Route> = {};
    const site = await startSite(routes);
    closers.push(site.close);
    const base = site.url;
    Object.assign(routes, {
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nDisallow: /admin\nSitemap: ${base}/sitemaps/index.xml\n` },
      '/sitemaps/index.xml': { type: 'application/xml', body: sitemapIndex([{ loc: `${base}/sitemaps/news.xml.gz`, lastmod: ago(1) }, { loc: `${base}/sitemaps/2019.xml`, lastmod: '2019-01-01' }]) },
      '/sitemaps/news.xml.gz': { type: 'application/x-gzip', body: gzipSync(newsSitemap([
        { loc: `${base}/news/a`, title: 'Bridge opens', date: ago(2), name: 'The Daily Example', lang: 'en' },
        { loc: `${base}/news/b`, title: 'Title only in the sitemap', date: ago(4) },
        { loc: `${base}/news/c`, date: ago(6), lang: 'de' },
        { loc: `${base}/news/d`, title: 'Short headline, longer in the sitemap', date: ago(7) },
        { loc: `${base}/news/old-undated` },
        { loc: `${base}/news/stale`, title: 'Too old', date: ago(100) },
        { loc: 'https://elsewhere.example/news/x', title: 'Off-site', date: ago(1) },
      ])) },
      '/news/a': { body: articlePage({ title: 'Bridge opens to traffic', description: long, published: ago(3), image: '/img/a.jpg', canonical: `${base}/news/a`, siteName: 'Example Daily' }) },
      '/news/b': { status: 404, body: 'gone' },
      '/news/c': { body: articlePage({ title: 'Rain expected', siteName: 'Example Daily', jsonLd: true, published: ago(5) }) },
      '/news/d': { body: '<html><head><title>Short</title></head></html>' },
      '/news/old-undated': { body: articlePage({ title: 'Archive piece', published: '2019-03-01T00:00:00Z' }) },
    } satisfies Record<string, Route>);

    const articles = await crawlSitemapSite(base, { fetch: plainFetch, now });
    expect(articles.map((a) => a.url)).toEqual([`${base}/news/a`, `${base}/news/b`, `${base}/news/c`, `${base}/news/d`]);
    const [a, b, c, d] = articles;
    expect(a).toMatchObject({
      title: 'Bridge opens to traffic', publisher: 'The Daily Example', published_at: ago(3), language: 'en',
      thumbnail: `${base}/img/a.jpg`, canonical_url: `${base}/news/a`,
    });
    expect(a!.summary!.length).toBeLessThanOrEqual(300);
    expect(a!.summary!.endsWith('…')).toBe(true);
    expect(a!.text ?? null).toBeNull();
    expect(b).toMatchObject({ title: 'Title only in the sitemap', published_at: ago(4), summary: null, thumbnail: null });
    expect(c).toMatchObject({ title: 'Rain expected', published_at: ago(5), language: 'de' });
    expect(d).toMatchObject({ title: 'Short headline, longer in the sitemap', published_at: ago(7) });
    expect(site.hits).not.toContain('/sitemaps/2019.xml');
    expect(site.hits).not.toContain('/news/stale');
  });

  it('works against a real local server given the sitemap URL directly, and never invents dates', async () => {
    const routes: Record<string, Route> = {};
    const site = await startSite(routes);
    closers.push(site.close);
    const base = site.url;
    routes['/news-sitemap.xml'] = { type: 'application/xml', body: newsSitemap([
      { loc: `${base}/p/1`, title: 'Undated everywhere' },
      { loc: `${base}/p/2`, title: 'Dated in sitemap', date: ago(1) },
    ]) };
    routes['/p/1'] = { body: '<html><head><title>Undated everywhere</title><meta name="description" content="Desc."></head></html>' };
    routes['/p/2'] = { body: '<html><head><meta property="og:title" content="Dated in sitemap"></head></html>' };
    const articles = await crawlSitemapSite(`${base}/news-sitemap.xml`, { fetch: plainFetch, now, publisher: 'pub-42', maxPages: 5 });
    expect(articles).toEqual([
      { url: `${base}/p/2`, title: 'Dated in sitemap', summary: null, publisher: 'pub-42', published_at: ago(1), language: 'en', thumbnail: null, canonical_url: null },
      { url: `${base}/p/1`, title: 'Undated everywhere', summary: 'Desc.', publisher: 'pub-42', published_at: null, language: 'en', thumbnail: null, canonical_url: null },
    ]);
    expect(site.hits).toEqual(['/news-sitemap.xml', '/p/2', '/p/1']);
  });

  it('guesses the usual sitemap paths when robots.txt names none, and limits pages', async () => {
    const routes: Record<string, Route> = {};
    const site = await startSite(routes);
    closers.push(site.close);
    const base = site.url;
    routes['/sitemap_news.xml'] = { type: 'text/xml', body: newsSitemap([1, 2, 3, 4].map((i) => ({ loc: `${base}/s/${i}`, title: `Story ${i}`, date: ago(i) }))) };
    for (const i of [1, 2, 3, 4]) routes[`/s/${i}`] = { body: articlePage({ title: `Story ${i} full`, published: ago(i), siteName: 'Site' }) };
    const articles = await crawlSitemapSite(base, { fetch: plainFetch, now, maxPages: 2 });
    expect(articles.map((a) => a.title)).toEqual(['Story 1 full', 'Story 2 full']);
    expect(site.hits.filter((h) => h.includes('sitemap'))).toEqual(['/news-sitemap.xml', '/sitemap_news.xml']);
  });

  it('never lets hostile pages break the crawl: the sitemap entry still yields the article', async () => {
    const routes: Record<string, Route> = {};
    const site = await startSite(routes);
    closers.push(site.close);
    const base = site.url;
    const junk = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 131 + 7) % 256));
    routes['/sitemap-news.xml'] = { type: 'application/xml', body: newsSitemap([
      { loc: `${base}/h/binary`, title: 'Binary page', date: ago(1) },
      { loc: `${base}/h/broken`, title: 'Broken markup', date: ago(2) },
      { loc: `${base}/h/image`, title: 'Not HTML at all', date: ago(3) },
    ]) };
    routes['/h/binary'] = { type: 'text/html', body: junk };
    routes['/h/broken'] = { body: `<html><head><meta property="og:title" content="Fixed title"><meta content="${'<'.repeat(10_000)}` };
    routes['/h/image'] = { type: 'image/png', body: junk };
    const articles = await crawlSitemapSite(`${base}/sitemap-news.xml`, { fetch: plainFetch, now });
    expect(articles.map((a) => [a.title, a.published_at])).toEqual([
      ['Binary page', ago(1)], ['Fixed title', ago(2)], ['Not HTML at all', ago(3)],
    ]);
  });

  it('throws SitemapNotFoundError when no sitemap answers', async () => {
    const site = await startSite({}, { body: '<html>soft 404</html>' });
    closers.push(site.close);
    await expect(crawlSitemapSite(site.url, { fetch: plainFetch, now })).rejects.toBeInstanceOf(SitemapNotFoundError);
  });
});

describe('snippet', () => {
  it.each([
    ['short', 'short'],
    ['a '.repeat(200).trim(), null],
  ])('%#', (input, exact) => {
    const s = snippet(input);
    expect([...s].length).toBeLessThanOrEqual(300);
    if (exact) expect(s).toBe(exact);
    else expect(s.endsWith('…')).toBe(true);
  });
});
