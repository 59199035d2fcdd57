import { capitalFacts, isCandidate, isLoneCommonNoun, isUpper, loadLexicon, looksLikeCommonPlural, type CapitalFacts, type Lexicon } from './capital-words.js';
import { foldAbbreviations, loadGazetteer, type Gazetteer, type Place } from './gazetteer.js';
import { isStopword } from './text.js';

/**
 * Named entities (people, organisations, places) from title + snippet (+ transient text), by
 * capitalisation with a casing lexicon: a capitalised word counts only if it is not a word
 * usually written in lower case, which keeps Title-Case headlines ("Lindsay Lohan Checks Into
 * Betty Ford") from becoming one long entity. A word capitalised only by its position (opening a
 * sentence, after a dateline or a headline colon, in a Title Case headline) that looks like a
 * common word ("Seismologists said...", "...Law Boils Over") needs evidence that it is a name: the
 * gazetteer, a given name, or the same article writing it capitalised mid-sentence. Names are
 * normalised: dotted abbreviations folded, possessives cut, aliases ("U.S.", "Fed") mapped to one
 * canonical name.
 */

export type EntityType = 'person' | 'org' | 'place' | 'other';

export interface Entity {
  name: string;
  type: EntityType;
}

export interface EntityResult {
  entities: Entity[];
  /** ISO 3166-1 codes (or area names such as "Europe"), most mentioned first */
  places: string[];
}

const ORG_SUFFIX = new Set(
  ('inc corp corporation co ltd llc plc group bank party university council committee association agency ' +
    'ministry department commission court fund institute foundation airlines airways motors systems ' +
    'technologies holdings capital partners reserve congress parliament senate police army federation league ' +
    'club fc union news times post journal company industries labs studios records pictures network').split(' '),
);
/** Legal-form suffixes dropped from organisation names ("Herbalife Ltd." -> "Herbalife"). */
const LEGAL_FORMS = new Set(['inc', 'corp', 'co', 'ltd', 'llc', 'plc', 'ag', 'sa', 'nv', 'gmbh', 'limited', 'incorporated']);
/** Lower-case words allowed inside a name ("Bank of America", "Leonardo da Vinci"). */
const CONNECTORS = new Set(['of', 'de', 'da', 'van', 'von', 'der', 'del', 'bin', 'al', 'la', 'le', 'and', '&']);

/** Articles of several languages: alone ("La", "Der") they are no name, though they open some ("La Liga"). */
const ARTICLES = new Set(['the', 'a', 'an', 'la', 'le', 'les', 'el', 'los', 'las', 'il', 'lo', 'gli', 'der', 'die', 'das', 'de', 'het', 'un', 'une', 'al']);

/** Titles before a name: dropped, and they make the rest a person. */
const HONORIFICS = new Set(
  ('president vice prime minister mr mrs ms dr sen senator rep representative gov governor pope king queen prince ' +
    'princess judge chancellor secretary general sir lady lord ceo chairman coach actor actress singer star ' +
    'director manager captain chief executive spokesperson spokesman spokeswoman mayor pm').split(' '),
);

/**
 * Lower-case role words right before a capitalised run make it a person ("fire chief Elena
 * Thorvald said", "striker Jonas Abernathy"): most names in news are introduced this way, and a
 * list of given names cannot know them all.
 */
const ROLE_WORDS = new Set(
  [...HONORIFICS, ...('officer spokesperson researcher astronomer scientist economist epidemiologist investigator ' +
    'leader chair chairwoman founder analyst professor commissioner lawyer attorney striker midfielder defender ' +
    'goalkeeper player rapper author writer host presenter governor premier mp candidate activist ' +
    'deputy envoy ambassador diplomat general colonel sergeant detective inspector head boss owner widow son daughter ' +
    'wife husband mother father brother sister teammate winger forward coach').split(' ')],
);

function isWordRange(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7);
}
/** `isWordRange` as a table up to U+024F: one load per character in `scan` */
const WORD_CHARS = Uint8Array.from({ length: 0x250 }, (_, c) => (isWordRange(c) ? 1 : 0));
function isWord(c: number): boolean {
  return c < 0x250 && WORD_CHARS[c] === 1;
}

