/**
 * The publisher's collaborators as functions: fetch (the Fetcher's contract), parse (the feed
 * parser's), emit into the ingest log and post to a WebSub hub. Tests plug in fakes of the same
 * shapes.
 */

import type { FetchRequest, FetchResult } from '../fetch/index.js';
import type { ParsedFeed } from '../feed/index.js';

/** The fetcher's and the parser's contracts, as their faces define them. */
export type { FetchRequest, FetchResult } from '../fetch/index.js';
export type { FeedEntry, FeedMeta, ParsedFeed } from '../feed/index.js';

/** The Fetcher: throws a NewsaggError (FETCH_TIMEOUT, FETCH_RATE_LIMITED, FETCH_HTTP_ERROR, ...) on failure. */
export type FetchFn = (req: FetchRequest) => Promise<FetchResult>;

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
