import { removeTitleNoise } from '../dedup/normalize.js';
import type { Entity } from '../enrich/entities.js';
import { loadGazetteer } from '../enrich/gazetteer.js';
import { tokenize, toMillis, type ArticleInput } from '../enrich/text.js';
import { kindOf } from './event-kinds.js';
import { isContentToken, stem, toVec, type SparseVec, type Vocabulary } from './vectors.js';

/** What clustering needs of an article, computed once when it arrives. */
export interface ClusterFeatures {
  /** tf-idf of headline words (x2), snippet and transient text words, entity and place keys */
  vec: SparseVec;
  /** distinct stemmed headline term ids, sorted */
  titleIds: Int32Array;
  /** entity key ids (people also by surname), sorted */
  entityIds: Int32Array;
  /**
   * entity keys that name something: people, organisations and names of two words or more, not a
   * lone capitalised word ("Ransomware" opening a sentence), sorted
   */
  namedIds: Int32Array;
  /** named keys few articles name (a shared one identifies a story; "Obama" does not), sorted */
  rareEntityIds: Int32Array;
  /** person keys: full names and each of their words, sorted */
  personIds: Int32Array;
  /**
   * entity keys that are one word of a person's name: a person named by one word ("Minister
   * Pemwick") and the surname key of a full name, sorted. Sharing only these is a namesake's
   * chance as much as the same person.
   */
  nameWordIds: Int32Array;
  /**
   * entity keys of one word the headline writes as a possessive ("Lawmakers pass Undton's housing
   * bill"): whose it is, a name even when no role word says so (places are not entities here), sorted
   */
  possessiveIds: Int32Array;
  /** place key ids (countries and areas), sorted */
  placeIds: Int32Array;
  /** city key ids, sorted: two cities of one country are two places */
  cityIds: Int32Array;
  /** the heaviest rare terms: what the inverted index is probed with and posted under */
  salient: Int32Array;
  /**
   * `vec` without the terms that are mostly parts of names: the words that say what happened
   * ("quake", "rubble", "march", "prize"), not where or who. Not re-normalised; `whatNorm` is its norm.
   */
  what: SparseVec;
  whatNorm: number;
  /** the heaviest "what" terms (at most 12): counted per story to find the words every article of it uses */
  themeIds: Int32Array;
  /** kinds of happening the headline and body name (event-kinds.ts), a bit mask */
  kinds: number;
  /**
   * the names the headline writes (who and where: people, organisations, other names, cities,
   * countries), each as `key, n, word ids...` one after another (`headNames`): what tells a
   * story from another written in the same words ("Tickets for Ibarorsen tour resell ..." and
   * "Tickets for Whitetti tour resell ..."). Empty when the headline names nothing.
   */
  headNames: Int32Array;
  /** the headline's words that are not mostly names (`titleIds` less the name terms): its frame, sorted */
  frameIds: Int32Array;
  time: number;
}

/** Enrichment fields clustering uses (all optional: the clusterer works on bare headlines). */
export interface ClusterHints {
  entities?: readonly Entity[];
  places?: readonly string[];
  category?: string;
  region?: string;
}

const TITLE_WEIGHT = 2;
const ENTITY_WEIGHT = 2.5;
const PLACE_WEIGHT = 1.5;
const TEXT_CHARS = 1500;
/** below this much snippet and text an article is a bare headline (the clusterer's default snippetChars) */
const BARE_CHARS = 40;
/** entity keys in more than this share of documents do not identify a story */
const RARE_ENTITY_SHARE = 0.005;
/** "what" terms per article counted towards its story's theme */
const THEME_TERMS = 12;
/** terms kept per article vector: enough for a long text to keep its specific details */
const VEC_TERMS = 128;

/** Shared empty id list: most articles name no place or person, and each typed array costs ~100 bytes. */
const NO_IDS = new Int32Array(0);

function sortedUnique(xs: number[]): Int32Array {
  if (xs.length === 0) return NO_IDS;
  const a = Int32Array.from(new Set(xs));
  a.sort();
  return a;
}

/**
 * Features of one article. Term statistics come from `vocab` before this article is counted,
 * then the article is counted (online IDF).
 */
