import { NewsaggError } from '../../runtime/errors.js';

/**
 * Stable fetch error codes. Publisher actors choose their backoff from these and the API maps
 * them to user-facing errors, so a code never changes meaning.
 */
export type FetchErrorCode =
  | 'FETCH_TIMEOUT'
  | 'FETCH_TOO_LARGE'
  | 'FETCH_REDIRECT_LOOP'
  | 'FETCH_TOO_MANY_REDIRECTS'
  | 'FETCH_HTTP_ERROR'
  | 'FETCH_RATE_LIMITED'
  | 'FETCH_NETWORK'
  | 'FETCH_BAD_URL'
  | 'FETCH_DECODE'
  | 'FETCH_ABORTED'
  | 'ROBOTS_DISALLOWED'
  | 'SSRF_BLOCKED'
  | 'PARSE_MALFORMED';

const USER_MESSAGES: Record<FetchErrorCode, string> = {
  FETCH_TIMEOUT: 'the feed server did not answer in time',
  FETCH_TOO_LARGE: 'the feed is larger than the allowed size',
  FETCH_REDIRECT_LOOP: 'the feed URL redirects in a loop',
  FETCH_TOO_MANY_REDIRECTS: 'the feed URL redirects too many times',
  FETCH_HTTP_ERROR: 'the feed server answered with an error',
  FETCH_RATE_LIMITED: 'the feed server asked us to slow down',
  FETCH_NETWORK: 'the feed server could not be reached',
  FETCH_BAD_URL: 'the feed URL is not a valid http(s) URL',
  FETCH_DECODE: 'the feed body could not be decoded',
  FETCH_ABORTED: 'the fetch was cancelled',
  ROBOTS_DISALLOWED: "the site's robots.txt does not allow fetching this URL",
  SSRF_BLOCKED: 'the feed URL points to a private or reserved address',
  PARSE_MALFORMED: 'the feed could not be parsed',
};

export interface FetchErrorDetails {
  cause?: unknown;
  url?: string;
  status?: number;
  retryAfterMs?: number | null;
}

/** Any failure of a fetch; `code` says which (see {@link FetchErrorCode}). */
export class FetchError extends NewsaggError {
  declare readonly code: FetchErrorCode;
  readonly url: string | undefined;
  readonly status?: number;
  readonly retryAfterMs?: number | null;

  constructor(code: FetchErrorCode, message: string, details: FetchErrorDetails = {}) {
    // Always set a cause, so logs can follow the chain down to the socket error.
    super(code, message, { cause: details.cause ?? new Error(message), userMessage: USER_MESSAGES[code] });
    this.url = details.url;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** Codes of undici (and Node socket) errors that mean "took too long". */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const TOO_LARGE_CODES = new Set(['UND_ERR_RES_EXCEEDED_MAX_SIZE', 'ERR_BUFFER_TOO_LARGE']);
const DECODE_CODES = new Set(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR__ERROR_FORMAT_PADDING_1', 'ERR_BROTLI_DECOMPRESSION_FAILED']);

/**
 * Maps whatever a lower layer threw to a FetchError. `aborted` tells whether the caller's own
 * signal fired (FETCH_ABORTED) as opposed to our total deadline (FETCH_TIMEOUT).
 */
export function toFetchError(err: unknown, url: string, aborted: 'caller' | 'deadline' | null = null): FetchError {
  // The signals win: whatever a layer made of the abort, the reason is the deadline or the caller.
  if (aborted === 'deadline') return new FetchError('FETCH_TIMEOUT', `fetch of ${url} exceeded its total deadline`, { cause: err, url });
  if (aborted === 'caller') return new FetchError('FETCH_ABORTED', `fetch of ${url} was aborted`, { cause: err, url });
  if (err instanceof FetchError) return err;
  const code = errorCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (code && TIMEOUT_CODES.has(code)) return new FetchError('FETCH_TIMEOUT', `${url}: ${msg}`, { cause: err, url });
  if (code && TOO_LARGE_CODES.has(code)) return new FetchError('FETCH_TOO_LARGE', `${url}: ${msg}`, { cause: err, url });
  if ((code && DECODE_CODES.has(code)) || code?.startsWith('ERR_BROTLI') || code?.startsWith('Z_')) {
    return new FetchError('FETCH_DECODE', `${url}: ${msg}`, { cause: err, url });
  }
  return new FetchError('FETCH_NETWORK', `${url}: ${msg}`, { cause: err, url });
}

function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}
