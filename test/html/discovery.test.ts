import { afterEach, describe, expect, it } from 'vitest';
import { discoverFeeds, discoverFeedsForSite, sniffFeed } from '../../src/actors/html/discovery.js';
import { plainFetch, startSite } from './server.js';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>';
const ATOM = '<?xml version="1.0" encoding="utf-8"?>\n<!-- generator --><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>';
const JSONFEED = JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'T', items: [] });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => { while (closers.length) await closers.pop()!(); });

describe('discoverFeeds', () => {
  it('finds RSS, Atom and JSON Feed alternates, resolves URLs, puts comment feeds last', () => {
    const html = `<html><head>
      <link rel="alternate" type="application/rss+xml" title="Comments Feed" href="/comments/feed/">
      <link rel="alternate" type="application/rss+xml" title="Main &amp; more" href="/feed/">
      <link rel="alternate" type="application/atom+xml" href="https://other.example.com/atom.xml">
      <link rel="alternate" type="application/feed+json" href="feed.json">
      <link rel="alternate" type="application/json" href="/wp-json/wp/v2/posts/12">
      <link rel="alternate" hreflang="fr" href="/fr/">
      <link rel="stylesheet alternate" type="application/rss+xml" href="/style">
      <LINK REL="Alternate" TYPE="application/rss+xml; charset=utf-8" HREF="/feed/">
    </head><body></body></html>`;
    expect(discoverFeeds(html, 'https://blog.example.com/posts/')).toEqual([
      { url: 'https://blog.example.com/feed/', type: 'rss', title: 'Main & more' },
      { url: 'https://other.example.com/atom.xml', type: 'atom', title: null },
      { url: 'https://blog.example.com/posts/feed.json', type: 'json', title: null },
      { url: 'https://blog.example.com/comments/feed/', type: 'rss', title: 'Comments Feed' },
    ]);
  });

  it('returns nothing for a page without alternates or for junk', () => {
    expect(discoverFeeds('<html><head><title>x</title></head></html>', 'https://a.example/')).toEqual([]);
    expect(discoverFeeds('<link rel=alternate type=application/rss+xml href="javascript:x">', 'https://a.example/')).toEqual([]);
    expect(discoverFeeds('<<<', 'https://a.example/')).toEqual([]);
  });
});

describe('sniffFeed', () => {
  it.each([
    [RSS, 'rss'], [ATOM, 'atom'], [JSONFEED, 'json'],
    ['\uFEFF<?xml version="1.0"?><rdf:RDF xmlns:rdf="x"></rdf:RDF>', 'rss'],
    ['<!DOCTYPE html><html><body>404</body></html>', 'html'],
    ['{"foo": 1}', null], ['plain text', null],
  ])('%#', (body, kind) => expect(sniffFeed(body)).toBe(kind));
});

describe('discoverFeedsForSite (local HTTP server)', () => {
  it('uses the <link rel=alternate> of the home page', async () => {
    const site = await startSite({
      '/': { body: '<html><head><link rel="alternate" type="application/atom+xml" title="All posts" href="/atom"></head></html>' },
    });
    closers.push(site.close);
    expect(await discoverFeedsForSite(site.url + '/', plainFetch)).toEqual([{ url: `${site.url}/atom`, type: 'atom', title: 'All posts' }]);
    expect(site.hits).toEqual(['/']);
  });

  it('falls back to common paths and checks the body, skipping soft-404 HTML', async () => {
    const site = await startSite({
      '/': { body: '<html><head><title>No feed links</title></head></html>' },
      '/feed': { body: '<!DOCTYPE html><html><body>Page not found, but 200</body></html>' },
      '/rss': { status: 500, body: 'oops' },
      '/rss.xml': { type: 'text/plain', body: RSS },
    });
    closers.push(site.close);
    expect(await discoverFeedsForSite(site.url, plainFetch)).toEqual([{ url: `${site.url}/rss.xml`, type: 'rss', title: null }]);
    expect(site.hits).toEqual(['/', '/feed', '/rss', '/rss.xml']);
  });

  it('tries the site directory before the origin and follows redirects', async () => {
    const site = await startSite({
      '/blog/': { body: '<html></html>' },
      '/blog/feed': { status: 301, headers: { location: '/blog/feed/' }, body: '' },
      '/blog/feed/': { type: 'application/rss+xml', body: RSS },
    });
    closers.push(site.close);
    expect(await discoverFeedsForSite(`${site.url}/blog/`, plainFetch)).toEqual([{ url: `${site.url}/blog/feed/`, type: 'rss', title: null }]);
  });

  it('recognises a URL that is already a feed', async () => {
    const site = await startSite({ '/feed.json': { type: 'application/feed+json', body: JSONFEED } });
    closers.push(site.close);
    expect(await discoverFeedsForSite(`${site.url}/feed.json`, plainFetch)).toEqual([{ url: `${site.url}/feed.json`, type: 'json', title: null }]);
  });

  it('returns an empty list when nothing answers with a feed (HTML 200 everywhere)', async () => {
    const site = await startSite({}, { body: '<html><body>catch-all</body></html>' });
    closers.push(site.close);
    expect(await discoverFeedsForSite(site.url, plainFetch)).toEqual([]);
  });

  it('treats fetch errors as misses', async () => {
    const failing = async (): Promise<never> => { throw new Error('connection refused'); };
    expect(await discoverFeedsForSite('https://down.example/', failing)).toEqual([]);
  });
});

describe('pageFetchFrom with the real Fetcher', () => {
  it('discovers a feed through the safe fetcher against a local server', async () => {
    const { Fetcher } = await import('../../src/actors/fetch/index.js');
    const { pageFetchFrom } = await import('../../src/actors/html/fetch.js');
    const site = await startSite({
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/': { body: '<html><head><link rel="alternate" type="application/rss+xml" href="/rss"></head></html>' },
    });
    closers.push(site.close);
    const fetcher = new Fetcher({ userAgent: 'newsagg-test/0.1', allowlist: ['127.0.0.0/8'], crawlDelayMs: 0 });
    closers.push(() => fetcher.close());
    expect(await discoverFeedsForSite(site.url + '/', pageFetchFrom(fetcher))).toEqual([{ url: `${site.url}/rss`, type: 'rss', title: null }]);
  });
});