export function articleFeatures(vocab: Vocabulary, a: ArticleInput, hints: ClusterHints, fallbackTime: number): ClusterFeatures {
  const tf = new Map<number, number>();
  const titleIdList: number[] = [];
  // words written as parts of names here (people, organisations, places): the vocabulary learns
  // which terms are mostly names, so a story's "what happened" words can be told from its names
  let nameWords: Set<string> | null = null;
  for (const e of hints.entities ?? []) for (const t of tokenize(e.name)) (nameWords ??= new Set()).add(t);
  const nameIdList: number[] = [];
  const bump = (id: number, w: number): void => { tf.set(id, (tf.get(id) ?? 0) + w); };
  const word = (t: string): number => {
    const id = vocab.id(stem(t));
    if (nameWords?.has(t)) nameIdList.push(id);
    return id;
  };

  // syndication noise (`UPDATE 2-`, `| The Berlin Ledger`) is no part of what a story is about
  let kinds = 0;
  const titleWords = new Set<string>();
  for (const t of tokenize(removeTitleNoise(a.title))) {
    titleWords.add(t);
    if (!isContentToken(t)) continue;
    kinds |= kindOf(t);
    const id = word(t);
    titleIdList.push(id);
    bump(id, TITLE_WEIGHT);
  }
  let body = a.summary ?? '';
  if (a.text) body += '\n' + (a.text.length > TEXT_CHARS ? a.text.slice(0, TEXT_CHARS) : a.text);
  if (body.length > 0) {
    for (const t of tokenize(body)) if (isContentToken(t)) { kinds |= kindOf(t); bump(word(t), 1); }
  }
  const entityIdList: number[] = [];
  const namedIdList: number[] = [];
  const personIdList: number[] = [];
  const nameWordIdList: number[] = [];
  const placeIdList: number[] = [];
  const cityIdList: number[] = [];
  /** place keys of countries the text names (not those its cities imply) */
  const namedPlaceIdList: number[] = [];
  const g = loadGazetteer();
  const possessives = possessiveWords(a.title);
  const possessiveIdList: number[] = [];
  let headNameList: number[] | null = null;
  for (const e of hints.entities ?? []) {
    if (titleWords.size > 0) {
      const group = headName(vocab, e, titleWords, g);
      if (group) (headNameList ??= []).push(...group);
    }
    if (e.type === 'place') {
      const ph = g.phrases.get(e.name);
      if (ph?.kind === 'city') cityIdList.push(vocab.id('c:' + e.name.toLowerCase()));
      else if (ph) namedPlaceIdList.push(vocab.id('p:' + ph.code));
      continue;
    }
    const key = e.name.toLowerCase();
    const id = vocab.id('e:' + key);
    entityIdList.push(id);
    if (e.type !== 'other' || key.includes(' ')) namedIdList.push(id);
    if (possessives !== null && !key.includes(' ') && possessives.has(key)) {
      possessiveIdList.push(id);
      if (e.type !== 'person') nameWordIdList.push(id);
    }
    if (e.type === 'person') {
      personIdList.push(id);
      const sp = key.lastIndexOf(' ');
      if (sp < 0) nameWordIdList.push(id);
      if (sp > 0) {
        const surname = vocab.id('e:' + key.slice(sp + 1));
        entityIdList.push(surname);
        nameWordIdList.push(surname);
      }
      // every name word is a person key: a conflict means no shared name word at all, so a
      // badly cut name ("Lindsay Lohan Doc") still meets "Lindsay Lohan"
      if (sp > 0) for (const part of key.split(' ')) personIdList.push(vocab.id('e:' + part));
    }
  }
  for (const p of hints.places ?? []) placeIdList.push(vocab.id('p:' + p));
  // A bare headline's words are few, so a country it only implies through a city ("Houston" ->
  // US) would be a large part of its vector: two headlines of two US cities met on it alone (a
  // storm in Houston joined a ferry capsizing in Atlanta). Its vector keeps the countries it
  // names (or names by alias or demonym); the conflicts still read every place.
  const bare = (a.summary?.length ?? 0) + (a.text?.length ?? 0) < BARE_CHARS;
  const vecPlaceIds = bare ? placeIdList.filter((id) => namedPlaceIdList.includes(id)) : placeIdList;

  // Weighting: tf (dampened) x idf, entity and place keys get fixed boosts.
  const raw = new Map<number, number>();
  for (const [id, f] of tf) raw.set(id, (1 + Math.log(f)) * vocab.idf(id));
  for (const id of entityIdList) raw.set(id, (raw.get(id) ?? 0) + ENTITY_WEIGHT * vocab.idf(id));
  for (const id of vecPlaceIds) raw.set(id, (raw.get(id) ?? 0) + PLACE_WEIGHT * vocab.idf(id));
  const vec = toVec(raw, VEC_TERMS);

  // Salient: heaviest terms that are not everywhere (after 500 docs, skip terms in > 4 %).
  const ranked = [...raw.entries()].sort((x, y) => y[1] - x[1]);
  const salient: number[] = [];
  for (const [id] of ranked) {
    if (vocab.docs > 500 && vocab.share(id) > 0.04) continue;
    salient.push(id);
    if (salient.length >= 20) break;
  }
  const entityIds = sortedUnique(entityIdList);
  const namedIds = sortedUnique(namedIdList);
  const rareEntityIds = vocab.docs > 500 ? namedIds.filter((id) => vocab.share(id) < RARE_ENTITY_SHARE) : namedIds;
  vocab.observe(vec.ids, sortedUnique([...nameIdList, ...entityIdList, ...placeIdList]));
  const { what, whatNorm } = whatPart(vec, vocab.nameTerms);
  const themeIds = heaviest(what, THEME_TERMS);
  const t = toMillis(a.published_at);
  const titleIds = sortedUnique(titleIdList);
  return {
    vec,
    titleIds,
    entityIds,
    namedIds,
    rareEntityIds,
    personIds: sortedUnique(personIdList),
    nameWordIds: sortedUnique(nameWordIdList),
    possessiveIds: vocab.docs > 500 ? sortedUnique(possessiveIdList).filter((id) => vocab.share(id) < RARE_ENTITY_SHARE) : sortedUnique(possessiveIdList),
    placeIds: sortedUnique(placeIdList),
    cityIds: sortedUnique(cityIdList),
    salient: Int32Array.from(salient),
    what,
    whatNorm,
    themeIds,
    kinds,
    headNames: headNameList ? namesOnly(headNameList, vocab) : NO_IDS,
    frameIds: headNameList ? titleIds.filter((id) => vocab.nameTerms[id] !== 1) : NO_IDS,
    time: Number.isFinite(t) ? t : fallbackTime,
  };
}

