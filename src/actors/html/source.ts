import type { ParsedFeed } from '../feed/index.js';
import { sitemapCandidates, sitemapText } from './crawl.js';
import { discoverFeedsForSite } from './discovery.js';
import type { PageFetch } from './fetch.js';
import { parseNewsSitemap, type SitemapEntry } from './sitemap.js';

/** Where a site's articles can be polled from: its feed, else its news sitemap. */
export interface SiteSource {
  url: string;
  kind: 'rss' | 'atom' | 'json' | 'sitemap';
}

/**
 * A site URL → the source a publisher actor polls: a discovered feed (`<link rel=alternate>`,
 * then common paths), else a news sitemap (robots.txt `Sitemap:` lines, then usual paths) that
 * parses as a urlset. Null when the site offers neither.
 */
export async function findSiteSource(siteUrl: string, fetch: PageFetch, now: () => number = Date.now): Promise<SiteSource | null> {
  const feeds = await discoverFeedsForSite(siteUrl, fetch);
  if (feeds.length > 0) return { url: feeds[0]!.url, kind: feeds[0]!.type };
  let candidates: string[];
  try {
    candidates = await sitemapCandidates(new URL(siteUrl).href, fetch);
  } catch {
    return null;
  }
  for (const url of candidates) {
    try {
      const res = await fetch(url);
      if (res.status < 200 || res.status >= 300) continue;
      const parsed = parseNewsSitemap(sitemapText(res), { now, baseUrl: res.url });
      if (parsed.kind === 'urlset') return { url: res.url, kind: 'sitemap' };
    } catch {
      // not a sitemap we can read: try the next candidate
    }
  }
  return null;
}

/** True when a body is an XML sitemap (`<urlset>` or `<sitemapindex>`), not a feed. */
export function looksLikeSitemap(text: string): boolean {
  return /<(?:[\w-]+:)?(?:urlset|sitemapindex)[\s>]/.test(text.slice(0, 4096));
}

/** Feed-shaped entries from a news sitemap, so sitemap-only sites take the feed path. */
/** A news sitemap read as a feed: the parser's shape, with what a sitemap does not say left empty. */
export type SitemapFeed = ParsedFeed;

export function sitemapAsFeed(xml: string, opts: { baseUrl: string; now: () => number }): SitemapFeed {
  const parsed = parseNewsSitemap(xml, { now: opts.now, baseUrl: opts.baseUrl });
  const first: SitemapEntry | undefined = parsed.entries[0];
  return {
    feed: { title: first?.publication_name ?? null, link: null, description: null, language: first?.language ?? null, published: null, updated: null, image: null },
    entries: parsed.entries
      .filter((e) => e.title)
      .map((e) => ({
        title: e.title, link: e.loc, id: e.loc, published: e.publication_date, updated: e.lastmod,
        summary: null, content: null, author: null, categories: e.keywords, enclosures: [], thumbnail: e.image,
      })),
    meta: { ttlMinutes: null, hubs: [], self: null, format: 'sitemap', encoding: 'utf-8' },
  };
}
