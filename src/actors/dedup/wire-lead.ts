/**
 * What syndication puts in front of a story's first sentence: a dateline, bylines and credit
 * lines. Each republisher writes them its own way (`LONDON (Reuters) -`, `NEW YORK, March 3
 * (AP) —`, `IRVING, Texas, June 1 -`, `Nairobi, Kenya (CNN) —`, `BEIJING, Jan. 5 (Xinhua) --`,
 * `SAN JOSE, Calif., May 2, 2024 /PRNewswire/ --`, `(Reuters) -`, `PARIS:`), so the dateline is
 * matched by its grammar, not by a list of forms: a short run of capitalised place words,
 * optionally a region, a date and the agency, then a dash-like or colon separator.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_ALTS = MONTHS.flatMap((m) => {
  const abbr = m.slice(0, 3);
  const forms = [m, abbr, m === 'September' ? 'Sept' : abbr];
  return [...forms, ...forms.map((f) => f.toUpperCase()), ...forms.map((f) => f.toLowerCase())];
});
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].flatMap((d) => [d, d.toUpperCase()]);
const MONTH = `(?:${[...new Set(MONTH_ALTS)].sort((a, b) => b.length - a.length).join('|')})\\.?`;
const WEEKDAY = `(?:${WEEKDAYS.join('|')})`;
const YEAR = String.raw`(?:1[89]|20)\d\d`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
/** `March 3`, `Mar. 3, 2024`, `3 March 2024`, `Tuesday`, `Tuesday, March 3` */
const DATE = String.raw`(?:${MONTH}\s+${DAY}(?:,?\s+${YEAR})?|${DAY}\s+${MONTH}(?:,?\s+${YEAR})?|${WEEKDAY}(?:,?\s+${MONTH}\s+${DAY}(?:,?\s+${YEAR})?)?)`;

const PARTICLE = String.raw`(?:de|da|do|dos|das|del|della|di|du|la|le|el|al|en|of|on|am|an|upon|sur|es|y|DE|DA|DO|DEL|DI|DU|LA|LE|EL|AL|OF|ON)`;
/** an upper-case place word: `LONDON`, `ST.`, `D.C.`, `O'HARE`, `WINSTON-SALEM` */
const CAPS_WORD = String.raw`[A-Z][A-Z.'\u2019&-]*`;
/** a title-case place word (or an abbreviation like `N.Y.` or `Calif.`) */
const TITLE_WORD = String.raw`[A-Z][A-Za-z.'\u2019-]*`;
const CAPS_PLACE = String.raw`${CAPS_WORD}(?:(?:\s+|\s*/\s*)(?:${CAPS_WORD}|${PARTICLE})){0,5}`;
const TITLE_PLACE = String.raw`${TITLE_WORD}(?:(?:\s+|\s*/\s*)(?:${TITLE_WORD}|${PARTICLE})){0,4}`;
/** `, Calif.`, `, Kenya`, `, N.Y.`, `, England` (once or twice) */
const REGION = String.raw`(?:,\s*${TITLE_WORD}(?:\s+${TITLE_WORD}){0,2}){1,2}`;
const AGENCY = String.raw`(?:\s*\([^()\n]{1,40}\)|\s*/[^/\n]{2,40}/|\s+(?:Reuters|AP|AFP|UPI|IANS|PTI|ANI|dpa|DPA|Xinhua|Kyodo|Yonhap|Bernama|Antara|EFE|ANSA|TASS|Interfax))`;
/** hyphen (one to three), any Unicode dash or minus, or a colon; then a space */
const SEP = String.raw`\s*(?:-{1,3}|[\u2010-\u2015\u2212]{1,2}|:)\s+`;

const DATELINE = new RegExp(
  '^\\s*(?:' + [
    // agency alone: `(Reuters) -`
    String.raw`\([^()\n]{1,40}\)${SEP}`,
    // upper-case place: everything else optional
    String.raw`${CAPS_PLACE}(?:${REGION})?(?:,?\s*${DATE})?(?:${AGENCY})?${SEP}`,
    // title-case place: needs a date, an agency or a region, or `Tony Blair - the prime minister` would go
    String.raw`${TITLE_PLACE}(?:${REGION})?,?\s*${DATE}(?:${AGENCY})?${SEP}`,
    String.raw`${TITLE_PLACE}(?:${REGION})?${AGENCY}${SEP}`,
    String.raw`${TITLE_PLACE}${REGION}\s*(?:-{1,3}|[\u2010-\u2015\u2212]{1,2})\s+`,
    // a title-case place alone (`Sydney - The ...`, `Rio de Janeiro: Police ...`) when a new sentence follows
    String.raw`${TITLE_WORD}(?:\s+(?:${TITLE_WORD}|${PARTICLE})){0,2}${SEP}(?=[A-Z0-9"\u201c'\u2018(])`,
  ].join('|') + ')',
);

