/**
 * The normalised shape every format adapter produces (DESIGN §6 `parse-feed` output), plus the
 * metadata the publisher actors need but the CLI does not print.
 */

export interface FeedInfo {
  title: string | null;
  link: string | null;
  description: string | null;
  language: string | null;
  /** ISO-8601 UTC instant or null */
  published: string | null;
  updated: string | null;
  /** absolute URL of the feed's logo/icon */
  image: string | null;
}

export interface Enclosure {
  url: string;
  type: string | null;
  length: number | null;
}

export interface FeedEntry {
  /** plain text */
  title: string | null;
  /** absolute http(s) URL */
  link: string | null;
  /** the feed's own identifier (guid / atom:id / JSON id), else the link */
  id: string | null;
  published: string | null;
  updated: string | null;
  /** sanitised HTML */
  summary: string | null;
  /** sanitised HTML */
  content: string | null;
  author: string | null;
  categories: string[];
  enclosures: Enclosure[];
  thumbnail: string | null;
  /**
   * the entry's link as the feed wrote it, when no link of the entry could be used (`javascript:`,
   * `file:`, over 4,096 characters, not resolvable): ingest records the entry as rejected with
   * the reason instead of dropping it unseen. Not part of the `parse-feed` output.
   */
  refusedLink?: string;
}

/** `sitemap`: a site's news sitemap read as its feed (html/source.ts), never a parse-feed result */
export type FeedFormat = 'rss2' | 'rss1' | 'rss09' | 'atom10' | 'atom03' | 'jsonfeed' | 'cdf' | 'sitemap';

export interface FeedMeta {
  format: FeedFormat;
  /** RSS `<ttl>` in minutes */
  ttlMinutes: number | null;
  /** WebSub hubs (`<atom:link rel="hub">`, JSON Feed `hubs`) */
  hubs: string[];
  /** the feed's own URL as it states it (`rel="self"`, JSON `feed_url`) */
  self: string | null;
  /** RSS `<skipHours>` (0..23) when present */
  skipHours?: number[];
  /** RSS `<skipDays>` (Monday..Sunday) when present */
  skipDays?: string[];
  /** the character encoding that was used to decode the body */
  encoding: string;
}

export interface ParsedFeed {
  feed: FeedInfo;
  entries: FeedEntry[];
  meta: FeedMeta;
}

export interface ParseOptions {
  /** the document URL: base for relative links (after xml:base) */
  baseUrl?: string;
  /** the HTTP Content-Type (its charset is evidence for the encoding) */
  contentType?: string;
  /** refuse bodies larger than this (default 16 MiB) */
  maxBytes?: number;
}