/** Words of one segment with flags: sentence start, and a break (punctuation) before it. */
function scan(seg: string, words: string[], starts: boolean[], breaks: boolean[]): void {
  const n = seg.length;
  let i = 0;
  let sentenceStart = true;
  let brk = true;
  while (i < n) {
    const c = seg.charCodeAt(i);
    if (!isWord(c)) {
      if (c === 46 || c === 33 || c === 63 || c === 58 || c === 10 || c === 124) { sentenceStart = true; brk = true; }
      else if (c !== 32 && c !== 45 && c !== 38 && c !== 160) brk = true;
      if (c === 38) { words.push('&'); starts.push(false); breaks.push(brk); brk = false; }
      i++;
      continue;
    }
    const s = i;
    while (i < n && isWord(seg.charCodeAt(i))) i++;
    let w = seg.slice(s, i);
    // possessive or elided apostrophe: "Ackman's" -> "Ackman", "O'Neil" stays one word
    if (i < n && (seg.charCodeAt(i) === 39 || seg.charCodeAt(i) === 0x2019)) {
      const after = i + 1 < n ? seg.charCodeAt(i + 1) : 32;
      const after2 = i + 2 < n ? seg.charCodeAt(i + 2) : 32;
      // a possessive ends a name: "Fed's Charles Plosser" is two entities
      if ((after | 32) === 115 && !isWord(after2)) { i += 2; words.push(w); starts.push(sentenceStart); breaks.push(brk); sentenceStart = false; brk = true; continue; }
      else if (isWord(after) && w.length === 1) {
        const s2 = i + 1; i = s2;
        while (i < n && isWord(seg.charCodeAt(i))) i++;
        w = w + "'" + seg.slice(s2, i);
      } else i++;
    }
    words.push(w); starts.push(sentenceStart); breaks.push(brk);
    sentenceStart = false; brk = false;
  }
}

function typeOf(parts: string[], given: Set<string>, titled: boolean): EntityType {
  const last = parts[parts.length - 1]!.toLowerCase();
  if (ORG_SUFFIX.has(last)) return 'org';
  const plain = parts.every((p) => p.length > 1 && p !== p.toUpperCase());
  if (titled && parts.length <= 3 && plain) return 'person';
  if (parts.length === 1) {
    const p = parts[0]!;
    return p.length >= 2 && p.length <= 5 && p === p.toUpperCase() ? 'org' : 'other';
  }
  // "Release Date" and "White House" are capitalised pairs too: only a known given name makes a person
  if (parts.length <= 3 && plain && given.has(parts[0]!.toLowerCase())) return 'person';
  return 'other';
}

/**
 * Extract entities and places. `segments` are title, summary, text (each judged for Title Case
 * on its own). Allocation stays proportional to the number of capitalised words.
 */
