import { entryFingerprint, entryKeyHash, ensureSeenCapacity, seenAdd, seenHas, type SeenRing } from './seen.js';
import type { FeedEntry, ParsedFeed, RawArticle } from './types.js';

/**
 * From a parsed document to the raw articles not emitted before. Polled and pushed content both
 * come through here, so the two paths can never disagree on what is new.
 */

const MAX_SUMMARY = 2000;
const MAX_TEXT = 100_000;
const HOUR = 3600_000;
/** entry tags carried per article (the topic reads the first 8 that name a category) */
const MAX_CATEGORIES = 16;

export interface PublisherIdentity {
  /** the publisher's id: articles carry it (`publisher_id`); its name lives on the publisher row */
  id: string;
  name: string;
  url: string;
  category: string | null;
  country: string | null;
  language: string | null;
}

function isHttpUrl(s: string | null | undefined): s is string {
  return !!s && /^https?:\/\//i.test(s);
}

/** The ISO instant an entry was published; undated entries and far-future dates get `now`. */
function publishedAt(e: FeedEntry, now: number): string {
  const raw = e.published ?? e.updated;
  const t = raw ? Date.parse(raw) : NaN;
  return new Date(Number.isFinite(t) && t <= now + HOUR ? t : now).toISOString();
}

/** A RawArticle for an entry, or null when it has no usable link or no text to title it. */
export function toRawArticle(e: FeedEntry, p: PublisherIdentity, feed: ParsedFeed['feed'], now: number): RawArticle | null {
  const url = isHttpUrl(e.link) ? e.link : isHttpUrl(e.id) ? e.id : null;
  if (!url) return null;
  const summary = e.summary?.trim() || undefined;
  const title = e.title?.trim() || (summary ? summary.slice(0, 120) : '');
  if (!title) return null;
  const a: RawArticle = { url, title, publisher: p.id, published_at: publishedAt(e, now) };
  if (summary) a.summary = summary.slice(0, MAX_SUMMARY);
  if (e.content) a.text = e.content.slice(0, MAX_TEXT);
  if (p.category) a.feed_category = p.category;
  // the entry's own tags: the publisher filed it there (a general publisher's <category>Sport</category>)
  if (e.categories && e.categories.length > 0) a.categories = e.categories.slice(0, MAX_CATEGORIES);
  if (p.country) a.publisher_country = p.country;
  // two priors for the language, kept apart: the feed's declaration first, the publisher's after
  if (feed.language) a.language = feed.language;
  if (p.language) a.publisher_language = p.language;
  if (e.thumbnail) a.thumbnail = e.thumbnail;
  return a;
}

export interface FreshEntries {
  articles: RawArticle[];
  /** (key hash, fingerprint) pairs to record once the articles are stored */
  marks: number[];
  /** the seen ring, possibly grown to fit this document */
  seen: SeenRing;
  /** publish times of every dated entry in the document (seeds the publishing rate) */
  publishedTimes: number[];
}

export interface FreshOptions {
  /** publish times wanted (the first poll seeds the publishing rate) */
  wantTimes?: boolean;
  /** take at most this many entries of the document, newest first (the rest are left alone) */
  maxEntries?: number;
  /** key hashes and fingerprints of entries emitted and not yet stored: not emitted twice meanwhile */
  pending?: ReadonlySet<number> | null;
}

/** Default for `maxEntries`: a feed of a hundred thousand entries must not flood ingest. */
export const MAX_ENTRIES_PER_POLL = 100;

/** The newest `max` entries of a document (by published, else updated; undated ones last), in document order. */
export function newestEntries(entries: readonly FeedEntry[], max: number): readonly FeedEntry[] {
  if (entries.length <= max) return entries;
  const times = entries.map((e) => {
    const t = Date.parse(e.published ?? e.updated ?? '');
    return Number.isFinite(t) ? t : -Infinity;
  });
  const order = Array.from(entries.keys()).sort((a, b) => times[b]! - times[a]! || a - b);
  return order.slice(0, max).sort((a, b) => a - b).map((i) => entries[i]!);
}

/**
 * The entries of a document that were not emitted before (nor earlier in the same document, nor
 * in an emit still waiting to be stored), among its newest `maxEntries`.
 */
export function freshEntries(parsed: ParsedFeed, seenRing: SeenRing, p: PublisherIdentity, now: number, o: FreshOptions = {}): FreshEntries {
  const wantTimes = o.wantTimes ?? true;
  const pending = o.pending ?? null;
  const entries = newestEntries(parsed.entries, o.maxEntries ?? MAX_ENTRIES_PER_POLL);
  const seen = ensureSeenCapacity(seenRing, entries.length);
  const articles: RawArticle[] = [];
  const marks: number[] = [];
  const publishedTimes: number[] = [];
  const batch = new Set<number>();
  for (const e of entries) {
    if (wantTimes) {
      const t = Date.parse(e.published ?? e.updated ?? '');
      if (Number.isFinite(t)) publishedTimes.push(t);
    }
    const key = entryKeyHash(e);
    // most entries of a changed feed are old: a known key settles it without the costlier fingerprint
    if (key !== 0 && (seenHas(seen, key, 0) || pending?.has(key))) continue;
    const fp = entryFingerprint(e);
    if (key === 0 && fp === 0) continue;
    if (seenHas(seen, 0, fp) || (fp !== 0 && pending?.has(fp))) continue;
    // keys and fingerprints share one set: a collision between them only makes an entry look old
    if ((key !== 0 && batch.has(key)) || (fp !== 0 && batch.has(fp))) continue;
    if (key !== 0) batch.add(key);
    if (fp !== 0) batch.add(fp);
    marks.push(key, fp);
    const a = toRawArticle(e, p, parsed.feed, now);
    if (a) articles.push(a);
  }
  return { articles, marks, seen, publishedTimes };
}

/** Record emitted entries; returns the ring (unchanged identity). */
export function markSeen(seen: SeenRing, marks: readonly number[]): SeenRing {
  for (let i = 0; i < marks.length; i += 2) seenAdd(seen, marks[i]!, marks[i + 1]!);
  return seen;
}
