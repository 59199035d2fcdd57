import type { Entity } from '../enrich/entities.js';

/**
 * A raw article: what publishers, WebSub pushes and the sitemap crawler put into the ingest log,
 * and what `newsagg process` reads from each input line. Plain data, possibly with transient
 * full text that is never stored. The one raw-article shape of the project.
 */
export interface RawArticle {
  /** the caller's id; `newsagg process` keeps it, a node derives ids from the URL instead */
  id?: string | null;
  url: string;
  title: string;
  summary?: string | null;
  /** transient: used for fingerprints and enrichment, never stored */
  text?: string | null;
  /** publisher id; missing or empty = the URL's host stands in */
  publisher?: string | null;
  /** ISO-8601; missing or unreadable = the time it was prepared */
  published_at: string | null;
  /** the publisher's category (catalogue or OPML folder): a prior for the topic, not a verdict */
  feed_category?: string | null;
  /** the entry's own category tags as the feed wrote them (RSS `<category>`, Atom `category`, JSON Feed `tags`) */
  categories?: string[] | null;
  publisher_country?: string | null;
  /** the language the feed declares (`<language>`, `xml:lang`, JSON Feed `language`): the first prior */
  language?: string | null;
  /** the publisher's own language (catalogue or OPML): the prior when the feed declares none */
  publisher_language?: string | null;
  thumbnail?: string | null;
  canonical_url?: string | null;
}

/** A raw article after the CPU stage: identity, fingerprint and enrichment, ready for dedup. */
export interface PreparedArticle {
  /** position of the raw article in its batch */
  index: number;
  id: string;
  url: string;
  url_hash: string;
  title: string;
  snippet: string | null;
  thumbnail: string | null;
  publisher: string;
  published_at: string;
  /** SimHash halves and verification sketch */
  hi: number;
  lo: number;
  sketch: Uint8Array | null;
  hasText: boolean;
  /** no word to fingerprint: never matched as a near-duplicate */
  empty: boolean;
  short: boolean;
  simhash: string;
  language: string;
  category: string;
  /** a second category the article is likely about too, else null */
  secondary_category: string | null;
  region: string;
  places: string[];
  entities: Entity[];
  feed_category: string | null;
  publisher_country: string | null;
}

/** Why an article was set aside instead of stored (the `reason` of `rejected_articles`, the metric label). */
export type RejectReason = 'invalid_article' | 'invalid_url' | 'too_large' | 'cluster_failed' | 'storage_rejected';

/** A raw article the pipeline set aside, with the reason. */
export interface RejectedArticle {
  /** position of the raw article in its batch (-1 when unknown) */
  index: number;
  url: string;
  publisher: string;
  reason: RejectReason;
  /** stable machine code (INVALID_URL, INVALID_ARTICLE, a SQLSTATE...) */
  code: string;
  message: string;
}