export function extractEntities(segments: readonly string[], g: Gazetteer = loadGazetteer()): EntityResult {
  const lex = loadLexicon();
  const acc: Found = { found: new Map(), placeCount: new Map(), lex };
  const ev: Evidence = { segments, titled: null, g, lex };
  // scratch arrays are module-level: extraction is synchronous and never re-entered
  const words = W, lows = L, starts = S, breaks = B;

  for (const raw of segments) {
    if (!raw) continue;
    const seg = foldAbbreviations(raw);
    words.length = 0; starts.length = 0; breaks.length = 0; lows.length = 0;
    scan(seg, words, starts, breaks);
    let capital = 0, lowerable = 0, allCaps = 0;
    const facts = F;
    facts.length = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      // most words start in lower case: skip folding them (only capitalised words are looked up)
      if (!isUpper(w.charCodeAt(0))) {
        lows.push(w);
        facts.push(null);
        if (!isStopword(w)) lowerable++;
        continue;
      }
      const f = capitalFacts(w, lex, g);
      lows.push(f.lw);
      facts.push(f);
      if (f.stop) continue;
      lowerable++;
      capital++;
      if (f.caps) allCaps++;
    }
    const { titleCase, shouting } = casingOf(lowerable, capital, allCaps);

    const n = words.length;
    // judged once per word: the run loops below look at a word up to three times
    const cand = C;
    cand.length = 0;
    for (let k = 0; k < n; k++) {
      let c = isCandidate(facts[k]!, starts[k]!, titleCase, shouting);
      // a common word opening a sentence ("Target said...", "Price said...") is a name if the
      // article also writes it capitalised mid-sentence ("shoppers at Target")
      const f = facts[k];
      if (!c && f && starts[k] && !titleCase && !shouting && f.common && !f.stop && !f.notName && !f.short && f.noun !== 2) c = capitalisedMidSentence(words[k]!, ev);
      cand.push(c);
    }
    let i = 0;
    while (i < n) {
      if (!cand[i]) { i++; continue; }
      let j = i;
      while (j + 1 < n && !breaks[j + 1]) {
        if (cand[j + 1]) { j++; continue; }
        if (j + 2 < n && CONNECTORS.has(words[j + 1]!) && !breaks[j + 2] && cand[j + 2]) { j += 2; continue; }
        break;
      }
      if (i === j && isLoneCommonNoun(facts[i]!, starts[i]!, titleCase, lex)) { i++; continue; }
      if (unprovenLoneWord(words, lows, facts, starts, i, j, titleCase, ev)) { i = j + 1; continue; }
      emitRun(words, i, j, g, acc, i > 0 && !breaks[i] && ROLE_WORDS.has(lows[i - 1]!));
      i = j + 1;
    }
  }

  return finish(acc);
}

/** What the whole article says about a word: read only for the few doubtful words. */
interface Evidence {
  segments: readonly string[];
  /** per segment: Title Case or shouted (its capitals prove nothing); computed on first need */
  titled: boolean[] | null;
  g: Gazetteer;
  lex: Lexicon;
}

/**
 * A run whose only name word is capitalised by its position (opening a sentence, after a
 * dateline dash or a headline colon, or in a Title Case headline) and looks like a common word:
 * a plural of a common noun or an occupation ("Seismologists said...", "...Law Boils Over"), or
 * an alias that is also a common noun inside a Title Case headline ("a New Labour Law"). It is
 * a name only if the article also writes it capitalised mid-sentence. Gazetteer places, given
 * names and acronyms need no evidence.
 */
function unprovenLoneWord(words: string[], lows: string[], facts: (CapitalFacts | null)[], starts: boolean[], i: number, j: number, titleCase: boolean, ev: Evidence): boolean {
  let k = i;
  while (k < j && (isStopword(lows[k]!) || CONNECTORS.has(words[k]!))) k++;
  if (k !== j) return false;
  const f = facts[k];
  if (!f || f.short || f.notName) return false;
  if (!(titleCase || starts[k] || starts[i])) return false;
  const { g, lex } = ev;
  if (g.phrases.has(words[k]!) || lex.given.has(f.lw)) return false;
  // a whole run that is a place or an alias ("New York", "The Fed")
  if (i < j && (g.phrases.has(words.slice(i, j + 1).join(' ')) || lex.aliases.has(lows.slice(i, j + 1).join(' ')))) return false;
  let doubtful: boolean;
  if (lex.aliases.has(f.lw)) doubtful = titleCase && (lex.nouns.has(f.lw) || f.common);
  else doubtful = looksLikeCommonPlural(f.lw, lex);
  return doubtful && !capitalisedMidSentence(words[k]!, ev);
}

/**
 * A segment's casing from its counts of words that could be lower case, capitalised words and
 * words in capitals: Title Case (most words capitalised) or shouted (most in capitals), where
 * capitals say nothing about names.
 */
function casingOf(lowerable: number, capital: number, allCaps: number): { titleCase: boolean; shouting: boolean } {
  return { titleCase: lowerable >= 3 && capital >= lowerable * 0.7, shouting: lowerable >= 3 && allCaps >= lowerable * 0.6 };
}

