/**
 * Pure parsers for the response headers the fetcher cares about. No I/O, injected clock:
 * table-tested in test/fetch/headers.test.ts.
 */

/** Longest Retry-After we believe; a server asking for a month is misconfigured, not serious. */
export const MAX_RETRY_AFTER_MS = 7 * 24 * 3600_000;

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * A date in the past gives 0; garbage gives null; values are capped at {@link MAX_RETRY_AFTER_MS}.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  // Only accept things that look like dates: Date.parse('12') would happily return a year.
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

export interface CacheControl {
  maxAge: number | null;
  sMaxAge: number | null;
  noCache: boolean;
  noStore: boolean;
  mustRevalidate: boolean;
  /** every directive, lowercased name → raw value (true when it has none) */
  directives: Record<string, string | true>;
}

/** Parses a `Cache-Control` header (RFC 9111 §5.2); unknown or malformed directives are kept or skipped, never thrown. */
export function parseCacheControl(value: string | null | undefined): CacheControl {
  const directives: Record<string, string | true> = {};
  if (value) {
    // Split on commas outside quotes: no-cache="set-cookie, foo" is one directive.
    for (const part of value.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
      const eq = part.indexOf('=');
      const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
      if (!name || name in directives) continue; // the first occurrence wins
      const raw = eq < 0 ? true : part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      directives[name] = raw;
    }
  }
  return {
    maxAge: seconds(directives['max-age']),
    sMaxAge: seconds(directives['s-maxage']),
    noCache: 'no-cache' in directives,
    noStore: 'no-store' in directives,
    mustRevalidate: 'must-revalidate' in directives,
    directives,
  };
}

function seconds(v: string | true | undefined): number | null {
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return null;
  return Number(v);
}

/**
 * How long the response stays fresh, from Cache-Control max-age (minus Age) or else Expires
 * relative to Date. no-store / no-cache mean "revalidate every time" (0). Null when the server
 * said nothing, so the poller keeps its own schedule.
 */
export function freshness(headers: Record<string, string>, now: number): { maxAgeMs: number | null; expiresAt: number | null } {
  const cc = parseCacheControl(headers['cache-control']);
  if (cc.noStore || cc.noCache) return { maxAgeMs: 0, expiresAt: now };
  if (cc.maxAge !== null) {
    const age = seconds(headers['age']) ?? 0;
    const maxAgeMs = Math.max(0, cc.maxAge - age) * 1000;
    return { maxAgeMs, expiresAt: now + maxAgeMs };
  }
  const expires = headers['expires'];
  if (expires !== undefined) {
    const at = Date.parse(expires);
    // RFC 9111 §5.3: an invalid Expires (e.g. "0") means already expired.
    if (Number.isNaN(at)) return { maxAgeMs: 0, expiresAt: now };
    const date = headers['date'] ? Date.parse(headers['date']) : NaN;
    const base = Number.isNaN(date) ? now : date;
    const maxAgeMs = Math.max(0, at - base);
    return { maxAgeMs, expiresAt: now + maxAgeMs };
  }
  return { maxAgeMs: null, expiresAt: null };
}

/** `text/xml; charset="ISO-8859-1"` → { type: 'text/xml', charset: 'iso-8859-1' }. */
export function parseContentType(value: string | null | undefined): { contentType: string | null; charset: string | null } {
  if (!value) return { contentType: null, charset: null };
  const [type, ...params] = value.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m) charset = m[1]!.toLowerCase();
  }
  const t = type!.trim().toLowerCase();
  return { contentType: t === '' ? null : t, charset };
}
