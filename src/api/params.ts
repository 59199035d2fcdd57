import { InvalidCursorError } from './cursor.js';
import { HttpError } from './reply.js';

/**
 * Query and path parameter validation for the public API. Every parameter is checked before it
 * reaches the store: unknown or repeated names, unknown taxonomy values, out-of-range limits and
 * malformed ids all become 400 `{"error": {"code", "message"}}` with a code a client can act on.
 * Unknown names are refused rather than ignored so a typo (`categroy=`) is not silently a
 * different feed, and so a CDN's cache key space stays small.
 */

/** What feeds, search and live topics accept: the model's taxonomy (`top` and `global` included). */
export { FEED_CATEGORIES, FEED_REGIONS } from '../actors/model/index.js';

/** Article, story and publisher ids: what the store writes (16 characters of a base64url sha256 for articles, `st_` + the first article's id for stories, `pub_` + hex for publishers), nothing path-like. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function badRequest(code: string, message: string): HttpError {
  return new HttpError(400, code, message);
}

/** Rejects names not in `allowed` and names given twice; returns the single values. */
export function readQuery(query: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of query) {
    if (!allowed.includes(k)) {
      throw badRequest('unknown_parameter', allowed.length === 0
        ? `unknown parameter "${clip(k)}": this route takes no query parameters`
        : `unknown parameter "${clip(k)}"; allowed: ${allowed.join(', ')}`);
    }
    if (out.has(k)) throw badRequest('repeated_parameter', `parameter "${k}" given more than once`);
    out.set(k, v);
  }
  return out;
}

/** An integer in [min, max]; absent or empty → `dflt`. */
export function parseLimit(raw: string | undefined, dflt: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d{1,6}$/.test(raw)) throw badRequest('invalid_limit', `limit must be an integer from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest('invalid_limit', `limit must be an integer from ${min} to ${max}`);
  return n;
}

/** One of `values`; absent or empty → `dflt` (null = optional). */
export function parseEnum(name: string, raw: string | undefined, values: readonly string[], dflt: string): string;
export function parseEnum(name: string, raw: string | undefined, values: readonly string[], dflt: null): string | null;
export function parseEnum(name: string, raw: string | undefined, values: readonly string[], dflt: string | null): string | null {
  if (raw === undefined || raw === '') return dflt;
  if (!values.includes(raw)) throw badRequest(`invalid_${name}`, `unknown ${name} "${clip(raw)}"; expected one of: ${values.join(', ')}`);
  return raw;
}

/** A cursor as given (its signature is checked by the codec); absent or empty → null. */
export function parseCursor(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (raw.length > 2048 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(raw)) throw badRequest('invalid_cursor', new InvalidCursorError('malformed').userMessage);
  return raw;
}

/** A path id; anything else (slashes, dots-only, control characters, overlong) → 400 invalid_id. */
export function parseId(raw: string | undefined): string {
  if (raw === undefined || !ID.test(raw) || /^\.+$/.test(raw)) throw badRequest('invalid_id', 'malformed id');
  return raw;
}

/** A search query: 1–200 characters after trimming, no control characters. */
export function parseSearchText(raw: string | undefined): string {
  const q = (raw ?? '').trim();
  if (q === '') throw badRequest('missing_query', 'parameter "q" is required');
  if (q.length > 200) throw badRequest('invalid_query', 'q must be at most 200 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(q)) throw badRequest('invalid_query', 'q must not contain control characters');
  return q;
}

/** Echoes of client input in messages stay short and printable. */
function clip(s: string): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f]/g, '?');
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
