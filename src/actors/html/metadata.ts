import { parseMetaDate } from './dates.js';
import { findArticle, parseJsonLd, type JsonLdArticle } from './jsonld.js';
import { pageText, scanTags } from './tokenizer.js';
import { resolveHttpUrl } from './urls.js';

/** What a page says about itself. Every field is null (or empty) when the page does not say it. */
export interface PageMetadata {
  title: string | null;
  description: string | null;
  /** absolute canonical URL (link rel=canonical, og:url, JSON-LD url) */
  canonical: string | null;
  /** absolute URL of the lead image (og:image, JSON-LD image, twitter:image) */
  image: string | null;
  /** ISO-8601 UTC instants */
  publishedAt: string | null;
  modifiedAt: string | null;
  author: string | null;
  siteName: string | null;
  /** primary language subtag, lower case ("en", "pt") */
  language: string | null;
  /** og:type or the JSON-LD @type ("article", "newsarticle", "website") */
  type: string | null;
  keywords: string[];
}

/** Meta names that carry a publication date, most trusted first (after JSON-LD and article:). */
const PUBLISHED_KEYS = [
  'article:published_time', 'og:article:published_time', 'datepublished', 'article.published',
  'pubdate', 'publishdate', 'publish-date', 'publish_date', 'date', 'dc.date', 'dc.date.issued',
  'dcterms.created', 'dcterms.issued', 'sailthru.date', 'parsely-pub-date', 'citation_publication_date',
  'original-publish-date', 'article:published', 'datecreated', 'cxenseparse:recs:publishtime',
];
const MODIFIED_KEYS = ['article:modified_time', 'og:updated_time', 'datemodified', 'dcterms.modified', 'last-modified'];

/** Tags whose attributes matter here; the scanner skips the rest without building them. */
const WANTED_TAGS = new Set(['html', 'base', 'title', 'meta', 'link', 'script', 'time', 'svg', 'span', 'abbr', 'data']);

const MAX_KEYWORDS = 50;
const MAX_FIELD = 2_000;

interface Collected {
  base: string;
  htmlLang: string | null;
  title: string | null;
  meta: Map<string, string[]>;
  canonical: string | null;
  imageSrc: string | null;
  timeDatetime: string | null;
  jsonld: unknown[];
}

/**
 * Extract article metadata from an HTML page. Never throws on hostile or broken HTML; fields
 * that the page does not state are null, and dates are never guessed.
 */
export function extractPageMetadata(html: string, pageUrl: string): PageMetadata {
  const c = collect(typeof html === 'string' ? html : '', pageUrl);
  const first = (...keys: string[]): string | null => {
    for (const k of keys) {
      const v = c.meta.get(k)?.find((x) => x.trim().length > 0);
      if (v) return v.trim();
    }
    return null;
  };
  const ld: JsonLdArticle | null = findArticle(c.jsonld);
  const siteName = text(first('og:site_name', 'application-name', 'twitter:site:name')) ?? text(ld?.publisher);

  const title =
    text(first('og:title')) ?? text(ld?.headline) ?? text(first('twitter:title', 'title', 'headline', 'dc.title')) ??
    stripSiteSuffix(text(c.title), siteName);

  let publishedAt = parseMetaDate(ld?.datePublished);
  for (const k of PUBLISHED_KEYS) {
    if (publishedAt) break;
    for (const v of c.meta.get(k) ?? []) {
      publishedAt = parseMetaDate(v);
      if (publishedAt) break;
    }
  }
  publishedAt ??= parseMetaDate(c.timeDatetime);
  let modifiedAt = parseMetaDate(ld?.dateModified);
  for (const k of MODIFIED_KEYS) {
    if (modifiedAt) break;
    modifiedAt = parseMetaDate(first(k));
  }

  const keywords = new Set<string>();
  const addKeywords = (list: readonly string[]): void => {
    for (const k of list) {
      const t = text(k);
      if (t && keywords.size < MAX_KEYWORDS && t.length <= 100) keywords.add(t);
    }
  };
  addKeywords(ld?.keywords ?? []);
  for (const key of ['news_keywords', 'keywords']) for (const v of c.meta.get(key) ?? []) addKeywords(v.split(','));
  addKeywords(c.meta.get('article:tag') ?? []);

  const metaAuthor = first('author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator');
  const author = ld && ld.authors.length > 0
    ? text([...new Set(ld.authors)].join(', '))
    : metaAuthor && !/^https?:\/\//i.test(metaAuthor) ? text(metaAuthor) : null;

  return {
    title,
    description: text(first('og:description')) ?? text(ld?.description) ?? text(first('description', 'twitter:description', 'dc.description')),
    canonical: resolveHttpUrl(c.canonical, c.base) ?? resolveHttpUrl(first('og:url'), c.base) ?? resolveHttpUrl(ld?.url, c.base),
    image:
      resolveHttpUrl(first('og:image:secure_url', 'og:image', 'og:image:url'), c.base) ?? resolveHttpUrl(ld?.image, c.base) ??
      resolveHttpUrl(first('twitter:image', 'twitter:image:src', 'thumbnail'), c.base) ?? resolveHttpUrl(c.imageSrc, c.base),
    publishedAt,
    modifiedAt,
    author,
    siteName,
    language: normaliseLanguage(c.htmlLang) ?? normaliseLanguage(ld?.language) ?? normaliseLanguage(first('og:locale', 'content-language', 'language', 'dc.language')),
    type: text(first('og:type'))?.toLowerCase() ?? ld?.type ?? null,
    keywords: [...keywords],
  };
}

