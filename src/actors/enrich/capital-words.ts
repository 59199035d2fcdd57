import { readFileSync } from 'node:fs';
import type { EntityType } from './entities.js';
import { foldAbbreviations, type Gazetteer } from './gazetteer.js';
import { isStopword, STOPWORDS } from './text.js';

/**
 * Capitalised words for entity extraction: the casing lexicon, aliases and given names, and
 * what they say about one word (kept per word, as news repeats its names).
 */

/** Capitalised words that are never entities of their own: days, months, time zones. */
const NOT_NAMES = new Set(
  ('monday tuesday wednesday thursday friday saturday sunday january february march april may june july august ' +
    'september october november december jan feb mar apr jun jul aug sep sept oct nov dec gmt utc est edt pst pdt bst cet ' +
    'am pm et pt mr mrs ms dr st mt chapter update updated video photos photo watch breaking exclusive live report reports').split(' '),
);

export interface Lexicon {
  aliases: Map<string, [string, EntityType]>;
  /** English common nouns (config/common-nouns.json): plural ones, and the others */
  pluralNouns: Set<string>;
  nouns: Set<string>;
  /** common given names: a run starting with one is a person */
  given: Set<string>;
  /** words usually written in lower case: capitalised, they are still not names */
  common: Set<string>;
}

let lexicon: Lexicon | null = null;

export function loadLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const a = JSON.parse(readFileSync(new URL('../../../config/entity-aliases.json', import.meta.url), 'utf8')) as {
    aliases: Record<string, [string, EntityType]>;
  };
  const aliases = new Map<string, [string, EntityType]>();
  for (const [k, v] of Object.entries(a.aliases)) aliases.set(foldAbbreviations(k).toLowerCase(), v);
  let common = new Set<string>();
  try {
    const c = JSON.parse(readFileSync(new URL('../../../config/models/casing.json', import.meta.url), 'utf8')) as { lower: string[] };
    common = new Set(c.lower);
  } catch {
    // No trained casing lexicon: fall back to stopwords only (more false entities, still works).
  }
  for (const w of STOPWORDS) common.add(w);
  const g = JSON.parse(readFileSync(new URL('../../../config/given-names.json', import.meta.url), 'utf8')) as { names: string[] };
  const nouns = JSON.parse(readFileSync(new URL('../../../config/common-nouns.json', import.meta.url), 'utf8')) as { plural: string[]; singular: string[] };
  lexicon = { aliases, common, given: new Set(g.names), pluralNouns: new Set(nouns.plural), nouns: new Set(nouns.singular) };
  return lexicon;
}

/** A common word, or an inflection of one ("Spends", "Declared", "Mocking"): not a name word. */
function isCommon(common: Set<string>, lw: string): boolean {
  if (common.has(lw)) return true;
  const n = lw.length;
  if (n < 4) return false;
  if (lw.endsWith('s') && (common.has(lw.slice(0, -1)) || (lw.endsWith('es') && common.has(lw.slice(0, -2))))) return true;
  if (lw.endsWith('ed') && (common.has(lw.slice(0, -1)) || common.has(lw.slice(0, -2)))) return true;
  if (lw.endsWith('ing') && n > 5 && (common.has(lw.slice(0, -3)) || common.has(lw.slice(0, -3) + 'e'))) return true;
  return false;
}

export function isUpper(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde && c !== 0xd7);
}

/** `w === w.toUpperCase()`, without the upper-cased copy for ASCII words. */
function isAllUpper(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 97 && c <= 122) return false;
    if (c >= 128) return w === w.toUpperCase();
  }
  return true;
}

/**
 * What the lexicons say about a capitalised word, independent of its sentence. News repeats
 * its names and capitalised words, so this is kept per word (up to a bound): one map hit
 * instead of folding the word and five to nine set lookups each time.
 */
export interface CapitalFacts {
  lw: string;
  /** a stopword once lower-cased */
  stop: boolean;
  /** all capitals, longer than three letters (counts towards a shouted segment) */
  caps: boolean;
  /** two to five letters, all capitals: an acronym unless the segment shouts */
  short: boolean;
  notName: boolean;
  /** an alias, a gazetteer phrase or a place's first word: a name word even if common */
  known: boolean;
  /** a common word or an inflection of one */
  common: boolean;
  /** an English common noun: 2 plural ("Firefighters"), 1 other ("River"), 0 not one */
  noun: 0 | 1 | 2;
}

