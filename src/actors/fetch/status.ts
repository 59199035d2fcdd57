import { FetchError } from './errors.js';
import { parseRetryAfter } from './headers.js';
import type { Layer } from './types.js';

/**
 * Turns the final HTTP status into success or a coded error: 2xx and 304 pass; 429 and 503 become
 * FETCH_RATE_LIMITED carrying the server's Retry-After so the publisher can honour it; every
 * other status (including a 3xx the redirect layer could not follow) is FETCH_HTTP_ERROR.
 */
export function statusErrors(now: () => number): Layer {
  return (next) => async (req) => {
    const res = await next(req);
    const status = res.status;
    if ((status >= 200 && status < 300) || status === 304) return res;
    const url = res.url.href;
    if (status === 429 || status === 503) {
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now());
      throw new FetchError('FETCH_RATE_LIMITED', `${url} answered ${status}${retryAfterMs === null ? '' : `, retry after ${retryAfterMs} ms`}`, { url, status, retryAfterMs });
    }
    throw new FetchError('FETCH_HTTP_ERROR', `${url} answered ${status}`, { url, status, retryAfterMs: parseRetryAfter(res.headers['retry-after'], now()) });
  };
}
