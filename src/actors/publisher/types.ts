/**
 * Structural types for the publisher's collaborators. The Fetcher (`src/actors/fetch/`) and the
 * feed parser (`src/actors/feed/`) are written by others; these shapes match their contracts so
 * the publisher compiles and is tested on its own, and any implementation with the same shape
 * plugs in.
 */

/** What the Fetcher answers for one conditional GET. */
export interface FetchResult {
  status: number;
  /** final URL after redirects */
  url: string;
  /** the new URL after a permanent redirect (the Fetcher gives the URL; `true` means `url`) */
  permanentRedirect: string | boolean | null;
  notModified: boolean;
  body: Uint8Array | string | null;
  contentType: string | null;
  /** the `charset` of the Content-Type header, when it named one (evidence for the body's encoding) */
  charset?: string | null;
  etag: string | null;
  lastModified: string | null;
  maxAgeMs: number | null;
  /** epoch ms from `Expires`, or null */
  expiresAt: number | null;
  retryAfterMs: number | null;
}

export interface FetchRequest {
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** aborts the fetch (the publisher moved to another node mid-poll) */
  signal?: AbortSignal;
}

/** The Fetcher: throws a NewsaggError (FETCH_TIMEOUT, FETCH_RATE_LIMITED, FETCH_HTTP_ERROR, ...) on failure. */
export type FetchFn = (req: FetchRequest) => Promise<FetchResult>;

export interface FeedEntry {
  title: string | null;
  link: string | null;
  id: string | null;
  published: string | null;
  updated: string | null;
  summary: string | null;
  content: string | null;
  author?: string | null;
  categories?: string[];
  enclosures?: { url: string; type: string | null; length: number | null }[];
  thumbnail?: string | null;
  /** the link as the feed wrote it, when the parser refused it (not http(s), too long): the article is recorded as rejected */
  refusedLink?: string | null;
}

export interface FeedMeta {
  ttlMinutes: number | null;
  hubs: string[];
  self: string | null;
  format?: string;
}

export interface ParsedFeed {
  feed: { title: string | null; link?: string | null; language?: string | null };
  entries: FeedEntry[];
  meta: FeedMeta;
}

export type ParseFn = (
  body: Uint8Array | string,
  opts: { baseUrl: string; contentType: string | null },
) => ParsedFeed | Promise<ParsedFeed>;

/** One article as it enters the ingest log (the `newsagg process` input shape). */
export type { RawArticle } from '../ingest/types.js';
import type { RawArticle } from '../ingest/types.js';

export type EmitFn = (articles: RawArticle[]) => Promise<void>;

/** An outgoing WebSub hub request (form-encoded POST). */
export interface HubRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type HubPostFn = (req: HubRequest) => Promise<{ status: number; body?: string }>;
