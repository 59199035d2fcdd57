/**
 * Date strings from page metadata and sitemaps to ISO-8601 UTC instants, or null.
 *
 * `src/actors/feed/dates.ts` (`parseFeedDate`) did not exist when this was written, so this is a
 * small validated parser of its own: ISO-8601/W3C-DTF forms are parsed by hand (a missing zone
 * means UTC, never the machine's local zone), anything else goes through `Date.parse` only when
 * the result keeps the year written in the string (V8 happily reads "foo 12" as 2001).
 */

const ISO = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]+(\d{1,2}):?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?|UTC|GMT)?)?$/i;

const MIN_YEAR = 1990;
const MAX_YEAR = 2200;

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Parse a metadata date; null when absent, unparseable or implausible. Never invents a date. */
export function parseMetaDate(input: unknown): string | null {
  if (typeof input === 'number' && Number.isFinite(input)) return fromEpoch(input);
  if (typeof input !== 'string') return null;
  const s = input.trim();
  if (s.length === 0 || s.length > 100) return null;
  if (/^\d{10}(\d{3})?$/.test(s)) return fromEpoch(Number(s));
  const m = ISO.exec(s);
  if (m) return fromIsoParts(m);
  const yearMatch = /\b(\d{4})\b/.exec(s);
  if (!yearMatch) return null;
  const t = Date.parse(s);
  if (!Number.isFinite(t)) return null;
  const d = new Date(t);
  // without an explicit zone Date.parse uses local time; only trust strings that name one
  const hasZone = /(?:\b(?:GMT|UTC|UT|[ECMP][SD]T|Z)\b|[+-]\d{2}:?\d{2}\s*$)/i.test(s);
  const hasTime = /\d{1,2}:\d{2}/.test(s);
  if (hasTime && !hasZone) {
    const utc = Date.parse(`${s} UTC`);
    if (!Number.isFinite(utc)) return null;
    return plausible(new Date(utc), Number(yearMatch[1]));
  }
  if (!hasTime) {
    // a bare calendar date ("November 19, 2019"): midnight UTC of that day
    return plausible(new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())), Number(yearMatch[1]));
  }
  return plausible(d, Number(yearMatch[1]));
}

function plausible(d: Date, writtenYear: number): string | null {
  const y = d.getUTCFullYear();
  if (!Number.isFinite(d.getTime()) || y < MIN_YEAR || y > MAX_YEAR) return null;
  // allow the zone to push the instant across new year
  if (Math.abs(y - writtenYear) > 1) return null;
  return d.toISOString();
}

function fromEpoch(n: number): string | null {
  const ms = n < 1e11 ? n * 1000 : n;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (!Number.isFinite(ms) || y < MIN_YEAR || y > MAX_YEAR) return null;
  return d.toISOString();
}

function fromIsoParts(m: RegExpExecArray): string | null {
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const y = Number(ys), mo = Number(mos), day = Number(ds);
  const h = hs === undefined ? 0 : Number(hs);
  const mi = mis === undefined ? 0 : Number(mis);
  const sec = ss === undefined ? 0 : Number(ss);
  if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || day < 1 || day > daysInMonth(y, mo)) return null;
  if (h > 24 || mi > 59 || sec > 60 || (h === 24 && (mi > 0 || sec > 0))) return null;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  let t = Date.UTC(y, mo - 1, day, h, mi, Math.min(sec, 59), ms);
  if (zone && /^[+-]/.test(zone)) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 14 || om > 59) return null;
    t -= sign * (oh * 60 + om) * 60_000;
  }
  return new Date(t).toISOString();
}
