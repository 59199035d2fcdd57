import { readFileSync } from 'node:fs';
import { kindsAgree, sameDisaster } from './event-kinds.js';
import { overlap, type ClusterFeatures } from './features.js';
import { frameShare, namesDiffer, scoreStory, themeShare, type StoryProfile } from './scoring.js';
import type { ScoreWeights } from './weights.js';
import { dot, type SparseVec } from './vectors.js';

/**
 * The learned story similarity (issue 21): how likely an article belongs to a candidate story,
 * as a logistic regression over features of the pair, fitted offline on labelled pairs
 * (bench/train-stories.ts) and committed as config/models/story-model.json. What the hand rules
 * used as vetoes (another named person, another city, event kinds that disagree, ...) are
 * features here: each weighs what the labelled data says it is worth, and none decides alone.
 * One weight set per shape of article (a bare headline, a snippet, a long text), each with the
 * join threshold calibrated on held-out folds of the dev data.
 */

/** The parts of a story the model reads beyond the score profile. */
export interface ModelStory extends StoryProfile {
  n: number;
  publishers: string[];
  writings: number;
}

export const FEATURES = [
  'bias',
  'content_centroid', 'content_exemplar', 'what', 'what_missing', 'entities', 'headline', 'frame',
  'time_6h', 'time_48h', 'category_same',
  'entity_conflict', 'person_conflict', 'place_conflict', 'core_entity_conflict', 'core_place_conflict', 'core_city_conflict',
  'possessive_conflict', 'names_differ', 'theme_share', 'kinds_disagree', 'kinds_both', 'same_disaster_city',
  'rare_shared', 'city_shared', 'story_size', 'story_age', 'same_publisher', 'story_bodied_share',
  'content_x_bare_story', 'headline_x_content', 'content_sq',
  'content_x_names_differ', 'content_x_kinds_disagree', 'content_x_core_city_conflict', 'content_x_person_conflict',
  'content_x_entity_conflict', 'content_x_core_place_conflict', 'content_x_theme_missing', 'what_x_shared_none',
  'hand_score', 'hand_join',
] as const;

export type Shape = 'headline' | 'snippet' | 'text';
export const MODEL_SHAPES: readonly Shape[] = ['headline', 'snippet', 'text'];

export interface ShapeModel {
  weights: number[];
  /** join when the model's probability of the best candidate is at least this */
  threshold: number;
  /**
   * articles of this shape are scored by the hand-weighted profile (weights.ts) instead: the
   * trainer keeps it where the model did not beat it on the held-out folds
   */
  hand?: boolean;
}

export interface StoryModel {
  version: number;
  features: readonly string[];
  shapes: Record<Shape, ShapeModel>;
  /** what the trainer recorded (data, seeds, fold figures) */
  meta?: Record<string, unknown>;
}

const H = 3_600_000;

function denseDot(dense: Float32Array, b: SparseVec): number {
  let s = 0;
  for (let i = 0; i < b.ids.length; i++) s += dense[b.ids[i]!]! * b.weights[i]!;
  return s;
}

/**
 * Features of article `a` (with publisher `publisher` and enrichment category `category`)
 * against story `s`, in FEATURES order; `hand`: the hand-weighted profile for this pair, whose
 * score is one feature. `dense` / `denseWhat`: the article's vector and its
 * "what" part scattered by term id (the clusterer's scratch arrays); without them sparse dots.
 */
