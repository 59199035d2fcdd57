import { FeedParseError, type FeedParseCode } from './errors.js';
import { parseFeed } from './parse.js';
import type { ParsedFeed } from './types.js';

/**
 * Piscina task module: feed parsing runs in the worker pool so the main thread stays free.
 * The default export resolves to the parse result. A thrown error crosses the thread boundary
 * by structured cloning, which keeps only `message` (not the class or `code`), so the message
 * starts with the code; `fromTaskError` rebuilds the FeedParseError on the calling side.
 */

export interface ParseTask {
  body: Uint8Array;
  baseUrl?: string;
  contentType?: string;
  maxBytes?: number;
}

export default function parseTask(task: ParseTask): ParsedFeed {
  const opts: { baseUrl?: string; contentType?: string; maxBytes?: number } = {};
  if (task.baseUrl !== undefined) opts.baseUrl = task.baseUrl;
  if (task.contentType !== undefined) opts.contentType = task.contentType;
  if (task.maxBytes !== undefined) opts.maxBytes = task.maxBytes;
  try {
    return parseFeed(task.body, opts);
  } catch (err) {
    const code = err instanceof FeedParseError ? err.code : 'PARSE_MALFORMED';
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${code}: ${message}`);
  }
}

const CODES: readonly FeedParseCode[] = ['PARSE_MALFORMED', 'PARSE_TOO_LARGE', 'PARSE_UNSUPPORTED', 'PARSE_ENTITY_LIMIT', 'PARSE_TOO_DEEP'];

/** Rebuild a FeedParseError from a rejected parse task (any other failure stays as it is). */
export function fromTaskError(err: unknown): unknown {
  if (err instanceof FeedParseError || !(err instanceof Error)) return err;
  const m = /^([A-Z_]+): ([\s\S]*)$/.exec(err.message);
  if (!m || !CODES.includes(m[1] as FeedParseCode)) return err;
  return new FeedParseError(m[1] as FeedParseCode, m[2]!, err);
}