function collect(html: string, pageUrl: string): Collected {
  const c: Collected = {
    base: pageUrl, htmlLang: null, title: null, meta: new Map(), canonical: null, imageSrc: null, timeDatetime: null, jsonld: [],
  };
  let baseSeen = false;
  let inSvg = 0;
  scanTags(html, (tag) => {
    if (tag.kind === 'end') {
      if (tag.name === 'svg' && inSvg > 0) inSvg--;
      return;
    }
    const a = tag.attrs;
    switch (tag.name) {
      case 'html':
        c.htmlLang ??= a['lang'] ?? a['xml:lang'] ?? null;
        break;
      case 'svg':
        inSvg++;
        break;
      case 'base':
        if (!baseSeen && a['href']) {
          baseSeen = true;
          c.base = resolveHttpUrl(a['href'], pageUrl) ?? pageUrl;
        }
        break;
      case 'title':
        // an <svg><title> is an icon label, not the page title
        if (c.title === null && inSvg === 0 && tag.text !== undefined) c.title = tag.text;
        break;
      case 'meta': {
        const key = (a['property'] ?? a['name'] ?? a['itemprop'] ?? a['http-equiv'])?.trim().toLowerCase();
        const content = a['content'] ?? a['value'];
        if (key && content !== undefined && content.length <= MAX_FIELD) {
          const list = c.meta.get(key);
          if (list) { if (list.length < 20) list.push(content); } else c.meta.set(key, [content]);
        }
        break;
      }
      case 'link': {
        const rel = ` ${(a['rel'] ?? '').toLowerCase().replace(/\s+/g, ' ')} `;
        if (rel.includes(' canonical ')) c.canonical ??= a['href'] ?? null;
        else if (rel.includes(' image_src ')) c.imageSrc ??= a['href'] ?? null;
        if (a['itemprop']?.toLowerCase() === 'image') c.imageSrc ??= a['href'] ?? null;
        break;
      }
      case 'script':
        if ((a['type'] ?? '').toLowerCase().trim() === 'application/ld+json' && tag.text && c.jsonld.length < 20) {
          const doc = parseJsonLd(tag.text);
          if (doc !== null) c.jsonld.push(doc);
        }
        break;
      case 'time': {
        const dt = a['datetime'];
        if (dt && c.timeDatetime === null && (a['itemprop']?.toLowerCase() === 'datepublished' || 'pubdate' in a)) c.timeDatetime = dt;
        break;
      }
      default:
        // microdata outside <meta>: <span itemprop="datePublished" content="...">
        if (a['itemprop'] && a['content'] !== undefined) {
          const key = a['itemprop'].toLowerCase();
          if ((key === 'datepublished' || key === 'datemodified') && !c.meta.has(key)) c.meta.set(key, [a['content']]);
        }
    }
  }, undefined, (name) => WANTED_TAGS.has(name));
  return c;
}

function text(v: string | null | undefined): string | null {
  if (!v) return null;
  const t = pageText(v.length > MAX_FIELD ? v.slice(0, MAX_FIELD) : v);
  return t.length > 0 ? t : null;
}

/** "Headline | Site" -> "Headline" when the suffix is the site's name. */
function stripSiteSuffix(title: string | null, siteName: string | null): string | null {
  if (!title || !siteName) return title;
  const re = new RegExp(`\\s*[|\\-–—:·•]\\s*${siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'i');
  const stripped = title.replace(re, '').trim();
  return stripped.length > 0 ? stripped : title;
}

/** "en-US", "en_GB", "EN" -> "en"; null for anything that is not a language tag. */
export function normaliseLanguage(v: string | null | undefined): string | null {
  if (!v) return null;
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{2,8})*\s*$/i.exec(v.split(',')[0] ?? '');
  return m ? m[1]!.toLowerCase() : null;
}
