import { entryFingerprint, entryKeyHash, ensureSeenCapacity, MAX_SEEN, seenAdd, seenLookup, type SeenRing } from './seen.js';
import type { FeedEntry, ParsedFeed, RawArticle } from './types.js';
import { MAX_LABEL, MAX_RAW_TITLE, MAX_TAGS, MAX_TEXT, MAX_URL } from '../ingest/caps.js';

/**
 * From a parsed document to the raw articles not emitted before. Polled and pushed content both
 * come through here, so the two paths can never disagree on what is new.
 */

/** summary characters carried (the stored snippet is 300; fingerprints read a little more) */
const MAX_SUMMARY = 2000;
const HOUR = 3600_000;

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

/**
 * A RawArticle for an entry, or null when it has no link and no text to title it. Every field is
 * cut to the caps of caps.ts, so one article can never outgrow the ingest log (a headline of a
 * megabyte once made every poll of its feed fail). An entry whose link the parser refused
 * (`javascript:`, `file:`, over 4,096 characters) becomes an article with that link: ingest
 * refuses it and records it in `rejected_articles`, so it does not vanish without a trace.
 */
export function toRawArticle(e: FeedEntry, p: PublisherIdentity, feed: ParsedFeed['feed'], now: number): RawArticle | null {
  const usable = isHttpUrl(e.link) ? e.link : isHttpUrl(e.id) ? e.id : null;
  // a refused link is kept just long enough to be seen as over the cap
  const url = usable ?? e.refusedLink?.slice(0, MAX_URL + 1) ?? null;
  if (!url) return null;
  const summary = e.summary?.trim() || undefined;
  const title = (e.title?.trim() || (summary ? summary.slice(0, 120) : '')).slice(0, MAX_RAW_TITLE);
  // untitled: nothing to show (a refused link is recorded all the same: ingest refuses its URL first)
  if (!title && usable) return null;
  const a: RawArticle = { url, title, publisher: p.id, published_at: publishedAt(e, now) };
  if (summary) a.summary = summary.slice(0, MAX_SUMMARY);
  if (e.content) a.text = e.content.slice(0, MAX_TEXT);
  if (p.category) a.feed_category = p.category;
  // the entry's own tags: the publisher filed it there (a general publisher's <category>Sport</category>)
  if (e.categories && e.categories.length > 0) a.categories = e.categories.slice(0, MAX_TAGS).map((c) => c.slice(0, MAX_LABEL));
  if (p.country) a.publisher_country = p.country;
  // two priors for the language, kept apart: the feed's declaration first, the publisher's after
  if (feed.language) a.language = feed.language.slice(0, MAX_LABEL);
  if (p.language) a.publisher_language = p.language;
  if (e.thumbnail && e.thumbnail.length <= MAX_URL) a.thumbnail = e.thumbnail;
  return a;
}

export interface FreshEntries {
  /** the new articles, in document order */
  articles: RawArticle[];
  /** (key hash, fingerprint) of each article's entry, two per article in the order of `articles`: recorded once it is stored */
  marks: number[];
  /** (key hash, fingerprint) pairs of new entries decided without an article (nothing usable, older than retention): recorded at once */
  settled: number[];
  /** the seen ring, possibly grown to fit this document */
  seen: SeenRing;
  /** publish times of every dated entry in the document (seeds the publishing rate) */
  publishedTimes: number[];
  /** new entries left out on purpose, by reason (the only entries a document loses) */
  skipped: Record<SkipReason, number>;
}

/** Why a new entry was left out on purpose: published before the retention period, or past the most one document is read for. */
export type SkipReason = 'retention' | 'document_limit';

export interface FreshOptions {
  /** publish times wanted (the first poll seeds the publishing rate) */
  wantTimes?: boolean;
  /** read at most this many entries of one document, newest first; older ones are skipped (`document_limit`) */
  maxEntries?: number;
  /** entries published before this instant (epoch ms) are skipped (`retention`): they would be deleted at once */
  notBefore?: number | null;
  /** key hashes and fingerprints of entries emitted and not yet stored: not emitted twice meanwhile */
  pending?: ReadonlySet<number> | null;
}