/** `headNames` kinds: who (people, organisations, other names) and where (cities, countries, areas) */
export const WHO = 0;
export const WHERE = 1;

/**
 * `e` as a headline name (`kind, key, n, word ids...`) when every word of it (of a person: the
 * surname) is in the headline, else null. The key is the one the article vector holds (`e:` for
 * names, `p:` for countries; none, -1, for cities, which are told by their words); the words are
 * what a text that mentions the name without the same key holds: a person's surname ("Swift"
 * mentions Taylor Swift), every content word of any other name ("Hallon Networks" is not
 * mentioned by "Halmora Networks").
 */
function headName(vocab: Vocabulary, e: Entity, titleWords: Set<string>, g: ReturnType<typeof loadGazetteer>): number[] | null {
  const words = tokenize(e.name);
  if (words.length === 0) return null;
  // a person the headline names by surname ("Tickets for Quarcombe tour ...") whom the snippet
  // names in full: enrichment merged the lone surname into the full name
  if (e.type === 'person') {
    if (!titleWords.has(words[words.length - 1]!)) return null;
  } else {
    for (const w of words) if (!titleWords.has(w)) return null;
  }
  let key = -1;
  if (e.type === 'place') {
    const place = g.phrases.get(e.name);
    if (place && place.kind !== 'city') key = vocab.id('p:' + place.code);
  } else {
    key = vocab.id('e:' + e.name.toLowerCase());
  }
  const ids: number[] = [];
  for (const w of e.type === 'person' ? words.slice(-1) : words) if (isContentToken(w)) ids.push(vocab.id(stem(w)));
  if (key < 0 && ids.length === 0) return null;
  return [e.type === 'place' ? WHERE : WHO, key, ids.length, ...ids];
}

