import { ZONES } from './date-names.js';
import { zoneOffsetAt } from './time-zones.js';

/** Date fields as read, before validation; `build` checks them against the calendar. */
export interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  sec: number;
  ms: number;
}

/** `Z`, `+02`, `+0200`, `+02:00`, `GMT+2` → minutes east of UTC, or null. */
export function offsetMinutes(z: string): number | null {
  const zl = z.toLowerCase();
  const named = ZONES.get(zl);
  if (named !== undefined) return named;
  const m = /^(?:gmt|utc|ut)?([+-])(\d{1,4})(?::(\d{2}))?$/.exec(zl);
  if (!m) return null;
  let h: number;
  let mi: number;
  const digits = m[2]!;
  if (m[3] !== undefined) {
    if (digits.length > 2) return null;
    h = +digits;
    mi = +m[3];
  } else if (digits.length <= 2) {
    h = +digits;
    mi = 0;
  } else {
    h = +digits.slice(0, digits.length - 2);
    mi = +digits.slice(-2);
  }
  if (h > 14 || mi > 59) return null;
  const v = h * 60 + mi;
  return m[1] === '-' ? -v : v;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysIn(y: number, mo: number): number {
  if (mo !== 2) return MONTH_DAYS[mo - 1]!;
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

/** Validate and convert; `off` is minutes east of UTC, or an IANA zone name. */
export function build(p: Parts, off: number | string): Date | null {
  if (p.y < 1000 || p.y > 9999 || p.mo < 1 || p.mo > 12 || p.d < 1 || p.d > daysIn(p.y, p.mo)) return null;
  let h = p.h;
  if (h === 24 && p.mi === 0 && p.sec === 0 && p.ms === 0) h = 24; // 24:00 is the end of the day
  else if (h > 23) return null;
  if (p.mi > 59 || p.sec > 60) return null;
  const sec = Math.min(p.sec, 59); // a leap second lands on :59
  // Date.UTC maps years 0..99 to 19xx, which cannot happen here (years are >= 1000)
  const local = Date.UTC(p.y, p.mo - 1, p.d, h, p.mi, sec, p.ms);
  if (typeof off === 'string') return new Date(local - zoneOffsetAt(off, local) * 60_000);
  return new Date(local - off * 60_000);
}
