import { CATEGORY_NAMES, type FeedCategory } from '../actors/model/index.js';

/**
 * Atom 1.0 (RFC 4287) documents of feed, search and story views, so a feed reader can follow
 * newsagg. Pure: the caller gives absolute URLs and the entries; the document is a function of
 * them alone (no clock), so the same entries give the same bytes and the same ETag.
 */

/** One entry: a story through its lead article, or one article of a story. */
export interface AtomEntry {
  /** stable id (see storyEntryId / articleEntryId) */
  id: string;
  title: string;
  /** where the entry leads: the story page (absolute) */
  link: string;
  /** the report at its publisher (absolute; the click redirect), as rel="related" */
  source?: string | null;
  publisher: string;
  published: string;
  updated?: string | null;
  summary?: string | null;
  /** a picture (absolute) */
  image?: string | null;
  category?: string | null;
}

export interface AtomFeed {
  /** the feed's id: its self URL without paging parameters */
  id: string;
  title: string;
  subtitle?: string;
  self: string;
  /** the page a browser shows for the same view (absolute) */
  alternate: string;
  /** the next page of the view (RFC 5005 paging), or null */
  next?: string | null;
  entries: readonly AtomEntry[];
}

/** An entry id that never changes with the host or the lead: the story's. */
export const storyEntryId = (storyId: string): string => `urn:newsagg:story:${encodeURIComponent(storyId)}`;
/** The id of an article's entry (in a story's feed). */
export const articleEntryId = (articleId: string): string => `urn:newsagg:article:${encodeURIComponent(articleId)}`;

/** the instant an empty feed says it was updated: a constant, so an empty feed's ETag is stable */
const EPOCH = '1970-01-01T00:00:00Z';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/** The Atom document. */
export function atomFeed(f: AtomFeed): string {
  const updated = f.entries.reduce((max, e) => {
    const t = iso(e.updated ?? e.published);
    return t !== null && t > max ? t : max;
  }, EPOCH);
  const out: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">',
    `<id>${text(f.id)}</id>`,
    `<title type="text">${text(f.title)}</title>`,
    f.subtitle ? `<subtitle type="text">${text(f.subtitle)}</subtitle>` : '',
    `<updated>${updated}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${attr(f.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${attr(f.alternate)}"/>`,
    f.next ? `<link rel="next" type="application/atom+xml" href="${attr(f.next)}"/>` : '',
    '<author><name>newsagg</name></author>',
    '<generator>newsagg</generator>',
  ];
  for (const e of f.entries) out.push(entry(e));
  out.push('</feed>', '');
  return out.filter((l) => l !== '').join('\n');
}

function entry(e: AtomEntry): string {
  const published = iso(e.published) ?? EPOCH;
  const updated = iso(e.updated ?? null) ?? published;
  const parts = [
    '<entry>',
    `<id>${text(e.id)}</id>`,
    `<title type="text">${text(e.title)}</title>`,
    `<link rel="alternate" type="text/html" href="${attr(e.link)}"/>`,
    e.source ? `<link rel="related" type="text/html" href="${attr(e.source)}"/>` : '',
    `<author><name>${text(e.publisher || 'unknown')}</name></author>`,
    `<published>${published}</published>`,
    `<updated>${updated > published ? updated : published}</updated>`,
    e.summary ? `<summary type="text">${text(e.summary)}</summary>` : '',
    e.category ? `<category term="${attr(e.category)}" label="${attr(CATEGORY_NAMES[e.category as FeedCategory] ?? e.category)}"/>` : '',
    e.image ? `<link rel="enclosure" type="${imageType(e.image)}" href="${attr(e.image)}"/>` : '',
    e.image ? `<media:thumbnail url="${attr(e.image)}"/>` : '',
    '</entry>',
  ];
  return parts.filter((l) => l !== '').join('');
}

/** An RFC 3339 instant in UTC without fractions, or null. */
function iso(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function imageType(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : ext === 'avif' ? 'image/avif' : 'image/jpeg';
}

// XML 1.0 forbids most control characters even escaped: publisher text is dropped of them
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function text(s: string): string {
  return s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;');
}