/**
 * `list` (`headNames` layout) without the names of who that tell nothing apart: those none of
 * whose words is mostly written as part of a name (`nameTerms`: a Title Case headline's
 * capitalised common words, "App Store Rules"), and those many articles name ("AI" of "Corvex
 * AI" and "Quilleaf AI": one such in common is no common ground).
 */
function namesOnly(list: number[], vocab: Vocabulary): Int32Array {
  const nameTerms = vocab.nameTerms;
  const out: number[] = [];
  for (let i = 0; i < list.length; i += 3 + list[i + 2]!) {
    const n = list[i + 2]!;
    let keep = list[i] !== WHO;
    if (!keep && (vocab.docs <= 500 || vocab.share(list[i + 1]!) < RARE_ENTITY_SHARE)) {
      for (let k = 0; k < n && !keep; k++) if (nameTerms[list[i + 3 + k]!] === 1) keep = true;
    }
    if (keep) for (let k = 0; k < 3 + n; k++) out.push(list[i + k]!);
  }
  return out.length === 0 ? NO_IDS : Int32Array.from(out);
}

/**
 * Whether `names` (`headNames` layout) holds names of `kind` and a text whose terms `has` tells
 * mentions none of them (neither a name's key nor all of its words).
 */
export function noneMentioned(names: Int32Array, kind: number, has: (id: number) => boolean): boolean {
  let any = false;
  for (let i = 0; i < names.length; i += 3 + names[i + 2]!) {
    if (names[i] !== kind) continue;
    any = true;
    const key = names[i + 1]!, n = names[i + 2]!;
    if (key >= 0 && has(key)) return false;
    let all = n > 0;
    for (let k = 0; k < n && all; k++) if (!has(names[i + 3 + k]!)) all = false;
    if (all) return false;
  }
  return any;
}

const POSSESSIVE = /(\p{Lu}[\p{L}\p{M}]*)['\u2019]s(?![\p{L}\p{N}])/gu;

/** Lower-cased capitalised words a headline writes as possessives ("Undton's" -> "undton"), or null. */
export function possessiveWords(title: string): Set<string> | null {
  if (title.indexOf("'") < 0 && title.indexOf('\u2019') < 0) return null;
  let out: Set<string> | null = null;
  for (const m of title.matchAll(POSSESSIVE)) (out ??= new Set()).add(m[1]!.toLowerCase());
  return out;
}

/** The entries of `v` whose terms are not mostly names (`nameTerms[id]` 0), with their norm. */
export function whatPart(v: SparseVec, nameTerms: Uint8Array): { what: SparseVec; whatNorm: number } {
  let n = 0;
  for (let i = 0; i < v.ids.length; i++) if (nameTerms[v.ids[i]!] !== 1) n++;
  const ids = new Int32Array(n);
  const weights = new Float32Array(n);
  let sq = 0;
  for (let i = 0, k = 0; i < v.ids.length; i++) {
    if (nameTerms[v.ids[i]!] === 1) continue;
    ids[k] = v.ids[i]!;
    weights[k] = v.weights[i]!;
    sq += v.weights[i]! * v.weights[i]!;
    k++;
  }
  return { what: { ids, weights }, whatNorm: Math.sqrt(sq) };
}

/** Ids of the `k` heaviest entries of `v`. */
function heaviest(v: SparseVec, k: number): Int32Array {
  if (v.ids.length <= k) return v.ids;
  const order = Array.from(v.ids.keys()).sort((x, y) => v.weights[y]! - v.weights[x]!).slice(0, k);
  return Int32Array.from(order, (i) => v.ids[i]!);
}

/** Size of the intersection of two sorted id arrays. */
export function overlap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let i = 0, j = 0, n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!, y = b[j]!;
    if (x === y) { n++; i++; j++; } else if (x < y) i++; else j++;
  }
  return n;
}