/** Segment flags for `capitalisedMidSentence`: Title Case or shouted, as `extractEntities` judges them (`casingOf`). */
function titledSegments(ev: Evidence): boolean[] {
  if (ev.titled) return ev.titled;
  const out: boolean[] = [];
  const words: string[] = [], starts: boolean[] = [], breaks: boolean[] = [];
  for (const raw of ev.segments) {
    words.length = 0; starts.length = 0; breaks.length = 0;
    if (raw) scan(foldAbbreviations(raw), words, starts, breaks);
    let capital = 0, lowerable = 0, allCaps = 0;
    for (const w of words) {
      if (!isUpper(w.charCodeAt(0))) { if (!isStopword(w)) lowerable++; continue; }
      const f = capitalFacts(w, ev.lex, ev.g);
      if (f.stop) continue;
      lowerable++; capital++;
      if (f.caps) allCaps++;
    }
    const c = casingOf(lowerable, capital, allCaps);
    out.push(c.titleCase || c.shouting);
  }
  ev.titled = out;
  return out;
}

function isLower(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 0xdf && c <= 0xff && c !== 0xf7);
}

/**
 * Whether the article writes `w` capitalised after a lower-case word ("..., said Sanders") in a
 * segment that is neither Title Case nor shouted: a name, whatever its shape.
 */
function capitalisedMidSentence(w: string, ev: Evidence): boolean {
  const segs = ev.segments;
  let titled: boolean[] | null = null;
  for (let s = 0; s < segs.length; s++) {
    const seg = segs[s];
    if (!seg) continue;
    for (let at = seg.indexOf(w); at >= 0; at = seg.indexOf(w, at + 1)) {
      const end = at + w.length;
      if (end < seg.length && isWord(seg.charCodeAt(end))) continue;
      // one or more spaces, then a word that starts in lower case
      let p = at - 1;
      if (p < 0 || seg.charCodeAt(p) !== 32) continue;
      while (p >= 0 && seg.charCodeAt(p) === 32) p--;
      if (p < 0 || !isWord(seg.charCodeAt(p))) continue;
      while (p > 0 && isWord(seg.charCodeAt(p - 1))) p--;
      if (!isLower(seg.charCodeAt(p))) continue;
      titled ??= titledSegments(ev);
      if (!titled[s]) return true;
    }
  }
  return false;
}

/** Merge lone surnames into full names, order by mentions. Plain loops: this runs per article. */
function finish(acc: Found): EntityResult {
  const { found, placeCount } = acc;
  if (found.size === 0) return { entities: [], places: [] };
  // A lone surname that closes a full name in the same article is that person ("Snowden").
  for (const [k, e] of found) {
    if (e.type !== 'other' || k.includes(' ')) continue;
    const suffix = ' ' + k;
    for (const p of found.values()) {
      if (p.type === 'person' && p.name.toLowerCase().endsWith(suffix)) { p.n += e.n; found.delete(k); break; }
    }
  }
  const list: (Entity & { n: number })[] = [];
  for (const e of found.values()) list.push(e);
  if (list.length > 1) list.sort(byCount);
  const entities: Entity[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) entities[i] = { name: list[i]!.name, type: list[i]!.type };
  const places: string[] = [];
  if (placeCount.size > 0) {
    const pc: [string, number][] = [];
    for (const e of placeCount) pc.push(e);
    if (pc.length > 1) pc.sort(byPlaceCount);
    for (const [code] of pc) places.push(code);
  }
  return { entities, places };
}

function byCount(a: { n: number }, b: { n: number }): number {
  return b.n - a.n;
}
function byPlaceCount(a: [string, number], b: [string, number]): number {
  return b[1] - a[1];
}

interface Found {
  found: Map<string, Entity & { n: number }>;
  placeCount: Map<string, number>;
  lex: Lexicon;
}

const W: string[] = [];
const L: string[] = [];
const S: boolean[] = [];
const B: boolean[] = [];
const C: boolean[] = [];
const F: (CapitalFacts | null)[] = [];

