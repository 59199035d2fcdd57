import { XMLParser } from 'fast-xml-parser';
import { NewsaggError } from '../../runtime/errors.js';
import { parseMetaDate } from './dates.js';
import { normaliseLanguage } from './metadata.js';
import { pageText } from './tokenizer.js';
import { resolveHttpUrl } from './urls.js';

/** One `<url>` of a (news) sitemap. Dates are ISO-8601 UTC instants or null. */
export interface SitemapEntry {
  loc: string;
  /** `<news:title>` */
  title: string | null;
  /** `<news:publication_date>` */
  publication_date: string | null;
  /** `<lastmod>`: a modification date, never used as the publication date */
  lastmod: string | null;
  /** `<news:publication><news:language>`, primary subtag */
  language: string | null;
  /** `<news:publication><news:name>` */
  publication_name: string | null;
  keywords: string[];
  /** `<image:image><image:loc>` when given */
  image: string | null;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'index';
  /** fresh entries of a urlset, newest first; entries without any date come last */
  entries: SitemapEntry[];
  /** child sitemap URLs of an index (stale children, by lastmod, left out) */
  sitemaps: string[];
}

export interface SitemapOptions {
  now: () => number;
  /** how far back a news entry may be dated; default 2 days (the news sitemap rule) */
  maxAgeMs?: number;
  /** base for relative `<loc>`s (they should be absolute, but are not always) */
  baseUrl?: string;
}

/** The sitemap is not XML we understand. */
export class SitemapParseError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('SITEMAP_INVALID', message, { cause, userMessage: 'the sitemap could not be parsed' });
  }
}

export const DEFAULT_MAX_AGE_MS = 2 * 24 * 3600 * 1000;
/** The sitemap protocol allows 50,000 URLs per file; more is hostile or broken. */
const MAX_ENTRIES = 50_000;

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap' || name === 'image',
});

/**
 * Parse a sitemap or news sitemap (`<urlset>` with `<news:news>`), or a sitemap index. Entries
 * whose publication date (else lastmod) is older than `maxAgeMs` are dropped; entries with no
 * date at all are kept, without a date.
 */
export function parseNewsSitemap(xml: string, options: SitemapOptions): ParsedSitemap {
  const maxAge = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const cutoff = options.now() - maxAge;
  const base = options.baseUrl ?? 'http://invalid/';
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (err) {
    throw new SitemapParseError(`sitemap is not well-formed XML: ${(err as Error).message}`, err);
  }
  const fresh = (iso: string | null): boolean => iso === null || Date.parse(iso) >= cutoff;

  const index = obj(doc['sitemapindex']);
  if (index) {
    const sitemaps: string[] = [];
    for (const s of arr(index['sitemap']).slice(0, MAX_ENTRIES)) {
      const o = obj(s);
      const loc = resolveHttpUrl(textOf(o?.['loc']), base);
      if (loc && fresh(parseMetaDate(textOf(o?.['lastmod']))) && !sitemaps.includes(loc)) sitemaps.push(loc);
    }
    return { kind: 'index', entries: [], sitemaps };
  }
  const urlset = obj(doc['urlset']);
  if (!urlset) {
    if (doc['urlset'] === '') return { kind: 'urlset', entries: [], sitemaps: [] };
    throw new SitemapParseError('not a sitemap: no <urlset> or <sitemapindex> root');
  }
  const entries: SitemapEntry[] = [];
  const seen = new Set<string>();
  for (const u of arr(urlset['url']).slice(0, MAX_ENTRIES)) {
    const e = entryOf(obj(u), base);
    if (!e || seen.has(e.loc)) continue;
    seen.add(e.loc);
    if (fresh(e.publication_date ?? e.lastmod)) entries.push(e);
  }
  const time = (e: SitemapEntry): number => {
    const d = e.publication_date ?? e.lastmod;
    return d === null ? -Infinity : Date.parse(d);
  };
  entries.sort((a, b) => time(b) - time(a));
  return { kind: 'urlset', entries, sitemaps: [] };
}

function entryOf(u: Record<string, unknown> | null, base: string): SitemapEntry | null {
  if (!u) return null;
  const loc = resolveHttpUrl(textOf(u['loc']), base);
  if (!loc) return null;
  const news = obj(Array.isArray(u['news']) ? u['news'][0] : u['news']);
  const pub = obj(news?.['publication']);
  const kw = textOf(news?.['keywords']);
  const image = obj(arr(u['image'])[0]);
  return {
    loc,
    title: pageText(textOf(news?.['title'])) || null,
    publication_date: parseMetaDate(textOf(news?.['publication_date'])),
    lastmod: parseMetaDate(textOf(u['lastmod'])),
    language: normaliseLanguage(textOf(pub?.['language'])),
    publication_name: pageText(textOf(pub?.['name'])) || null,
    keywords: kw ? kw.split(',').map((k) => pageText(k)).filter(Boolean).slice(0, 50) : [],
    image: resolveHttpUrl(textOf(image?.['loc']), base),
  };
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

/** Text of an element: a string, a number, or `#text` of an element that also had children. */
function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return textOf(v[0]);
  const o = obj(v);
  if (o && '#text' in o) return textOf(o['#text']);
  return null;
}
