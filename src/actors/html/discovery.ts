import { decodePage } from './decode.js';
import type { PageFetch } from './fetch.js';
import { pageText, scanTags } from './tokenizer.js';
import { resolveHttpUrl } from './urls.js';

/** The syndication formats we can poll. */
export type FeedKind = 'rss' | 'atom' | 'json';

export interface DiscoveredFeed {
  url: string;
  type: FeedKind;
  title: string | null;
}

const LINK_TYPES: Record<string, FeedKind> = {
  'application/rss+xml': 'rss',
  'application/x-rss+xml': 'rss',
  'application/rdf+xml': 'rss',
  'application/atom+xml': 'atom',
  'application/x.atom+xml': 'atom',
  'application/feed+json': 'json',
};

/** Paths tried, in order, when a page advertises no feed. */
export const COMMON_FEED_PATHS = ['/feed', '/rss', '/rss.xml', '/atom.xml', '/feed.xml', '/index.xml', '/feeds/posts/default', '/feed.json'];

/**
 * Feeds a page advertises with `<link rel="alternate" type="...">`, in document order with
 * comment feeds last. `application/json` and generic XML types count only when the link
 * plainly names a feed, since WordPress also uses `rel=alternate` for its REST API documents.
 */
export function discoverFeeds(html: string, pageUrl: string): DiscoveredFeed[] {
  const found: DiscoveredFeed[] = [];
  const seen = new Set<string>();
  let base = pageUrl;
  scanTags(typeof html === 'string' ? html : '', (tag) => {
    // alternates belong to <head>, but broken pages put them anywhere: scan it all
    if (tag.kind === 'end') return;
    if (tag.name === 'base' && tag.attrs['href'] && base === pageUrl) {
      base = resolveHttpUrl(tag.attrs['href'], pageUrl) ?? pageUrl;
      return;
    }
    if (tag.name !== 'link' && tag.name !== 'a') return;
    const rel = ` ${(tag.attrs['rel'] ?? '').toLowerCase().replace(/\s+/g, ' ')} `;
    if (!rel.includes(' alternate ') || rel.includes(' stylesheet ')) return;
    const href = tag.attrs['href'];
    const title = pageText(tag.attrs['title']) || null;
    const kind = feedKindOfLink((tag.attrs['type'] ?? '').toLowerCase().split(';')[0]!.trim(), href ?? '', title ?? '');
    if (!kind) return;
    const url = resolveHttpUrl(href, base);
    if (!url || seen.has(url)) return;
    seen.add(url);
    found.push({ url, type: kind, title });
  }, undefined, (name) => name === 'link' || name === 'a' || name === 'base');
  const isComments = (f: DiscoveredFeed): boolean => /\/comments\/|comments?[-_]?feed|\bcomments\b/i.test(`${f.url} ${f.title ?? ''}`);
  return [...found.filter((f) => !isComments(f)), ...found.filter(isComments)];
}

function feedKindOfLink(type: string, href: string, title: string): FeedKind | null {
  const known = LINK_TYPES[type];
  if (known) return known;
  const named = /\bfeed\b|\brss\b|\batom\b/i.test(`${href} ${title}`) && !/wp-json|oembed/i.test(href);
  if (type === 'application/json' && named) return 'json';
  if ((type === 'application/xml' || type === 'text/xml') && named) return /atom/i.test(href) ? 'atom' : 'rss';
  return null;
}

/** What a body looks like: a feed of some kind, HTML, or neither. */
export function sniffFeed(body: string): FeedKind | 'html' | null {
  let s = body.slice(0, 4096).replace(/^\uFEFF/, '').trimStart();
  if (s.startsWith('{')) return /"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//.test(s) ? 'json' : null;
  // skip the XML declaration, processing instructions, comments and a doctype
  for (;;) {
    const m = /^(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*/i.exec(s);
    if (!m) break;
    if (/^<!DOCTYPE\s+html/i.test(m[0])) return 'html';
    s = s.slice(m[0].length);
  }
  if (/^<(?:[a-z0-9]+:)?rss[\s>]/i.test(s) || /^<(?:[a-z0-9]+:)?RDF[\s>]/i.test(s)) return 'rss';
  if (/^<(?:[a-z0-9]+:)?feed[\s>]/i.test(s)) return 'atom';
  if (/^<(?:html|head|body)[\s>]/i.test(s)) return 'html';
  return null;
}

/** The feed kind a response carries, judged by content type and body; null for non-feeds. */
export function feedKindOfResponse(contentType: string | null, body: string): FeedKind | null {
  const sniffed = sniffFeed(body);
  if (sniffed === 'html') return null; // soft 404 pages often claim any type
  if (sniffed) return sniffed;
  const type = (contentType ?? '').toLowerCase().split(';')[0]!.trim();
  return LINK_TYPES[type] ?? null;
}

/**
 * Feeds of a site: the page itself when it is a feed, else its `<link rel=alternate>`
 * feeds, else the first common path that answers with a feed. Fetch failures along the way
 * count as "no feed there"; an empty list means nothing was found.
 */
export async function discoverFeedsForSite(siteUrl: string, fetch: PageFetch): Promise<DiscoveredFeed[]> {
  const start = resolveHttpUrl(siteUrl, 'http://invalid/');
  if (!start) return [];
  let base = start;
  try {
    const res = await fetch(start);
    base = resolveHttpUrl(res.url, start) ?? start;
    if (res.status >= 200 && res.status < 300) {
      const text = decodePage(res.body, res.contentType);
      const self = feedKindOfResponse(res.contentType, text);
      if (self) return [{ url: base, type: self, title: null }];
      const linked = discoverFeeds(text, base);
      if (linked.length > 0) return linked;
    }
  } catch {
    // the home page failed; the common paths may still answer
  }
  for (const url of candidateUrls(base)) {
    try {
      const res = await fetch(url);
      if (res.status < 200 || res.status >= 300) continue;
      const kind = feedKindOfResponse(res.contentType, decodePage(res.body, res.contentType));
      if (kind) return [{ url: resolveHttpUrl(res.url, url) ?? url, type: kind, title: null }];
    } catch {
      // try the next path
    }
  }
  return [];
}

/** Common paths under the site's directory first (a blog at /blog/), then under the origin. */
function candidateUrls(base: string): string[] {
  const u = new URL(base);
  const dir = u.pathname.replace(/\/[^/]*$/, '');
  const out: string[] = [];
  for (const prefix of dir && dir !== '/' ? [dir, ''] : ['']) {
    for (const p of COMMON_FEED_PATHS) {
      const url = `${u.origin}${prefix}${p}`;
      if (!out.includes(url)) out.push(url);
    }
  }
  return out;
}
