/**
 * Tokenising shared by enrichment and clustering. One pass over the characters, no regexes in
 * the hot path: enrichment must reach tens of thousands of articles per second per core.
 */

/** The article shape the enrichment and clustering stages accept. */
export interface ArticleInput {
  id: string;
  url: string;
  title: string;
  summary?: string | null;
  /** full text, used transiently (never stored) */
  text?: string | null;
  publisher: string;
  /** ISO-8601 string or epoch milliseconds */
  published_at: string | number;
  /** the publisher's category from the catalogue or OPML folder: a prior, not a verdict */
  feed_category?: string | null;
  /** the entry's own category tags (`<category>`, Atom `term`), as the feed wrote them */
  categories?: readonly string[] | null;
  publisher_country?: string | null;
  /** the language the feed declares (`<language>`, `xml:lang`) */
  language?: string | null;
  /** the publisher's language from the catalogue, when the operator set one */
  publisher_language?: string | null;
  duplicate_of?: string | null;
}

/** Text used for enrichment: title, summary and at most `textChars` of the transient text. */
export function articleText(a: ArticleInput, textChars = 1200): string {
  let s = a.title;
  if (a.summary) s += '\n' + a.summary;
  if (a.text && textChars > 0) s += '\n' + (a.text.length > textChars ? a.text.slice(0, textChars) : a.text);
  return s;
}

/**
 * Tokens of `articleText(a, textChars)` into `out` (same tokens, without building the joined
 * string); returns how many of them come from the title.
 */
export function tokenizeArticle(a: ArticleInput, out: string[], textChars = 1200): number {
  out.length = 0;
  tokenize(a.title, out);
  const n = out.length;
  if (a.summary) tokenize(a.summary, out);
  if (a.text && textChars > 0) tokenize(a.text.length > textChars ? a.text.slice(0, textChars) : a.text, out);
  return n;
}

function wordCharRange(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ||
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) || (c >= 0x370 && c <= 0x1fff) ||
    (c >= 0x3040 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)
  );
}

/** One byte per UTF-16 code unit: 1 for word characters (a table load beats seven range tests). */
const WORD = new Uint8Array(0x10000);
for (let c = 0; c < 0x10000; c++) WORD[c] = wordCharRange(c) ? 1 : 0;

function isWordChar(c: number): boolean {
  return WORD[c] === 1;
}

/**
 * Lower-cased word tokens. Apostrophes inside words are dropped ("don't" -> "dont") and a
 * trailing possessive `'s` is cut, so "Obama's" and "Obama" meet.
 */
export function tokenize(text: string, out: string[] = []): string[] {
  // Lower-case once and slice tokens out of it: far fewer allocations than per-token case folding.
  const low = text.toLowerCase();
  const n = low.length;
  let i = 0;
  while (i < n) {
    let c = low.charCodeAt(i);
    if (!isWordChar(c)) { i++; continue; }
    const start = i;
    let word: string | null = null;
    let from = i;
    while (i < n) {
      c = low.charCodeAt(i);
      if (isWordChar(c)) { i++; continue; }
      if ((c === 39 || c === 0x2019) && i + 1 < n && isWordChar(low.charCodeAt(i + 1))) {
        const next = low.charCodeAt(i + 1);
        const after = i + 2 < n ? low.charCodeAt(i + 2) : 32;
        word = (word ?? '') + low.slice(from, i);
        if (next === 115 && !isWordChar(after)) { i += 2; from = i; break; }
        i++;
        from = i;
        continue;
      }
      break;
    }
    const w = word === null ? low.slice(start, i) : word + low.slice(from, i);
    if (w.length > 0) out.push(w);
  }
  return out;
}

/** Feature hashing for the topic model: FNV-1a of a word, and of an ordered pair of them. */
export { fnv1a, pairHash } from '../../runtime/hash.js';

/** English function words: no signal for topics, entities or story identity. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('a an the and or but if of at by for with about against between into through during before after ' +
    'above below to from up down in out on off over under again further then once here there when where ' +
    'why how all any both each few more most other some such no nor not only own same so than too very ' +
    'can will just should now is are was were be been being have has had having do does did doing i me my ' +
    'we our you your he him his she her it its they them their what which who whom this that these those ' +
    'am would could may might must shall says said say new one two also as us via vs amid after over ' +
    'get gets got make makes like up out amp quot its it s t').split(' '),
);

/**
 * A prefilter for a set of short words with no false negatives: one bit per (length, first
 * char, last char), low 7 bits of each char. Most words of a text miss it, so the set (and
 * hashing the fresh token string for it) is consulted for only about one word in three.
 */
export function wordFilter(words: Iterable<string>): Uint8Array {
  const f = new Uint8Array(17 << 14);
  for (const w of words) f[filterIndex(w)] = 1;
  return f;
}

/** False when `w` is certainly not among the words `filter` was built from. */
export function mayContain(filter: Uint8Array, w: string): boolean {
  return filter[filterIndex(w)] === 1;
}

function filterIndex(w: string): number {
  const n = w.length;
  // an empty word: NaN char codes fold to 0, for the set and the query alike
  return ((n < 16 ? n : 16) << 14) | ((w.charCodeAt(0) & 127) << 7) | (w.charCodeAt(n - 1) & 127);
}

const STOP_FILTER = wordFilter(STOPWORDS);
const STOP_SET = STOPWORDS;

/** `STOPWORDS.has(w)`, cheaper for the words that are not stopwords. */
export function isStopword(w: string): boolean {
  return STOP_FILTER[filterIndex(w)] === 1 && STOP_SET.has(w);
}

/** Parse `published_at` into epoch milliseconds (NaN stays NaN for the caller to handle). */
export function toMillis(v: string | number): number {
  return typeof v === 'number' ? v : Date.parse(v);
}