function addPlace(acc: Found, p: Place, surface: string): void {
  acc.placeCount.set(p.code, (acc.placeCount.get(p.code) ?? 0) + 1);
  // a city is a place of its own ("Istanbul" and "Ankara" are two stories), besides its country
  const name = p.kind === 'city' ? surface : p.name;
  const key = name.toLowerCase();
  const e = acc.found.get(key);
  if (e) e.n++;
  else acc.found.set(key, { name, type: p.kind === 'area' && p.name === 'European Union' ? 'org' : 'place', n: 1 });
}

function addName(acc: Found, parts: string[], afterRole = false): void {
  const lex = acc.lex;
  let titled = afterRole;
  while (parts.length > 1 && HONORIFICS.has(parts[0]!.toLowerCase())) { parts = parts.slice(1); titled = true; }
  let legal = false;
  while (parts.length > 1 && LEGAL_FORMS.has(parts[parts.length - 1]!.toLowerCase())) { parts = parts.slice(0, -1); legal = true; }
  const surface = parts.join(' ');
  const key = surface.toLowerCase();
  const alias = lex.aliases.get(key);
  const name = alias ? alias[0] : surface;
  const type = alias ? alias[1] : legal ? 'org' : typeOf(parts, lex.given, titled);
  const k = alias ? name.toLowerCase() : key;
  const e = acc.found.get(k);
  if (e) e.n++;
  else acc.found.set(k, { name, type, n: 1 });
}

/** A run of name words: peel gazetteer places (longest match first), the rest are names. */
function emitRun(words: string[], from: number, to: number, g: Gazetteer, acc: Found, afterRole = false): void {
  const lex = acc.lex;
  let rest: string[] = [];
  let k = from;
  while (k <= to) {
    let matched = 0;
    // multi-word places only start with a known first word ("New", "South", "Hong")
    const top = g.firstWords.has(words[k]!) ? Math.min(g.maxTokens, to - k + 1) : 1;
    for (let len = top; len >= 1; len--) {
      const key = len === 1 ? words[k]! : words.slice(k, k + len).join(' ');
      const p = g.phrases.get(key);
      // A place inside a longer alias ("Bank of England") stays part of the name.
      // A place opening a longer name is part of it ("Atlanta Comets", "British Airways",
      // "New York Times"), unless a title follows ("London Mayor Sadiq Khan").
      if (p && (k === from || (k === from + 1 && isStopword(words[from]!.toLowerCase()))) && k + len <= to && !CONNECTORS.has(words[k + len]!) && !HONORIFICS.has(words[k + len]!.toLowerCase()) && !g.phrases.has(words[k + len]!)) {
        // the place's own first word stays ("New York Harriers", though "new" is a stopword)
        pushName(words.slice(k === from ? from : from + 1, to + 1), acc, false, true);
        return;
      }
      if (p && !(len < to - from + 1 && lex.aliases.has(words.slice(from, to + 1).join(' ').toLowerCase()))) {
        if (rest.length > 0) { pushName(rest, acc, afterRole && k - rest.length === from); rest = []; }
        addPlace(acc, p, key);
        matched = len;
        break;
      }
    }
    if (matched > 0) { k += matched; continue; }
    rest.push(words[k]!);
    k++;
  }
  if (rest.length > 0) pushName(rest, acc, afterRole && to + 1 - rest.length === from);
}

function pushName(parts: string[], acc: Found, afterRole = false, placeFirst = false): void {
  while (parts.length > 0 && CONNECTORS.has(parts[parts.length - 1]!)) parts.pop();
  // "The" opens place names ("The Hague"), so it reaches here when no place followed it
  // ("The Chicago Falcons" -> "The" | Chicago | "Falcons"): an article alone is no name
  while (!placeFirst && parts.length > 0 && (CONNECTORS.has(parts[0]!) || isStopword(parts[0]!.toLowerCase()))) parts.shift();
  if (parts.length === 0) return;
  if (parts.length === 1 && (parts[0]!.length < 2 || ARTICLES.has(parts[0]!.toLowerCase()))) return;
  addName(acc, parts, afterRole);
}
