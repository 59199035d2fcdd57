import { noneMentioned, overlap, WHERE, WHO, type ClusterFeatures } from './features.js';
import { kindsAgree, sameDisaster } from './event-kinds.js';
import { dot, type SparseVec } from './vectors.js';
import { HEADLINE_WEIGHTS, type ScoreWeights } from './weights.js';

/**
 * Join score of an article against a story: content similarity to the story centroid,
 * entity overlap, headline similarity to the lead, time proximity and category agreement,
 * minus penalties when both name people (or places) and none of them agree - the signature of
 * a similar but different event (another celebrity in rehab, another city's earthquake).
 */

/** The parts of a story the score reads. */
export interface StoryProfile {
  centroid: SparseVec;
  centroidNorm: number;
  /** norm of the centroid's "what happened" terms (those not mostly parts of names) */
  whatNorm: number;
  /** "what" terms (nearly) every article of the story uses, sorted, with their IDF when it was found */
  themeIds: Int32Array;
  themeWeights: Float32Array;
  /** kinds of happening the story is about (event-kinds.ts): its first writing that names any */
  kinds?: number;
  /** a few member vectors (the first and the latest): a sprawling story still matches a close member */
  exemplars: SparseVec[];
  /** entity key ids of the story with their article counts, sorted by id */
  entityIds: Int32Array;
  personIds: Int32Array;
  placeIds: Int32Array;
  /** people / places named by at least half the story's articles: what the story is about */
  dominantPersons: number;
  dominantPlaces: number;
  dominantEntities: number;
  leadTitleIds: Int32Array;
  /** the lead headline's possessive names ("Undton's"; features.ts `possessiveIds`; absent: none) */
  leadPossessiveIds?: Int32Array;
  /** the lead headline's names and frame (features.ts `headNames`, `frameIds`; absent: none) */
  leadNames?: Int32Array;
  leadFrameIds?: Int32Array;
  /** articles with a snippet or text (absent: unknown, counted as some) */
  bodied?: number;
  /** what the story is about: entity / country / city keys of its lead and those named by half its articles */
  coreEntityIds: Int32Array;
  corePlaceIds: Int32Array;
  coreCityIds: Int32Array;
  /** latest and earliest article times */
  updated: number;
  firstSeen: number;
  category: string | null;
}

/** Breakdown of one score (tests and tuning read the parts). */
export interface ScoreParts {
  total: number;
  content: number;
  /** cosine of the "what happened" words; -1 when not computed (no penalty weight, or no such words) */
  what: number;
  entities: number;
  headline: number;
  time: number;
  conflict: number;
}

/** `a` scattered into `dense` (index = term id) dot `b`: one lookup per story term. */
function denseDot(dense: Float32Array, b: SparseVec): number {
  const ids = b.ids;
  const ws = b.weights;
  let s = 0;
  for (let i = 0; i < ids.length; i++) s += dense[ids[i]!]! * ws[i]!;
  return s;
}

/** IDF-weighted share of the story's theme the article holds (`dense`: the article's vector by term id). */
export function themeShare(a: ClusterFeatures, s: StoryProfile, dense?: Float32Array): number {
  let held = 0, all = 0;
  for (let i = 0; i < s.themeIds.length; i++) {
    const id = s.themeIds[i]!;
    const w = s.themeWeights[i]!;
    all += w;
    if (dense ? dense[id]! > 0 : has(a.vec.ids, id)) held += w;
  }
  return all > 0 ? held / all : 1;
}

function has(sorted: Int32Array, id: number): boolean {
  let lo = 0, hi = sorted.length - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    const x = sorted[m]!;
    if (x === id) return true;
    if (x < id) lo = m + 1; else hi = m - 1;
  }
  return false;
}

/** Share of the shorter frame (headline words that are not names) the article's headline and the story's lead have in common. */
export function frameShare(a: ClusterFeatures, s: StoryProfile): number {
  const lead = s.leadFrameIds;
  if (lead === undefined) return 0;
  const n = Math.min(a.frameIds.length, lead.length);
  return n > 0 ? overlap(a.frameIds, lead) / n : 0;
}