export function pairFeatures(a: ClusterFeatures, category: string | null, publisher: string, s: ModelStory, hand: ScoreWeights, dense?: Float32Array, denseWhat?: Float32Array, out = new Float64Array(FEATURES.length)): Float64Array {
  const vd = (v: SparseVec): number => (dense ? denseDot(dense, v) : dot(a.vec, v));
  const centroid = s.centroidNorm > 0 ? vd(s.centroid) / s.centroidNorm : 0;
  let exemplar = 0;
  for (const e of s.exemplars) exemplar = Math.max(exemplar, vd(e));
  let what = 0, whatMissing = 1;
  if (a.whatNorm > 0 && s.whatNorm > 0) {
    what = (denseWhat ? denseDot(denseWhat, s.centroid) : dot(a.what, s.centroid)) / (a.whatNorm * s.whatNorm);
    whatMissing = 0;
  }
  const ne = a.entityIds.length;
  const entities = ne > 0 ? Math.min(1, overlap(a.entityIds, s.entityIds) / Math.min(ne, 2)) : 0;
  const nt = Math.min(a.titleIds.length, s.leadTitleIds.length);
  const headline = nt > 0 ? overlap(a.titleIds, s.leadTitleIds) / nt : 0;
  const dt = a.time < s.firstSeen ? s.firstSeen - a.time : a.time > s.updated ? a.time - s.updated : 0;
  const possessive = (a.possessiveIds.length > 0 && overlap(a.possessiveIds, s.entityIds) === 0 && s.coreEntityIds.length > 0)
    || (s.leadPossessiveIds !== undefined && s.leadPossessiveIds.length > 0 && a.entityIds.length > 0 && overlap(a.entityIds, s.leadPossessiveIds) === 0);
  const kinds = s.kinds ?? 0;
  const content = Math.max(centroid, exemplar);
  let i = 0;
  out[i++] = 1;
  out[i++] = centroid;
  out[i++] = exemplar;
  out[i++] = what;
  out[i++] = whatMissing;
  out[i++] = entities;
  out[i++] = headline;
  out[i++] = frameShare(a, s);
  out[i++] = Math.exp(-dt / (6 * H));
  out[i++] = Math.exp(-dt / (48 * H));
  out[i++] = category !== null && category === s.category ? 1 : 0;
  out[i++] = ne > 0 && s.dominantEntities > 0 && entities === 0 ? 1 : 0;
  out[i++] = a.personIds.length > 0 && s.dominantPersons > 0 && overlap(a.personIds, s.personIds) === 0 ? 1 : 0;
  out[i++] = a.placeIds.length > 0 && s.dominantPlaces > 0 && overlap(a.placeIds, s.placeIds) === 0 ? 1 : 0;
  out[i++] = a.namedIds.length > 0 && s.coreEntityIds.length > 0 && overlap(a.rareEntityIds, s.coreEntityIds) === 0 ? 1 : 0;
  out[i++] = a.placeIds.length > 0 && s.corePlaceIds.length > 0 && overlap(a.placeIds, s.corePlaceIds) === 0 ? 1 : 0;
  out[i++] = a.cityIds.length > 0 && s.coreCityIds.length > 0 && overlap(a.cityIds, s.coreCityIds) === 0 ? 1 : 0;
  out[i++] = possessive ? 1 : 0;
  out[i++] = namesDiffer(a, s, dense) ? 1 : 0;
  out[i++] = s.themeIds.length > 0 ? themeShare(a, s, dense) : 1;
  out[i++] = kindsAgree(a.kinds, kinds) ? 0 : 1;
  out[i++] = a.kinds !== 0 && kinds !== 0 ? 1 : 0;
  out[i++] = a.cityIds.length > 0 && sameDisaster(a.kinds, kinds) && overlap(a.cityIds, s.coreCityIds) > 0 ? 1 : 0;
  out[i++] = Math.min(3, overlap(a.rareEntityIds, s.entityIds)) / 3;
  out[i++] = overlap(a.cityIds, s.coreCityIds) > 0 ? 1 : 0;
  out[i++] = Math.log1p(s.n) / 5;
  out[i++] = Math.log1p(Math.max(0, a.time - s.firstSeen) / H) / 5;
  out[i++] = s.publishers.includes(publisher) ? 1 : 0;
  out[i++] = s.writings > 0 ? (s.bodied ?? 0) / s.writings : 0;
  out[i++] = (s.bodied ?? 1) === 0 ? content : 0;
  out[i++] = headline * content;
  out[i++] = content * content;
  // the same wording about another who, where or what: the interactions let a conflict weigh more the closer the wording
  out[i++] = content * out[18]!;
  out[i++] = content * out[20]!;
  out[i++] = content * out[16]!;
  out[i++] = content * out[12]!;
  out[i++] = content * out[11]!;
  out[i++] = content * out[15]!;
  out[i++] = content * (1 - out[19]!);
  out[i++] = overlap(a.entityIds, s.entityIds) === 0 ? what : 0;
  // the hand-weighted score (weights.ts) and whether it would join: the old rules as two inputs among many
  const h = scoreStory(a, category, s, hand, -Infinity, dense, denseWhat).total;
  out[i++] = Math.max(-2, Math.min(2, h - hand.threshold));
  out[i++] = h >= hand.threshold ? 1 : 0;
  return out;
}

/** The model's probability that the pair with features `x` is one story. */
export function probability(m: ShapeModel, x: ArrayLike<number>): number {
  let z = 0;
  for (let i = 0; i < m.weights.length; i++) z += m.weights[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** Checks a parsed model file; throws a clear error when it does not fit this code's features. */
export function checkModel(m: unknown, source = 'story model'): StoryModel {
  const x = m as StoryModel;
  if (!x || typeof x !== 'object' || !Array.isArray(x.features) || !x.shapes) throw new Error(`${source}: not a story model (features and shapes expected)`);
  if (x.features.length !== FEATURES.length || x.features.some((f, i) => f !== FEATURES[i])) throw new Error(`${source}: features ${x.features.join(',')} do not match this build's (${FEATURES.join(',')}); retrain with bench/train-stories.ts`);
  for (const s of MODEL_SHAPES) {
    const p = x.shapes[s];
    if (!p || !Array.isArray(p.weights) || p.weights.length !== FEATURES.length || typeof p.threshold !== 'number' || p.weights.some((w) => !Number.isFinite(w))) throw new Error(`${source}: shape ${s} needs ${FEATURES.length} finite weights and a threshold`);
  }
  return x;
}

export const MODEL_URL = new URL('../../../config/models/story-model.json', import.meta.url);
let cached: StoryModel | null | undefined;

/** The committed model (config/models/story-model.json), or null when the file is absent. */
export function loadStoryModel(path: string | URL = MODEL_URL): StoryModel | null {
  const isDefault = path === MODEL_URL;
  if (isDefault && cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    if (isDefault) cached = null;
    return null;
  }
  const m = checkModel(JSON.parse(text), String(path));
  if (isDefault) cached = m;
  return m;
}
