import type { Dispatcher } from 'undici';
import { discard, readDecoded } from './decode.js';
import { toFetchError } from './errors.js';
import type { HopResponse, Step } from './types.js';

const EMPTY = Buffer.alloc(0);
/** How much of a non-2xx body we drain to keep the connection reusable before closing it instead. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * The innermost step: one GET over the shared undici dispatcher. Compression is negotiated and
 * undone here (decode.ts) so its cap applies; bodies of non-2xx answers are drained, not kept.
 */
export function transport(dispatcher: Dispatcher, userAgent: string): Step {
  return async (req) => {
    const url = req.url;
    let res: Dispatcher.ResponseData;
    try {
      res = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'GET',
        headers: { ...req.headers, 'user-agent': userAgent, 'accept-encoding': 'gzip, deflate, br' },
        signal: req.signal,
        maxBodyBytes: req.maxBodyBytes, // read by body-limit.ts
      } as Dispatcher.RequestOptions);
    } catch (err) {
      throw toFetchError(err, url.href);
    }
    const headers = flattenHeaders(res.headers);
    const out: HopResponse = { status: res.statusCode, url, headers, body: EMPTY, permanentRedirect: null };
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump({ limit: DRAIN_LIMIT }).catch(() => undefined);
      return out;
    }
    try {
      out.body = await readDecoded(res.body, headers['content-encoding'], req.maxBodyBytes, url.href);
    } catch (err) {
      discard(res.body);
      throw toFetchError(err, url.href);
    }
    return out;
  };
}

/** undici gives string | string[]; repeated headers are joined the way HTTP folds them. */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