/**
 * The most entries read from one document: the seen ring must remember every one of them (twice
 * over, see seen.ts), or entries it forgot would come back as new at every poll. A real news feed
 * holds tens or hundreds; a document of thousands is an archive, whose oldest entries past this
 * are skipped and counted.
 */
export const MAX_DOCUMENT_ENTRIES = MAX_SEEN / 2;

/** The newest `max` entries of a document (by published, else updated; undated ones last), in document order. */
export function newestEntries(entries: readonly FeedEntry[], max: number): readonly FeedEntry[] {
  if (entries.length <= max) return entries;
  const times = entries.map(entryTime);
  const order = Array.from(entries.keys()).sort((a, b) => times[b]! - times[a]! || a - b);
  return order.slice(0, max).sort((a, b) => a - b).map((i) => entries[i]!);
}

/** An entry's date (published, else updated) in epoch ms; -Infinity when undated or unreadable. */
function entryTime(e: FeedEntry): number {
  const t = Date.parse(e.published ?? e.updated ?? '');
  return Number.isFinite(t) ? t : -Infinity;
}

/**
 * The entries of a document that were not emitted before (nor earlier in the same document, nor
 * in an emit still waiting to be stored). Every one of them becomes an article, except those
 * older than retention and those past the newest `maxEntries`, which are counted as skipped;
 * how many go into the ingest log at once is the caller's business (see steps.ts).
 */
export function freshEntries(parsed: ParsedFeed, seenRing: SeenRing, p: PublisherIdentity, now: number, o: FreshOptions = {}): FreshEntries {
  const wantTimes = o.wantTimes ?? true;
  const pending = o.pending ?? null;
  const notBefore = o.notBefore ?? null;
  const entries = newestEntries(parsed.entries, Math.min(o.maxEntries ?? MAX_DOCUMENT_ENTRIES, MAX_DOCUMENT_ENTRIES));
  const skipped: Record<SkipReason, number> = { retention: 0, document_limit: parsed.entries.length - entries.length };
  const seen = ensureSeenCapacity(seenRing, entries.length);
  const seenHas = seenLookup(seen);
  const articles: RawArticle[] = [];
  const marks: number[] = [];
  const settled: number[] = [];
  const publishedTimes: number[] = [];
  const batch = new Set<number>();
  for (const e of entries) {
    const t = wantTimes || notBefore !== null ? entryTime(e) : -Infinity;
    if (wantTimes && t !== -Infinity) publishedTimes.push(t);
    const key = entryKeyHash(e);
    // most entries of a changed feed are old: a known key settles it without the costlier fingerprint
    if (key !== 0 && (seenHas(key, 0) || pending?.has(key))) continue;
    const fp = entryFingerprint(e);
    if (key === 0 && fp === 0) continue;
    if (seenHas(0, fp) || (fp !== 0 && pending?.has(fp))) continue;
    // keys and fingerprints share one set: a collision between them only makes an entry look old
    if ((key !== 0 && batch.has(key)) || (fp !== 0 && batch.has(fp))) continue;
    if (key !== 0) batch.add(key);
    if (fp !== 0) batch.add(fp);
    if (notBefore !== null && t !== -Infinity && t < notBefore) {
      skipped.retention++;
      settled.push(key, fp);
      continue;
    }
    const a = toRawArticle(e, p, parsed.feed, now);
    if (a) {
      articles.push(a);
      marks.push(key, fp);
    } else settled.push(key, fp);
  }
  return { articles, marks, settled, seen, publishedTimes, skipped };
}

/** Record emitted entries; returns the ring (unchanged identity). */
export function markSeen(seen: SeenRing, marks: readonly number[]): SeenRing {
  for (let i = 0; i < marks.length; i += 2) seenAdd(seen, marks[i]!, marks[i + 1]!);
  return seen;
}
