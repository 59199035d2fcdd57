import { build, offsetMinutes, type Parts } from './date-build.js';

/**
 * ISO 8601 / W3C-DTF dates, with the reduced and truncated forms feeds really publish (the set
 * Python's feedparser reads): `2003-12-31`, `20031231`, `2003-12`, `2003`, ordinal `2003-335`
 * and `2003335`, week dates `2003-W01-1` / `2003W011` / `2003-W01` (Monday), two-digit years
 * `03-12-31` / `031231` / `03-335`, the Google-style `2003-012-31`,
 * and forms without a year (`-03-12`, `--12-31`, `---31`, `-335`) that take the missing fields
 * from `now`. Without `now`, a form that lacks its year is unreadable (null): a date is never
 * invented from nothing. Two-digit years fall in the century of `now` (2000s without one).
 */
export function parseIso(s: string, now?: number): Date | null {
  const m = ISO.exec(s);
  if (!m) return null;
  const date = readDate(m[1]!);
  if (!date) return null;
  // an hour alone (`2003-12-31T10`) only after a `T`: `2003-12-31 10` is more likely something else
  if (m[3] !== undefined && m[4] === undefined && !/^t/i.test(m[2]!)) return null;
  const p: Parts = {
    ...date,
    h: m[3] ? +m[3] : 0,
    mi: m[4] ? +m[4] : 0,
    sec: m[5] ? +m[5] : 0,
    ms: m[6] ? Math.round(+`0.${m[6]}` * 1000) : 0,
  };
  const off = m[7] ? offsetMinutes(m[7]) : 0;
  if (off === null) return null;
  return build(p, off);
}

/**
 * A date part, then optionally a time with optionally its zone (a zone without a time would read
 * `2013-01-27-01` as a date with a zone). The zone may be a name (`EST`); `offsetMinutes`
 * refuses names it does not know.
 */
const ISO =
  /^([-\dW]{2,11})(?:(T\s*|\s+)(\d{1,2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[A-Z]{1,5}|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** The date part's forms; each reads (year, month, day) or (year, ordinal day). */
const FORMS: readonly { re: RegExp; read: (m: RegExpExecArray) => Ymd | null }[] = [
  { re: /^(\d{4})-0?(\d{2})-(\d{2})$/, read: (m) => ymd(+m[1]!, +m[2]!, +m[3]!) },
  { re: /^(\d{4})(\d{2})(\d{2})$/, read: (m) => ymd(+m[1]!, +m[2]!, +m[3]!) },
  { re: /^(\d{4})-(\d{2})$/, read: (m) => ymd(+m[1]!, +m[2]!, 1) },
  { re: /^(\d{4})-?(\d{3})$/, read: (m) => ordinal(+m[1]!, +m[2]!) },
  { re: /^(\d{4})$/, read: (m) => ymd(+m[1]!, 1, 1) },
  { re: /^(\d{2})-?(\d{2})-?(\d{2})$/, read: (m) => ymd(yy(+m[1]!), +m[2]!, +m[3]!) },
  { re: /^(\d{2})-?(\d{3})$/, read: (m) => ordinal(yy(+m[1]!), +m[2]!) },
  { re: /^-(\d{2})-?(\d{2})$/, read: (m) => ymd(yy(+m[1]!), +m[2]!, 1) },
  { re: /^-(\d{2})$/, read: (m) => ymd(yy(+m[1]!), 1, 1) },
  { re: /^(\d{4})-?W(\d{2})(?:-?([1-7]))?$/, read: (m) => week(+m[1]!, +m[2]!, m[3] ? +m[3] : 1) },
];

interface Ymd {
  y: number;
  mo: number;
  d: number;
}

function readDate(text: string): Ymd | null {
  for (const f of FORMS) {
    const m = f.re.exec(text);
    if (m) return f.read(m);
  }
  return null;
}

const ymd = (y: number, mo: number, d: number): Ymd => ({ y, mo, d });

/** A two-digit year, as the RFC 822 reader takes it: 00-49 → 20xx, 50-99 → 19xx. */
const yy = (n: number): number => n + (n < 50 ? 2000 : 1900);

/** Day `n` of year `y` (1-based) as month and day; null past the year's end. */
function ordinal(y: number, n: number): Ymd | null {
  if (n < 1) return null;
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(y, 0, n);
  if (t.getUTCFullYear() !== y) return null;
  return { y, mo: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** ISO week date: day `d` (1 = Monday) of week `w` of ISO year `y`; null past the year's last week. */
function week(y: number, w: number, d: number): Ymd | null {
  if (w < 1 || w > 53) return null;
  // week 1 holds 4 January; its Monday starts the ISO year
  const jan4 = Date.UTC(y, 0, 4);
  const monday1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000;
  const t = new Date(monday1 + ((w - 1) * 7 + (d - 1)) * 86_400_000);
  // week 53 exists only in years whose 28 December falls in it
  if (w === 53 && week53Missing(y)) return null;
  return { y: t.getUTCFullYear(), mo: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

function week53Missing(y: number): boolean {
  const dec28 = Date.UTC(y, 11, 28);
  const jan4 = Date.UTC(y, 0, 4);
  const monday1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000;
  return Math.floor((dec28 - monday1) / (7 * 86_400_000)) + 1 < 53;
}
