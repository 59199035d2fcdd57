import type { IncomingHttpHeaders } from 'node:http';

/**
 * HTTP validators as a careful origin server applies them (RFC 9110 section 13): If-None-Match
 * takes precedence over If-Modified-Since, ETags compare weakly for GET, dates at 1 s resolution.
 */

function tagsOf(header: string): string[] {
  return header.split(',').map((t) => t.trim().replace(/^W\//, '')).filter((t) => t.length > 0);
}

/** True when the client's cached copy (by any of `etags`, or by date) is still current. */
export function isNotModified(headers: IncomingHttpHeaders, etags: readonly string[], lastModifiedMs: number): boolean {
  const inm = headers['if-none-match'];
  if (typeof inm === 'string' && inm.length > 0) {
    const tags = tagsOf(inm);
    return tags.includes('*') || tags.some((t) => etags.includes(t));
  }
  const ims = headers['if-modified-since'];
  if (typeof ims === 'string' && ims.length > 0) {
    const since = Date.parse(ims);
    if (Number.isNaN(since)) return false;
    return Math.floor(lastModifiedMs / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** True when the client accepts gzip (and did not refuse it with q=0). */
export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const ae = headers['accept-encoding'];
  if (typeof ae !== 'string') return false;
  for (const part of ae.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** An HTTP-date for a millisecond instant. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}
