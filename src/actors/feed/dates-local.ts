import { build, offsetMinutes } from './date-build.js';
import { foldWord, MONTHS } from './date-names.js';

/**
 * Dates written in forms of their own rather than with Latin words between numbers: Korean
 * blog engines (`2004년 05월 28일 01:31:15`, `2004-05-25 오후 11:23:17`, both Korea time),
 * Chinese and Japanese `2004年5月28日 13:31`, and ISO-like dates with a month name
 * (`2004-július-13T9:15-05:00`). Greek and other month names in RFC 822 order are read by the
 * general parser through the month table.
 */
export function parseLocalForm(s: string): Date | null {
  let m = KOREAN_BLOG.exec(s);
  if (m) return build({ y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: hour12(+m[5]!, m[4] ?? m[8]), mi: +m[6]!, sec: m[7] ? +m[7] : 0, ms: 0 }, KST);
  m = KOREAN_MERIDIEM.exec(s);
  if (m) return build({ y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: hour12(+m[5]!, m[4]), mi: +m[6]!, sec: m[7] ? +m[7] : 0, ms: 0 }, KST);
  m = HAN.exec(s);
  if (m) {
    const off = m[7] ? offsetMinutes(m[7]) : 0;
    if (off === null) return null;
    return build({ y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: m[4] ? +m[4] : 0, mi: m[5] ? +m[5] : 0, sec: m[6] ? +m[6] : 0, ms: 0 }, off);
  }
  m = NAMED_MONTH_ISO.exec(s);
  if (m) {
    const mo = MONTHS.get(foldWord(m[2]!));
    const off = m[7] ? offsetMinutes(m[7]) : 0;
    if (mo === undefined || off === null) return null;
    return build({ y: +m[1]!, mo, d: +m[3]!, h: m[4] ? +m[4] : 0, mi: m[5] ? +m[5] : 0, sec: m[6] ? +m[6] : 0, ms: 0 }, off);
  }
  return null;
}

const KST = 9 * 60;
const MERIDIEM = '(오전|오후|AM|PM|am|pm)';
const KOREAN_BLOG = new RegExp(`^(\\d{4})년\\s*(\\d{1,2})월\\s*(\\d{1,2})일\\s*${MERIDIEM}?\\s*(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*${MERIDIEM}?$`);
const KOREAN_MERIDIEM = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})\\s+${MERIDIEM}\\s*(\\d{1,2}):(\\d{2})(?::(\\d{2}))?$`);
const HAN = /^(\d{4})年\s*(\d{1,2})月\s*(\d{1,2})日\s*(?:(\d{1,2})[:時时](\d{2})分?(?:[:：]?(\d{2})秒?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const NAMED_MONTH_ISO = /^(\d{4})-(\p{L}{3,12})\.?-(\d{1,2})(?:[T\s](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/u;

/** A 12-hour clock reading with its meridiem (Korean or Latin), else the hour as written. */
function hour12(h: number, meridiem: string | undefined): number {
  if (!meridiem) return h;
  const pm = meridiem === '오후' || meridiem.toLowerCase() === 'pm';
  if (h === 12) return pm ? 12 : 0;
  return pm ? h + 12 : h;
}