/** a dateline is short: a longer match is a sentence that happens to fit the grammar */
const MAX_DATELINE = 110;

/** Removes a leading dateline; text without one comes back unchanged. */
export function stripDateline(text: string): string {
  const c = firstNonSpace(text);
  // every form opens with a capital letter or the agency's bracket
  if (!((c >= 65 && c <= 90) || c === 40)) return text;
  const m = DATELINE.exec(text);
  if (!m || m[0].length > MAX_DATELINE) return text;
  return text.slice(m[0].length);
}

function firstNonSpace(s: string): number {
  for (let i = 0; i < s.length && i < 8; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return c;
  }
  return 0;
}

const NAME = String.raw`[A-Z][\w.'\u2019-]*`;
const NAMES = String.raw`${NAME}(?:\s+(?:${NAME}|de|van|von|der|al|bin|da|di|le|la))*`;
/** a keyword in any of its three casings: `photo`, `Photo`, `PHOTO` (names around it stay case-sensitive) */
function kw(words: string): string {
  return words.split('|').map((w) => `${w}|${w.charAt(0).toUpperCase()}${w.slice(1)}|${w.toUpperCase()}`).join('|');
}

/**
 * Byline and credit lines as they open a text: `By Jane Doe`, `BY JANE DOE, Associated Press`,
 * `Jane Doe | Metro Wire`, `Jane Doe, Staff Reporter`, `Written by ...`, `By Jane Doe • 4 min
 * read`, `Photo: Getty Images`, `FILE PHOTO: ...`, `Image copyright ...`, `Advertisement`.
 */
const LEAD_LINE = new RegExp(
  '^\\s*(?:' + [
    String.raw`(?:${kw('by|written by|reporting by|from|words by|story by')})\s+${NAMES}(?:\s*(?:,|and|&)\s*${NAMES})*[,.]?(?:\s*[,|\u2022\u00b7-]\s*[^\n]{0,80})?`,
    String.raw`${NAMES}\s*[|\u2022\u00b7]\s*[^\n]{1,60}`,
    String.raw`${NAMES},\s*(?:${kw('staff|senior|chief|special|political|business|foreign|health|science|sports|technology|tech')})?\s*(?:${kw('writer|reporter|correspondent|editor|contributor')})[^\n]{0,40}`,
    String.raw`(?:${kw('photo|photograph|picture|image|video|file photo|file picture|illustration')})s?(?:\s+(?:${kw('by|credit|copyright|courtesy')})\b|\s*[:(])[^\n]{0,160}`,
    String.raw`\((?:${kw('photo|image|picture')})[^()\n]{0,80}\)`,
    String.raw`(?:${kw('image copyright|image caption|media caption')})[^\n]{0,160}`,
    String.raw`(?:${kw('getty images|advertisement|listen to this article')}|(?:${kw('skip to|skip past|share this|share on')})[^\n]{0,40}|(?:${kw('updated|published|posted|last updated')})\b[^\n]{0,60}|\d+\s*(?:min|minute|mins|minutes)\s+(?:read|READ))`,
  ].join('|') + ')\\s*$',
);

/** How many leading lines (of at most `max`) are bylines or credit lines. */
export function leadLines(lines: readonly string[], max = 3): number {
  let i = 0;
  while (i < Math.min(max, lines.length - 1) && lines[i]!.length <= 200 && LEAD_LINE.test(lines[i]!)) i++;
  return i;
}

/** a flattened feed snippet may open with a byline or credit before the dateline: `Written by Jane Doe WASHINGTON (Xinhua) —` */
const CREDIT_START = /^\s*(?:by|written by|reporting by|photo|image|picture|getty images|file photo|advertisement|listen to this article|updated|published|posted)\b/i;
const DATELINE_AT = new RegExp(DATELINE.source.replace(/^\^\\s\*/, ''), 'y');
/** how far into the text a dateline may follow such an opening */
const CREDIT_SPAN = 140;

/**
 * Removes the dateline and, on one line, a byline or credit line in front of it (where the
 * line breaks were lost, the dateline is where the credit ends). Text without a dateline keeps
 * its opening: where a credit ends cannot be known then.
 */
export function stripLead(text: string): string {
  if (CREDIT_START.test(text)) {
    const end = Math.min(text.length, CREDIT_SPAN);
    for (let p = text.indexOf(' '); p > 0 && p < end; p = text.indexOf(' ', p + 1)) {
      const c = text.charCodeAt(p + 1);
      // only a capital or the agency's bracket opens a dateline; a full stop before means a sentence began
      if (!((c >= 65 && c <= 90) || c === 40)) continue;
      if (/[a-z]{2}[.!?]\s/.test(text.slice(0, p + 1))) break;
      DATELINE_AT.lastIndex = p + 1;
      const m = DATELINE_AT.exec(text);
      if (m && m[0].length <= MAX_DATELINE) return text.slice(p + 1 + m[0].length);
    }
  }
  return stripDateline(text);
}