/**
 * Whether the article's headline and the story's lead name a different who (or where): the
 * headline names people or organisations (places) the story never mentions, none of them (not
 * its key, not all its words, in the centroid or the story's keys), and the lead names such
 * that the article never mentions. One name in common is common ground ("Ibarorsen adds Chicago
 * dates to tour" meets "Tickets for Ibarorsen tour resell ..." on Ibarorsen).
 */
export function namesDiffer(a: ClusterFeatures, s: StoryProfile, dense?: Float32Array): boolean {
  const lead = s.leadNames;
  if (a.headNames.length === 0 || lead === undefined || lead.length === 0) return false;
  const inStory = (id: number): boolean => has(s.centroid.ids, id) || has(s.entityIds, id) || has(s.placeIds, id);
  const inArticle = dense ? (id: number): boolean => id < dense.length && dense[id]! > 0 : (id: number): boolean => has(a.vec.ids, id);
  return (noneMentioned(a.headNames, WHO, inStory) && noneMentioned(lead, WHO, inArticle))
    || (noneMentioned(a.headNames, WHERE, inStory) && noneMentioned(lead, WHERE, inArticle));
}

/** No score to report: the upper bound could not beat `floor`. */
const PRUNED: ScoreParts = { total: -Infinity, content: 0, what: -1, entities: 0, headline: 0, time: 0, conflict: 0 };

/**
 * The join score of article `a` against story `s`. With `floor`, a story whose best possible
 * score (content at its maximum of 1) cannot exceed it is not scored further (`total` is
 * -Infinity): the content similarity is the expensive part. With `dense` (`a.vec` scattered by
 * the caller) the dot products cost one lookup per story term.
 */
