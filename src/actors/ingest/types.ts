import type { Entity } from '../enrich/entities.js';

/**
 * A raw article as publishers, WebSub pushes and the sitemap crawler emit it into the ingest
 * log: plain data, possibly with transient full text that is never stored.
 */
export interface RawArticle {
  id?: string | null;
  url: string;
  title: string;
  summary?: string | null;
  /** transient: used for fingerprints and enrichment, never stored */
  text?: string | null;
  /** publisher id */
  publisher: string;
  published_at: string | null;
  feed_category?: string | null;
  publisher_country?: string | null;
  language?: string | null;
  thumbnail?: string | null;
  canonical_url?: string | null;
}

/** A raw article after the CPU stage: identity, fingerprint and enrichment, ready for dedup. */
export interface PreparedArticle {
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
  simhash: string;
  language: string;
  category: string;
  region: string;
  places: string[];
  entities: Entity[];
  feed_category: string | null;
  publisher_country: string | null;
}

/** A raw article the CPU stage refused (bad URL, no title), with the reason. */
export interface RejectedArticle {
  url: string;
  publisher: string;
  code: string;
  message: string;
}
