import { hash as oneShotHash } from 'node:crypto';
import { NewsaggError } from '../../runtime/errors.js';
import { isTrackingParam } from './tracking-params.js';

/** The input is not an absolute http(s) URL. */
export class InvalidUrlError extends NewsaggError {
  constructor(url: string, cause?: unknown, message = `not an absolute http(s) URL: ${JSON.stringify(url.slice(0, 200))}`) {
    super('INVALID_URL', message, { cause });
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
/** host prefixes of mobile and AMP editions of the same page */
const MOBILE_HOST = /^(?:www\.|m\.|mobile\.|amp\.|www\.m\.)/;
/** path forms of AMP editions: `/amp/...`, `.../amp`, `...amp.html` */
const AMP_PATH_PREFIX = /^\/amp(?=\/)/;
const AMP_PATH_SUFFIX = /\/amp\/?$/;
const AMP_EXT = /\.amp(\.html?)$/;

/**
 * The canonical form of an article URL, so that the same article reached through a tracking
 * link, a mobile or AMP edition, or a different spelling of the same address hashes the same.
 * A known `rel=canonical` URL wins (it is the publisher's own statement) but is canonicalised
 * too. `http` is folded into `https`: publishers serve the same article on both.
 */
export function canonicalUrl(url: string, relCanonical?: string | null): string {
  if (relCanonical) {
    try {
      return canonicalUrl(new URL(relCanonical, url).href);
    } catch {
      /* a broken rel=canonical falls back to the URL itself */
    }
  }
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch (err) {
    throw new InvalidUrlError(url, err);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InvalidUrlError(url);
  // URL already lower-cases scheme and host and drops the default port of its own scheme.
  if (u.port === DEFAULT_PORTS[u.protocol]) u.port = '';
  const scheme = 'https:';
  let host = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
  while (MOBILE_HOST.test(host) && host.split('.').length > 2) host = host.replace(MOBILE_HOST, '');
  const port = u.port ? `:${u.port}` : '';

  let path = u.pathname;
  // (each pattern needs its literal: most paths skip all four regex passes)
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path.includes('amp')) path = path.replace(AMP_PATH_PREFIX, '').replace(AMP_PATH_SUFFIX, '').replace(AMP_EXT, '$1');
  path = path.replace(/\/(?:index\.html?)?$/, '');
  if (path === '') path = '/';

  const params: [string, string][] = [];
  // an empty search has no parameters: skip building the URLSearchParams
  if (u.search !== '') for (const [k, v] of u.searchParams) if (!isTrackingParam(k)) params.push([k, v]);
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  // credentials (user:pass@) never identify an article, so they are left out
  return `${scheme}//${host}${port}${path}${query}`;
}

/** 64-bit hash of the canonical URL as 16 hex digits: the exact-dedup key (`url_hash`). */
export function urlHash(canonical: string): string {
  // the one-shot form skips a Hash object per call (same digest)
  return oneShotHash('sha256', canonical, 'hex').slice(0, 16);
}