export function scoreStory(a: ClusterFeatures, category: string | null, s: StoryProfile, w: ScoreWeights = HEADLINE_WEIGHTS, floor = -Infinity, dense?: Float32Array, denseWhat?: Float32Array): ScoreParts {
  const ne = a.entityIds.length;
  const entities = ne > 0 ? Math.min(1, overlap(a.entityIds, s.entityIds) / Math.min(ne, 2)) : 0;
  const nt = Math.min(a.titleIds.length, s.leadTitleIds.length);
  const headline = nt > 0 ? overlap(a.titleIds, s.leadTitleIds) / nt : 0;
  const dt = a.time < s.firstSeen ? s.firstSeen - a.time : a.time > s.updated ? a.time - s.updated : 0;
  const time = Math.exp(-dt / w.timeScaleMs);
  let conflict = 0;
  if (ne > 0 && s.dominantEntities > 0 && entities === 0) conflict += w.entityConflict;
  // A conflict needs a story that is about someone (somewhere): a story whose people vary
  // (a reality show, a trial) takes a new name without penalty.
  if (a.personIds.length > 0 && s.dominantPersons > 0 && overlap(a.personIds, s.personIds) === 0) conflict += w.personConflict;
  if (a.placeIds.length > 0 && s.dominantPlaces > 0 && overlap(a.placeIds, s.placeIds) === 0) conflict += w.placeConflict;
  // Against the story's core (its lead and what half its articles name): one stray article
  // cannot widen what the story is about, so one wrong join does not open it to every look-alike.
  if (a.namedIds.length > 0 && s.coreEntityIds.length > 0 && overlap(a.rareEntityIds, s.coreEntityIds) === 0) conflict += w.coreEntityConflict;
  if (a.placeIds.length > 0 && s.corePlaceIds.length > 0 && overlap(a.placeIds, s.corePlaceIds) === 0) conflict += w.corePlaceConflict;
  if (a.cityIds.length > 0 && s.coreCityIds.length > 0 && overlap(a.cityIds, s.coreCityIds) === 0) conflict += w.coreCityConflict;
  if (a.possessiveIds.length > 0 && overlap(a.possessiveIds, s.entityIds) === 0) {
    if (s.leadPossessiveIds !== undefined && s.leadPossessiveIds.length > 0) conflict += w.rivalPossessiveConflict ?? 0;
    else if (s.coreEntityIds.length > 0) conflict += w.possessiveConflict ?? 0;
  } else if (s.leadPossessiveIds !== undefined && s.leadPossessiveIds.length > 0 && a.entityIds.length > 0 && overlap(a.entityIds, s.leadPossessiveIds) === 0) {
    let c = w.leadPossessiveConflict ?? 0;
    if (a.personIds.length > 0 && a.personIds.length === a.nameWordIds.length) c = Math.max(c, w.leadPossessivePersonConflict ?? 0);
    if (s.bodied === 0) c = Math.max(c, w.leadPossessiveBareConflict ?? 0);
    conflict += c;
  }
  let namesChecked = false;
  if ((w.nameConflict ?? 0) > 0 && frameShare(a, s) >= (w.nameFrame ?? 0)) {
    namesChecked = true;
    if (namesDiffer(a, s, dense)) conflict += w.nameConflict!;
  }
  if (w.themeConflict > 0 && s.themeIds.length > 0 && themeShare(a, s, dense) < w.themeFloor) conflict += w.themeConflict;
  if ((w.kindConflict ?? 0) > 0 && !kindsAgree(a.kinds, s.kinds ?? 0)) conflict += w.kindConflict!;
  const cat = category !== null && category === s.category ? 1 : 0;
  // one kind of disaster in the city the story is about: the same disaster, however differently
  // its reports are written (survivors' stories, a death toll, rescue teams); a bonus, so conflicts still count
  if ((w.sameDisasterBonus ?? 0) > 0 && a.cityIds.length > 0 && sameDisaster(a.kinds, s.kinds ?? 0) && overlap(a.cityIds, s.coreCityIds) > 0) conflict -= w.sameDisasterBonus!;
  const rest = w.entities * entities + w.headline * headline + w.time * time + w.category * cat - conflict;
  // both vectors are unit length: no cosine exceeds 1 (and exemplars count at most w.exemplar <= 1)
  if (w.content * Math.max(1, w.exemplar) + rest <= floor) return PRUNED;
  let content = s.centroidNorm > 0 ? (dense ? denseDot(dense, s.centroid) : dot(a.vec, s.centroid)) / s.centroidNorm : 0;
  // a single member counts at most w.exemplar: when even that cannot beat the floor, neither can this story
  if (w.exemplar > content && w.content * w.exemplar + rest <= floor) return PRUNED;
  if (w.exemplar > content) {
    for (let i = 0; i < s.exemplars.length; i++) {
      const e = s.exemplars[i]!;
      const c = (dense ? denseDot(dense, e) : dot(a.vec, e)) * w.exemplar;
      if (c > content) content = c;
    }
  }
  // a weak match naming another who or where, whatever the frame
  if (!namesChecked && (w.nameConflict ?? 0) > 0 && content < (w.nameContentFloor ?? 0) && namesDiffer(a, s, dense)) conflict += w.nameConflict!;
  // What happened must agree, not only where and who: a quake, a march and a ceremony in one
  // city share the city's name, and a club's match and its transfer share the club's. Only
  // lowers the score, so it is taken after the bounds.
  let what = -1;
  let nameless = false;
  if ((w.namelessWhatConflict ?? 0) > 0) {
    const shared = overlap(a.entityIds, s.entityIds);
    nameless = shared === 0 || (w.nameWordIsNameless === true && shared === overlap(a.nameWordIds, s.entityIds));
  }
  if ((w.whatConflict > 0 || nameless) && a.whatNorm > 0 && s.whatNorm > 0) {
    what = (denseWhat ? denseDot(denseWhat, s.centroid) : dot(a.what, s.centroid)) / (a.whatNorm * s.whatNorm);
    if (what < w.whatFloor) conflict += w.whatConflict;
    if (nameless && what < (w.namelessWhatFloor ?? 0)) conflict += w.namelessWhatConflict!;
  }
  // summed in the order of the parts, so a score never depends on whether a bound was taken
  const total = w.content * content + w.entities * entities + w.headline * headline + w.time * time + w.category * cat - conflict;
  return { total, content, what, entities, headline, time, conflict };
}
