import { parseFeedDate } from '../feed/dates.js';

/**
 * Date strings from page metadata and sitemaps to ISO-8601 UTC instants, or null. The feed
 * parser's `parseFeedDate` does the reading (ISO/W3C-DTF, RFC 822 and their broken variants; a
 * missing zone means UTC); on top of it, pages need epoch numbers (some CMSs put Unix time in
 * meta tags) and stricter plausibility, because page templates ship placeholders such as
 * `0001-01-01T00:00:00Z` or a bare year, which must not become a publication date.
 */

const MIN_YEAR = 1990;
const MAX_YEAR = 2200;

/** Parse a metadata date; null when absent, unparseable, coarser than a day or implausible. */
export function parseMetaDate(input: unknown): string | null {
  if (typeof input === 'number' && Number.isFinite(input)) return fromEpoch(input);
  if (typeof input !== 'string') return null;
  const s = input.trim();
  if (s.length === 0 || s.length > 100) return null;
  if (/^\d{10}(\d{3})?$/.test(s)) return fromEpoch(Number(s));
  // "2019" or "2019-11" says nothing about the day: not a publication instant
  if (/^\d{4}(?:-?\d{2})?$/.test(s)) return null;
  const d = parseFeedDate(s);
  if (!d) return null;
  const y = d.getUTCFullYear();
  return y >= MIN_YEAR && y <= MAX_YEAR ? d.toISOString() : null;
}

function fromEpoch(n: number): string | null {
  const ms = n < 1e11 ? n * 1000 : n;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (!Number.isFinite(ms) || y < MIN_YEAR || y > MAX_YEAR) return null;
  return d.toISOString();
}