const CONTRACTION = /^[a-z]['\u2019](?:m|re|ve|ll|d|s|t)$/;

const facts = new Map<string, CapitalFacts>();
let factsFor: Gazetteer | null = null;
const MAX_FACTS = 50_000;

export function capitalFacts(w: string, lex: Lexicon, g: Gazetteer): CapitalFacts {
  if (factsFor !== g) { facts.clear(); factsFor = g; }
  let f = facts.get(w);
  if (f !== undefined) return f;
  const lw = w.toLowerCase();
  const allUpper = isAllUpper(w);
  f = {
    lw,
    stop: isStopword(lw),
    // second letter first: upper-casing every word to compare would allocate per word
    caps: w.length > 3 && isUpper(w.charCodeAt(1)) && allUpper,
    short: w.length >= 2 && w.length <= 5 && allUpper,
    // a contraction ("I'm", "I've") is no name
    notName: NOT_NAMES.has(lw) || CONTRACTION.test(lw),
    known: lex.aliases.has(lw) || g.phrases.has(w) || g.firstWords.has(w),
    common: isCommon(lex.common, lw),
    noun: lex.pluralNouns.has(lw) ? 2 : lex.nouns.has(lw) ? 1 : 0,
  };
  if (facts.size >= MAX_FACTS) facts.clear();
  facts.set(w, f);
  return f;
}

/**
 * Is a run of one capitalised word a common noun capitalised by its position rather than a name:
 * a plural noun opening a sentence or standing alone in a Title Case headline ("Firefighters in
 * Turkey...", "...Over Rising Rents"). Known names (aliases, places, given names) stay names.
 */
export function isLoneCommonNoun(f: CapitalFacts, start: boolean, titleCase: boolean, lex: Lexicon): boolean {
  if (f.known || lex.given.has(f.lw)) return false;
  // plural nouns only: singular ones ("Apple", "Bush") are names too often (UCI lost 0.005 F1)
  return (start || titleCase) && f.noun === 2;
}

/**
 * A plural the lexicons do not list but whose shape is a common noun's: the plural of a listed
 * singular ("Boils", "Crashes") or a plural of an occupation ("Seismologists", "Paramedics",
 * "Physicians", "Rescuers": -ist, -ician, -medic, or -er/-or of a common verb). Opening a sentence
 * or in a Title Case headline such a word is a name only on other evidence. A plural of a given
 * name ("Peters") is a surname.
 */
export function looksLikeCommonPlural(lw: string, lex: Lexicon): boolean {
  const n = lw.length;
  if (n < 5 || lw.charCodeAt(n - 1) !== 115 /* s */ || lw.endsWith('ss') || lw.endsWith('us') || lw.endsWith('is')) return false;
  const sg = lw.endsWith('ies') ? lw.slice(0, -3) + 'y' : lw.slice(0, -1);
  if (lex.given.has(sg)) return false;
  if (lex.nouns.has(sg) || lex.common.has(sg)) return true;
  if (lw.endsWith('es') && (lex.nouns.has(lw.slice(0, -2)) || lex.common.has(lw.slice(0, -2)))) return true;
  if ((sg.endsWith('ist') && sg.length >= 6) || sg.endsWith('ician') || sg.endsWith('medic')) return true;
  if (sg.endsWith('er') || sg.endsWith('or')) {
    const stem = sg.slice(0, -2);
    // "rescuer" -> "rescue", "protester" -> "protest", "investigator" -> "investigate"
    return stem.length >= 3 && (lex.common.has(stem) || lex.common.has(stem + 'e') || lex.common.has(sg.slice(0, -1)));
  }
  return false;
}

/** Can this word (null: not capitalised) be part of a name? */
export function isCandidate(f: CapitalFacts | null, start: boolean, titleCase: boolean, shouting: boolean): boolean {
  if (f === null) return false;
  if (f.short && !shouting) return !f.notName;
  if (f.notName) return false;
  if (f.known) return true;
  if (f.stop) return false;
  if ((titleCase || shouting || start) && f.common) return false;
  return true;
}

