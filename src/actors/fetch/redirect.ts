import { FetchError } from './errors.js';
import type { Layer } from './types.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const PERMANENT = new Set([301, 308]);

/**
 * Follows redirects hop by hop (each hop passes through the inner layers again: URL policy,
 * robots, per-origin queue, SSRF guard at connect). Detects loops, enforces a hop limit, and
 * reports where an unbroken leading run of 301/308 led, so the publisher can update its feed URL.
 */
export function redirects(maxRedirects: number): Layer {
  return (next) => async (req) => {
    let url = req.url;
    const seen = new Set([url.href]);
    let permanent: URL | null = null;
    let stillPermanent = true;
    for (let hops = 0; ; hops++) {
      const res = await next({ ...req, url });
      const location = res.headers['location'];
      if (!REDIRECTS.has(res.status) || !location) return { ...res, permanentRedirect: permanent };
      let target: URL;
      try {
        target = new URL(location, url);
      } catch (err) {
        throw new FetchError('FETCH_BAD_URL', `bad Location "${location.slice(0, 200)}" from ${url.href}`, { cause: err, url: url.href });
      }
      target.hash = '';
      if (seen.has(target.href)) {
        throw new FetchError('FETCH_REDIRECT_LOOP', `redirect loop: ${[...seen, target.href].join(' -> ')}`, { url: req.url.href });
      }
      if (hops >= maxRedirects) {
        throw new FetchError('FETCH_TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects from ${req.url.href}`, { url: req.url.href });
      }
      seen.add(target.href);
      if (stillPermanent && PERMANENT.has(res.status)) permanent = target;
      else stillPermanent = false;
      url = target;
    }
  };
}
