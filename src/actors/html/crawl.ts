import { gunzipSync } from 'node:zlib';
import robotsParserModule from 'robots-parser';
import { NewsaggError } from '../../runtime/errors.js';
import { decodePage } from './decode.js';
import type { PageFetch, PageResponse } from './fetch.js';
import { extractPageMetadata, type PageMetadata } from './metadata.js';
import { DEFAULT_MAX_AGE_MS, parseNewsSitemap, type SitemapEntry } from './sitemap.js';
import { isSameSite, resolveHttpUrl, siteHost } from './urls.js';

/** What a publisher emits into ingest: the ingest log's one raw-article shape. */
export type { RawArticle } from '../ingest/types.js';
import type { RawArticle } from '../ingest/types.js';

export interface CrawlOptions {
  fetch: PageFetch;
  now: () => number;
  /** article pages fetched at most (newest first); default 30 */
  maxPages?: number;
  /** sitemap documents fetched at most, indexes included; default 10 */
  maxSitemaps?: number;
  maxAgeMs?: number;
  /** the publisher name to stamp; default: the sitemap's publication name, og:site_name, host */
  publisher?: string;
  /** pages fetched at once; default 4 */
  concurrency?: number;
}

/** No sitemap could be fetched and parsed for the site. */
export class SitemapNotFoundError extends NewsaggError {
  constructor(site: string, cause?: unknown) {
    super('SITEMAP_NOT_FOUND', `no usable sitemap for ${site}`, { cause, userMessage: 'the site has no usable news sitemap' });
  }
}

// robots-parser is CommonJS (`module.exports = fn`) while its typings declare a default export
type RobotsParser = (url: string, body: string) => { getSitemaps(): string[] };
const robotsParser: RobotsParser =
  ((robotsParserModule as unknown as { default?: RobotsParser }).default ?? (robotsParserModule as unknown as RobotsParser));

const SNIPPET_MAX = 300;
/** The sitemap protocol caps a file at 50 MB uncompressed. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const GUESSED_SITEMAPS = ['/news-sitemap.xml', '/sitemap_news.xml', '/sitemap-news.xml', '/sitemap.xml'];

/**
 * Raw articles of a site without feeds: fresh entries of its news sitemaps (found through
 * robots.txt, else usual paths, or given directly) merged with each page's own metadata.
 * Page metadata wins where it says more; dates come only from the page or the sitemap; a page
 * that fails to load still yields an article when its sitemap entry has a title.
 */
