/**
 * Wire-copy variants for the near-duplicate benchmark: the edits syndication really makes,
 * applied at run time to real BBC and Reuters texts (read from NEWSAGG_DATA, never copied into
 * the repo). Each variant changes one thing, so its recall can be reported on its own; `mixed`
 * combines several as a republisher would. Every variant draws its details (cities, agencies,
 * separators, names) at random from wide lists, so no single form is what gets measured.
 */

/** A base article: the original's headline and body, and the place of its dateline if it has one. */
export interface BaseText {
  title: string;
  /** the body without any dateline */
  text: string;
  /** where the story was filed (Reuters' dateline place), or null */
  place: string | null;
  /** the original's own dateline (prepended to the original's body), or '' */
  dateline: string;
}

export interface Copy {
  title: string;
  text: string;
  /** the snippet a republisher's feed carries (may be cut shorter than 300 characters) */
  snippet?: string;
  /** the republisher's feed carries no body at all: even the full-text run sees title + snippet */
  textless?: boolean;
}

type Rand = () => number;
const pick = <T>(r: Rand, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;

const CITIES = [
  'LONDON', 'NEW YORK', 'WASHINGTON', 'TOKYO', 'FRANKFURT', 'SAN FRANCISCO', 'RIO DE JANEIRO', 'NEW DELHI', 'ST. LOUIS',
  'HONG KONG', 'PARIS', 'BRUSSELS', 'JOHANNESBURG', 'SAO PAULO', 'MEXICO CITY', 'BUENOS AIRES', 'KUALA LUMPUR', 'LOS ANGELES',
  'GENEVA', 'DUBAI', 'SEOUL', 'BEIJING', 'NAIROBI', 'OTTAWA', 'SYDNEY', 'WELLINGTON', 'CAPE CANAVERAL', 'THE HAGUE',
];
const STATES = ['Calif.', 'Fla.', 'N.Y.', 'Texas', 'Ill.', 'Kenya', 'England', 'Ontario', 'Brazil', 'India', 'Australia'];
const AGENCIES = ['Reuters', 'AP', 'AFP', 'Bloomberg', 'dpa', 'UPI', 'Xinhua', 'Kyodo', 'IANS', 'PTI', 'CNN', 'Atlas Wire', 'NZPA', 'Business Wire', 'TASS', 'Yonhap News', 'Anadolu'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTHS_ABBR = ['Jan.', 'Feb.', 'Mar.', 'Apr.', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.', 'Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SEPARATORS = { hyphen: ' - ', double_hyphen: ' -- ', en_dash: ' \u2013 ', em_dash: ' \u2014 ', colon: ': ' } as const;
const OUTLETS = ['The Daily Ledger', 'Metro Wire', 'Channel Nine News', 'Evening Courier', 'NorthStar Times', 'Yahoo Finance', 'MSN', 'The Hindu BusinessLine', 'Gulf Observer', 'WKRN-TV'];
const PEOPLE = ['Jane Doe', 'Sam Okafor', 'Li Wei', 'Maria Gonzalez-Ruiz', 'Tom Hart', "Ciaran O'Neill", 'Priya Raman', 'Anne-Marie Dubois', 'Kenji Sato'];

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s/.-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
}

function datePart(r: Rand): string {
  const day = 1 + Math.floor(r() * 28);
  const k = r();
  if (k < 0.35) return `${pick(r, MONTHS)} ${day}`;
  if (k < 0.6) return `${pick(r, MONTHS_ABBR)} ${day}`;
  if (k < 0.75) return `${pick(r, MONTHS_ABBR)} ${day}, ${2020 + Math.floor(r() * 6)}`;
  if (k < 0.9) return `${day} ${pick(r, MONTHS)} ${2020 + Math.floor(r() * 6)}`;
  return `${pick(r, WEEKDAYS)}`;
}

interface DatelineOpts {
  place?: 'caps' | 'title' | 'with_state';
  date?: boolean;
  agency?: 'paren' | 'bare' | 'slash' | 'none' | 'only';
  sep?: keyof typeof SEPARATORS;
}

/** One dateline in the requested form; unspecified parts are drawn at random. */
export function dateline(r: Rand, place: string, o: DatelineOpts = {}): string {
  const form = o.place ?? pick(r, ['caps', 'caps', 'title', 'with_state'] as const);
  let p = form === 'title' ? titleCase(place) : place;
  if (form === 'with_state') p = `${r() < 0.6 ? place : titleCase(place)}, ${pick(r, STATES)}`;
  if (r() < 0.08 && form === 'caps') p = `${place}/${pick(r, CITIES)}`;
  const agency = o.agency ?? pick(r, ['paren', 'paren', 'none', 'bare', 'slash'] as const);
  const sep = SEPARATORS[o.sep ?? pick(r, ['hyphen', 'hyphen', 'double_hyphen', 'en_dash', 'em_dash', 'em_dash', 'colon'] as const)];
  if (agency === 'only') return `(${pick(r, AGENCIES)})${sep}`;
  let d = p;
  if (o.date ?? r() < 0.4) d += `, ${datePart(r)}`;
  if (agency === 'paren') d += ` (${pick(r, AGENCIES)})`;
  else if (agency === 'bare') d += ` ${pick(r, ['Reuters', 'AP', 'AFP', 'IANS', 'PTI'])}`;
  else if (agency === 'slash') d += ` /${pick(r, ['PRNewswire', 'Business Wire', 'GLOBE NEWSWIRE', 'Xinhua'])}/`;
  return d + sep;
}

function byline(r: Rand): string {
  const who = pick(r, PEOPLE);
  return pick(r, [
    `By ${who}`, `By ${who.toUpperCase()}`, `By ${who}, ${pick(r, ['Reuters', 'Associated Press', 'AFP', 'Staff Writer'])}`,
    `By ${who} and ${pick(r, PEOPLE)}`, `${who} | ${pick(r, OUTLETS)}`, `Written by ${who}`, `${who}, Staff Reporter`,
    `By ${who} | Published ${pick(r, MONTHS)} ${1 + Math.floor(r() * 28)}, 2024`, `By ${who} \u2022 ${1 + Math.floor(r() * 9)} min read`,
  ]);
}

function credit(r: Rand): string {
  return pick(r, [
    'Photo: Getty Images', `(Photo: ${pick(r, AGENCIES)})`, `FILE PHOTO: ${pick(r, PEOPLE)} is seen in a file photo.`,
    `Image copyright ${pick(r, AGENCIES)} Image caption Officials at the scene`, `Photo by ${pick(r, PEOPLE)}/${pick(r, AGENCIES)} via Getty Images`,
    `Advertisement`, `Listen to this article`, `Updated ${1 + Math.floor(r() * 12)}:${10 + Math.floor(r() * 49)} p.m. ET`,
  ]);
}

function footer(r: Rand): string {
  const who = pick(r, PEOPLE);
  return pick(r, [
    `\u00a9 ${2020 + Math.floor(r() * 6)} ${pick(r, OUTLETS)}. All rights reserved.`,
    'This story was auto-generated from a syndicated feed and has not been edited.',
    `(Reporting by ${who}; Editing by ${pick(r, PEOPLE)})`,
    `Reporting by ${who}; Additional reporting by ${pick(r, PEOPLE)}; Editing by ${pick(r, PEOPLE)}`,
    `Copyright ${2020 + Math.floor(r() * 6)} ${pick(r, OUTLETS)}. This material may not be published, broadcast, rewritten or redistributed.`,
    `The ${pick(r, ['Associated Press', 'Reuters', 'AFP'])} contributed to this report.`,
    `This article originally appeared on ${pick(r, OUTLETS)}.`,
    `Read more: ${pick(r, ['Markets wrap', 'Full coverage', 'Live updates'])}`,
    `Follow us on Twitter and Facebook for the latest news.`,
    `Sign up for our daily newsletter.`,
    `Our Standards: The Thomson Reuters Trust Principles.`,
    `Contact the reporter at ${who.split(' ')[0]!.toLowerCase()}@example.com`,
    `Related: ${pick(r, ['Stocks slip as rates rise', 'What we know so far', 'Five things to watch'])}`,
  ]);
}

const SUBST: [RegExp, string][] = [
  [/\bsaid\b/, 'says'], [/\bbut\b/, 'however'], [/\blarge\b/, 'big'], [/\bbig\b/, 'large'], [/\bshow\b/, 'reveal'],
  [/\balso\b/, 'additionally'], [/\bbuy\b/, 'purchase'], [/\bhelp\b/, 'assist'], [/\babout\b/, 'around'], [/\bstart\b/, 'begin'],
  [/\btold\b/, 'informed'], [/\bpeople\b/, 'individuals'], [/\bmany\b/, 'numerous'], [/\bquickly\b/, 'rapidly'], [/\bnew\b/, 'fresh'],
  [/\bmln\b/, 'million'], [/\bdlrs\b/, 'dollars'], [/\bpct\b/, 'percent'], [/\bU\.S\.\b/, 'US'], [/\bcompany\b/, 'firm'],
  [/\bwill\b/, 'would'], [/\bincrease\b/, 'rise'], [/\bthat\b/, 'which'], [/\bon Monday\b/, 'Monday'], [/\bgovernment\b/, 'administration'],
];

/** Paragraphs as a reader sees them: the corpora's long lines are cut into runs of 2 sentences. */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n\s*\n|\n(?= {2,})/)) {
    const l = line.replace(/\s*\n\s*/g, ' ').trim();
    if (!l) continue;
    if (l.length < 400) { out.push(l); continue; }
    const sentences = l.match(/(?:[^.!?]|[.!?](?!["']?\s))+(?:[.!?]+["']?|$)\s*/g) ?? [l];
    for (let i = 0; i < sentences.length; i += 2) out.push(sentences.slice(i, i + 2).join('').trim());
  }
  return out;
}

function swapWords(paras: string[], r: Rand, n: number): string[] {
  const out = paras.slice();
  for (let k = 0; k < 40 && n > 0; k++) {
    const [re, to] = pick(r, SUBST);
    const i = Math.floor(r() * out.length);
    if (re.test(out[i]!)) { out[i] = out[i]!.replace(re, to); n--; }
  }
  return out;
}

function typographic(s: string): string {
  return s.replace(/"([^"\n]*)"/g, '\u201c$1\u201d').replace(/'/g, '\u2019').replace(/ - /g, ' \u2014 ').replace(/\.\.\./g, '\u2026').replace(/ (?=\d)/g, '\u00a0');
}

const NAMED: Record<string, string> = { "'": '&rsquo;', '"': '&quot;', '&': '&amp;', '\u2014': '&mdash;', '\u2013': '&ndash;', ' ': '&nbsp;' };

/** HTML-escapes a text the way CMSs do (named or numeric), optionally a second time. */
function entities(s: string, r: Rand, twice: boolean): string {
  const numeric = r() < 0.5;
  let t = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  t = t.replace(/'/g, numeric ? '&#8217;' : '&rsquo;').replace(/"/g, numeric ? '&#34;' : '&quot;');
  // some spaces after full stops become non-breaking, as editors paste them
  t = t.replace(/\. (?=[A-Z])/g, () => (r() < 0.3 ? `.${NAMED[' ']}` : '. '));
  return twice ? t.replace(/&/g, '&amp;') : t;
}

function htmlMarkup(paras: string[], r: Rand): string {
  return paras.map((p, i) => {
    let q = p.replace(/&/g, '&amp;');
    if (i === 0 && r() < 0.5) q = q.replace(/^(\S+\s+\S+)/, '<strong>$1</strong>');
    if (r() < 0.3) q = q.replace(/\b([A-Z][a-z]{3,})\b/, '<a href="https://example.com/topic">$1</a>');
    return `<p>${q}</p>`;
  }).join(r() < 0.5 ? '\n' : '');
}

/** Cuts the ending: the last paragraphs, or mid-way with an ellipsis or a "Read more". */
function cutEnding(paras: string[], r: Rand): string[] {
  const k = r();
  if (paras.length >= 3 && k < 0.5) return paras.slice(0, Math.max(2, Math.ceil(paras.length * (0.5 + r() * 0.4))));
  const all = paras.join('\n\n');
  const at = Math.floor(all.length * (0.55 + r() * 0.35));
  const cut = all.lastIndexOf(' ', at);
  return paragraphs(all.slice(0, cut > 100 ? cut : at) + pick(r, ['...', ' \u2026', ' [\u2026]', '\u2026 Read more', ' (more)']));
}

function titleDecoration(title: string, r: Rand, kind: 'prefix' | 'pipe' | 'dash' | 'caps'): string {
  switch (kind) {
    case 'prefix': return `${pick(r, ['UPDATE 2-', 'UPDATE 1-', 'REFILE-', 'EXCLUSIVE-', 'CORRECTED-', 'UPDATE 3-', 'WRAPUP 1-', 'RPT-', 'BREAKING: ', 'Analysis: ', 'LIVE: ', 'WATCH: ', 'UPDATED: '])}${title}`;
    case 'pipe': return `${title} | ${pick(r, OUTLETS)}`;
    case 'dash': return `${title}${pick(r, [' - ', ' \u2013 ', ' \u2014 '])}${pick(r, OUTLETS)}`;
    case 'caps': return title === title.toUpperCase() ? title.charAt(0) + title.slice(1).toLowerCase() : title.toUpperCase();
  }
}

/** The original as published: its own dateline, if any, opens the body. */
export function original(b: BaseText): Copy {
  return { title: b.title, text: b.dateline ? `${b.dateline}${b.text}` : b.text };
}

function withDateline(b: BaseText, r: Rand, o: DatelineOpts): Copy {
  const place = b.place ?? pick(r, CITIES);
  const paras = paragraphs(b.text);
  paras[0] = dateline(r, place, o) + paras[0]!;
  return { title: b.title, text: paras.join('\n\n') };
}

function edit(b: BaseText, f: (paras: string[]) => string[]): Copy {
  return { title: b.title, text: f(paragraphs(b.text)).join('\n\n') };
}

/** Snippet as a republisher's feed cuts it: 120-300 characters, sometimes with an ellipsis. */
function feedSnippet(text: string, r: Rand): string {
  const max = 120 + Math.floor(r() * 180);
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return flat.slice(0, cut > 60 ? cut : max) + pick(r, ['', '...', ' \u2026', ' [\u2026]']);
}

export type Variant = (b: BaseText, r: Rand) => Copy;

/** Each variant changes one thing; its details are drawn at random. */
export const VARIANTS: Record<string, Variant> = {
  dateline_city: (b, r) => withDateline(b, r, { date: false, agency: 'none' }),
  dateline_city_date: (b, r) => withDateline(b, r, { date: true, agency: 'none' }),
  dateline_agency: (b, r) => withDateline(b, r, { date: false, agency: 'paren' }),
  dateline_city_date_agency: (b, r) => withDateline(b, r, { date: true, agency: 'paren' }),
  dateline_agency_only: (b, r) => withDateline(b, r, { agency: 'only' }),
  dateline_title_case: (b, r) => withDateline(b, r, { place: 'title' }),
  dateline_with_state: (b, r) => withDateline(b, r, { place: 'with_state' }),
  dateline_press_release: (b, r) => withDateline(b, r, { agency: 'slash', date: true, sep: 'double_hyphen' }),
  dateline_hyphen: (b, r) => withDateline(b, r, { sep: 'hyphen' }),
  dateline_double_hyphen: (b, r) => withDateline(b, r, { sep: 'double_hyphen' }),
  dateline_en_dash: (b, r) => withDateline(b, r, { sep: 'en_dash' }),
  dateline_em_dash: (b, r) => withDateline(b, r, { sep: 'em_dash' }),
  dateline_colon: (b, r) => withDateline(b, r, { sep: 'colon' }),
  byline: (b, r) => edit(b, (p) => (r() < 0.8 ? [byline(r), ...p] : [...p, `\u2014 ${pick(r, PEOPLE)}`])),
  byline_and_dateline: (b, r) => {
    const c = withDateline(b, r, {});
    return { title: c.title, text: `${byline(r)}\n\n${c.text}` };
  },
  credit_line: (b, r) => edit(b, (p) => [credit(r), ...p]),
  footer: (b, r) => edit(b, (p) => [...p, ...Array.from({ length: 1 + Math.floor(r() * 2) }, () => footer(r))]),
  footer_glued: (b, r) => edit(b, (p) => [...p.slice(0, -1), `${p.at(-1)!} ${footer(r)}`]),
  ending_cut: (b, r) => edit(b, (p) => cutEnding(p, r)),
  words_swapped: (b, r) => edit(b, (p) => swapWords(p, r, 2 + Math.floor(r() * 4))),
  typographic: (b) => ({ title: typographic(b.title), text: typographic(paragraphs(b.text).join('\n\n')) }),
  html_entities: (b, r) => ({ title: entities(b.title, r, false), text: entities(paragraphs(b.text).join('\n\n'), r, false) }),
  html_entities_twice: (b, r) => ({ title: entities(b.title, r, true), text: entities(paragraphs(b.text).join('\n\n'), r, true) }),
  html_markup: (b, r) => ({ title: b.title, text: htmlMarkup(paragraphs(b.text), r) }),
  title_update_prefix: (b, r) => ({ title: titleDecoration(b.title, r, 'prefix'), text: paragraphs(b.text).join('\n\n') }),
  title_pipe_publisher: (b, r) => ({ title: titleDecoration(b.title, r, 'pipe'), text: paragraphs(b.text).join('\n\n') }),
  title_dash_publisher: (b, r) => ({ title: titleDecoration(b.title, r, 'dash'), text: paragraphs(b.text).join('\n\n') }),
  title_all_caps: (b, r) => ({ title: titleDecoration(b.title, r, 'caps'), text: paragraphs(b.text).join('\n\n') }),
  snippet_only_copy: (b, r) => {
    const text = paragraphs(b.text).join('\n\n');
    return { title: b.title, text, snippet: feedSnippet(text, r), textless: true };
  },
  snippet_cut: (b, r) => {
    const text = paragraphs(b.text).join('\n\n');
    return { title: b.title, text, snippet: feedSnippet(text, r) };
  },
};

/** Several edits at once, as a republisher makes them. */
export function mixedCopy(b: BaseText, r: Rand): Copy {
  let c: Copy = r() < 0.65 ? withDateline(b, r, {}) : { title: b.title, text: paragraphs(b.text).join('\n\n') };
  let paras = paragraphs(c.text);
  if (r() < 0.5) paras = swapWords(paras, r, 1 + Math.floor(r() * 3));
  if (r() < 0.3) paras = cutEnding(paras, r);
  if (r() < 0.25) paras.unshift(byline(r));
  else if (r() < 0.1) paras.unshift(credit(r));
  if (r() < 0.5) paras.push(footer(r));
  let title = c.title;
  const k = r();
  if (k < 0.2) title = titleDecoration(title, r, 'prefix');
  else if (k < 0.4) title = titleDecoration(title, r, 'pipe');
  else if (k < 0.55) title = titleDecoration(title, r, 'dash');
  else if (k < 0.65) title = titleDecoration(title, r, 'caps');
  let text = paras.join('\n\n');
  if (r() < 0.4) { text = typographic(text); title = typographic(title); }
  const m = r();
  if (m < 0.2) text = htmlMarkup(paragraphs(text), r);
  else if (m < 0.3) { text = entities(text, r, false); title = entities(title, r, false); }
  else if (m < 0.4) { text = entities(text, r, true); title = entities(title, r, r() < 0.5); }
  c = { title, text };
  if (r() < 0.3) c.snippet = feedSnippet(text.replace(/<[^>]+>/g, ' '), r);
  return c;
}
