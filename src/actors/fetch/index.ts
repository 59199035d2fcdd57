/**
 * The fetcher's public surface: publishers, the API and the CLI import from here only.
 * The layers live one per file beside it (conditional, status, redirect, url-policy, robots,
 * host-queue, transport, body-limit, decode, ssrf).
 */
export { Fetcher } from './fetcher.js';
export { FetchError, type FetchErrorCode } from './errors.js';
export { parseRetryAfter, parseCacheControl, parseContentType, freshness, type CacheControl } from './headers.js';
export { blockedReason, parseIp } from './ip.js';
export type { FetcherOptions, FetchRequest, FetchResult } from './types.js';
export { SsrfGuard, type LookupFn } from './ssrf.js';
export { checkUrl } from './url-policy.js';