export async function crawlSitemapSite(siteOrSitemapUrl: string, options: CrawlOptions): Promise<RawArticle[]> {
  const start = resolveHttpUrl(siteOrSitemapUrl, 'http://invalid/');
  if (!start) throw new SitemapNotFoundError(siteOrSitemapUrl);
  const host = siteHost(start)!;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const entries = await collectEntries(start, host, options, maxAgeMs);
  const cutoff = options.now() - maxAgeMs;
  const picked = entries.slice(0, options.maxPages ?? 30);
  const articles: (RawArticle | null)[] = new Array(picked.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < picked.length) {
      const i = next++;
      const entry = picked[i]!;
      const article = toArticle(entry, await pageMetadata(entry.loc, host, options.fetch), options.publisher, host);
      // an undated sitemap entry whose page turns out to be old is not news
      if (article && (article.published_at === null || Date.parse(article.published_at) >= cutoff)) articles[i] = article;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return articles.filter((a): a is RawArticle => a !== null);
}

async function collectEntries(start: string, host: string, options: CrawlOptions, maxAgeMs: number): Promise<SitemapEntry[]> {
  const looksLikeSitemap = /sitemap|\.xml(\.gz)?$/i.test(new URL(start).pathname);
  const queue = looksLikeSitemap ? [start] : await sitemapCandidates(start, options.fetch);
  const guessed = new Set(looksLikeSitemap ? [] : GUESSED_SITEMAPS.map((p) => new URL(p, start).href));
  const visited = new Set<string>();
  const byLoc = new Map<string, SitemapEntry>();
  let parsedAny = false;
  let lastError: unknown;
  const budget = options.maxSitemaps ?? 10;
  while (queue.length > 0 && visited.size < budget) {
    const url = queue.shift()!;
    if (visited.has(url)) continue;
    visited.add(url);
    try {
      const res = await options.fetch(url);
      if (res.status < 200 || res.status >= 300) throw new NewsaggError('SITEMAP_HTTP', `sitemap ${url} answered ${res.status}`);
      const parsed = parseNewsSitemap(sitemapText(res), { now: options.now, maxAgeMs, baseUrl: res.url || url });
      parsedAny = true;
      // news sitemaps first: their children are where fresh articles are
      // once a real sitemap answered, stop guessing other paths
      for (let k = queue.length - 1; k >= 0; k--) if (guessed.has(queue[k]!)) queue.splice(k, 1);
      guessed.clear();
      const children = parsed.sitemaps.filter((s) => isSameSite(s, host));
      queue.push(...children.filter((s) => /news/i.test(s)), ...children.filter((s) => !/news/i.test(s)));
      for (const e of parsed.entries) if (isSameSite(e.loc, host) && !byLoc.has(e.loc)) byLoc.set(e.loc, e);
    } catch (err) {
      lastError = err;
    }
  }
  if (!parsedAny) throw new SitemapNotFoundError(start, lastError);
  const time = (e: SitemapEntry): number => {
    const d = e.publication_date ?? e.lastmod;
    return d === null ? -Infinity : Date.parse(d);
  };
  return [...byLoc.values()].sort((a, b) => time(b) - time(a));
}

/** Sitemaps named in robots.txt (news ones first), then the usual paths. */
export async function sitemapCandidates(site: string, fetch: PageFetch): Promise<string[]> {
  const robotsUrl = new URL('/robots.txt', site).href;
  const out: string[] = [];
  try {
    const res = await fetch(robotsUrl);
    if (res.status >= 200 && res.status < 300) {
      const listed = (robotsParser(robotsUrl, decodePage(res.body, res.contentType)).getSitemaps())
        .map((s) => resolveHttpUrl(s, robotsUrl))
        .filter((s): s is string => s !== null);
      out.push(...listed.filter((s) => /news/i.test(s)), ...listed.filter((s) => !/news/i.test(s)));
    }
  } catch {
    // no robots.txt: fall through to the usual paths
  }
  for (const p of GUESSED_SITEMAPS) {
    const u = new URL(p, site).href;
    if (!out.includes(u)) out.push(u);
  }
  return out;
}

export function sitemapText(res: PageResponse): string {
  let body = res.body;
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      body = gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES });
    } catch (err) {
      throw new NewsaggError('SITEMAP_INVALID', `gzip sitemap ${res.url} could not be inflated`, { cause: err });
    }
  }
  return decodePage(body, res.contentType);
}

async function pageMetadata(url: string, host: string, fetch: PageFetch): Promise<{ meta: PageMetadata; finalUrl: string } | null> {
  try {
    const res = await fetch(url);
    if (res.status < 200 || res.status >= 300) return null;
    const type = (res.contentType ?? 'text/html').toLowerCase();
    if (!type.includes('html') && !type.includes('xml')) return null;
    const finalUrl = resolveHttpUrl(res.url, url) ?? url;
    if (!isSameSite(finalUrl, host)) return null; // a redirect off-site is not this publisher's page
    return { meta: extractPageMetadata(decodePage(res.body, res.contentType), finalUrl), finalUrl };
  } catch {
    return null;
  }
}

function toArticle(entry: SitemapEntry, page: { meta: PageMetadata; finalUrl: string } | null, publisher: string | undefined, host: string): RawArticle | null {
  const meta = page?.meta;
  const title = richer(meta?.title, entry.title);
  if (!title) return null;
  const canonical = meta?.canonical && isSameSite(meta.canonical, host) ? meta.canonical : null;
  return {
    url: page?.finalUrl ?? entry.loc,
    title,
    summary: meta?.description ? snippet(meta.description) : null,
    publisher: publisher ?? entry.publication_name ?? meta?.siteName ?? host,
    published_at: meta?.publishedAt ?? entry.publication_date ?? null,
    language: entry.language ?? meta?.language ?? null,
    thumbnail: meta?.image ?? entry.image ?? null,
    canonical_url: canonical,
  };
}

/** The page's own value unless it is empty or a mere prefix of the sitemap's. */
function richer(fromPage: string | null | undefined, fromSitemap: string | null): string | null {
  if (!fromPage) return fromSitemap;
  if (fromSitemap && fromSitemap.length > fromPage.length && fromSitemap.startsWith(fromPage.replace(/…$/, ''))) return fromSitemap;
  return fromPage;
}

/** At most 300 characters, cut at a word boundary, with an ellipsis when cut. */
export function snippet(text: string, max = SNIPPET_MAX): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
