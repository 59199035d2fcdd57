import { readFileSync } from 'node:fs';
import { NewsaggError } from '../../runtime/errors.js';
import { CATEGORIES, type Category } from '../model/index.js';
import { fnv1a, isStopword, pairHash } from './text.js';

/**
 * The compact topic model: one linear table over hashed features (content-word unigrams, title
 * words, content-word bigrams, URL host, sections and slug words), the sum of a multinomial
 * logistic regression and naive-Bayes log-likelihoods, quantised to int8
 * (config/models/topics.json, trained by bench/train-topics.ts). Older files with a separate NB
 * table still load. Features and scoring live here so training and serving share them.
 */

/** The model's classes are the taxonomy's sections, in its order (the weights' rows follow it). */
export { CATEGORIES, type Category } from '../model/index.js';

export interface TopicModel {
  /** power of two */
  buckets: number;
  classes: Category[];
  bias: Float32Array;
  /** buckets x classes, row-major by bucket */
  weights: Float32Array | Int8Array;
  /** multiplier that turns stored weights into real ones */
  scale: number;
  /**
   * Optional naive-Bayes companion over the same hashed features (log-likelihoods, centred per
   * feature), added with weight `nbMix`: it helps on long texts where the regression saturates.
   */
  nb?: { bias: Float32Array; weights: Int8Array | Float32Array; scale: number; mix: number };
  /** regression and NB weights side by side per bucket (built at load for cache locality) */
  interleaved?: Int8Array;
  /**
   * The int8 weights with a stride of 8 per bucket, unused lanes zero (built at load for
   * models without a separate NB table and at most 8 classes): scored with eight local
   * accumulators, 2-3x faster than an indexed accumulator array.
   */
  lanes8?: Int8Array;
}

/** The model file could not be read or is malformed. */
export class TopicModelError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('TOPIC_MODEL_INVALID', message, { cause });
  }
}

// Module-level aliases of the hot imports: under tsx's CommonJS transform every use of an
// imported name is a getter call, which cost ~10 % of topic time inside the per-token loop.
const hashStr = fnv1a;
const hashPair = pairHash;
const isStop = isStopword;
/** FNV-1a is sequential: hashing "p:" + seg equals hashing seg from the state after "p:". */
const HOST_SEED = fnv1a('h:');
const PATH_SEED = fnv1a('p:');

/** Salts that keep title words and URL slug words apart from the same words in the body. */
const TITLE_SALT = 0x7171;
const SLUG_SALT = 0x5106;

/**
 * Hashed feature indices of a token list: unigrams of non-stopwords, the same unigrams again
 * marked as title words for the first `titleTokens` tokens (a headline word says more than a
 * body word), and bigrams of adjacent non-stopwords. Writes into `out`.
 */
export function topicFeatures(tokens: readonly string[], buckets: number, out: number[], url?: string, titleTokens = 0): number[] {
  out.length = 0;
  const mask = buckets - 1;
  if (url) urlFeatures(url, mask, out);
  let prev = 0;
  let prevStop = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const h = hashStr(t);
    const stop = isStop(t);
    if (!stop) {
      out.push(h & mask);
      if (i < titleTokens) out.push(hashPair(h, TITLE_SALT) & mask);
      // bigrams of content words only: "out of"-style pairs were noise on held-out rows
      if (!prevStop) out.push(hashPair(prev, h) & mask);
    }
    prev = h;
    prevStop = stop;
  }
  return out;
}

/**
 * The buckets a content word lands in as a unigram and as a title word (what `topicFeatures`
 * emits for it): training folds per-word weights (from pretrained word vectors) into them.
 */
export function wordBuckets(word: string, buckets: number): [unigram: number, title: number] {
  const h = hashStr(word);
  return [h & (buckets - 1), hashPair(h, TITLE_SALT) & (buckets - 1)];
}

/**
 * The publisher host and the URL's section folders ("/business/", "/sport/football/") are
 * features of their own: a publisher's sections say more about topic than any headline word.
 * The last path segment is the slug: its words count as slug words (they often carry a
 * section-like word the headline lacks).
 */
function urlFeatures(url: string, mask: number, out: number[]): void {
  const m = /^[a-z]+:\/\/(?:www\.)?([^/?#:]+)[^/?#]*(\/[^?#]*)?/i.exec(url);
  if (!m) return;
  out.push(hashStr(m[1]!.toLowerCase(), HOST_SEED) & mask);
  const path = m[2];
  if (!path) return;
  const segs = path.toLowerCase().split('/');
  for (let i = 1; i < segs.length - 1 && i < 5; i++) {
    const seg = segs[i]!;
    if (seg.length > 1 && seg.length < 24 && !/\d{3}/.test(seg)) out.push(hashStr(seg, PATH_SEED) & mask);
  }
  slugFeatures(segs[segs.length - 1]!, mask, out);
}

/** Words of a URL slug ("apple-beats-forecasts.html"): letters only, 3+ long, no stopwords. */
function slugFeatures(slug: string, mask: number, out: number[]): void {
  let start = -1;
  for (let i = 0; i <= slug.length; i++) {
    const c = i < slug.length ? slug.charCodeAt(i) : 0;
    if (c >= 97 && c <= 122) { if (start < 0) start = i; continue; }
    if (start >= 0 && i - start > 2) {
      const w = slug.slice(start, i);
      if (!isStop(w)) out.push(hashPair(hashStr(w), SLUG_SALT) & mask);
    }
    start = -1;
  }
}

let accLr = new Float64Array(8);
let accNb = new Float64Array(8);

/** Class scores (log-odds up to a constant) into `scores`; regression features are L2-normalised counts. */
export function scoreFeatures(m: TopicModel, features: readonly number[], scores: Float64Array): Float64Array {
  const C = m.classes.length;
  if (accLr.length < C) { accLr = new Float64Array(C); accNb = new Float64Array(C); }
  for (let c = 0; c < C; c++) { accLr[c] = 0; accNb[c] = 0; }
  const n = features.length;
  if (m.lanes8 && !m.nb) return scoreLanes8(m, m.lanes8, features, scores);
  const nb = m.nb;
  if (nb && m.interleaved) {
    // one pass over one memory region: [lr x C, nb x C] per bucket
    const w = m.interleaved;
    const C2 = 2 * C;
    for (let i = 0; i < n; i++) {
      const base = features[i]! * C2;
      for (let c = 0; c < C; c++) { accLr[c]! += w[base + c]!; accNb[c]! += w[base + C + c]!; }
    }
  } else {
    const w = m.weights;
    const wn = nb?.weights;
    for (let i = 0; i < n; i++) {
      const base = features[i]! * C;
      for (let c = 0; c < C; c++) accLr[c]! += w[base + c]!;
      if (wn) for (let c = 0; c < C; c++) accNb[c]! += wn[base + c]!;
    }
  }
  const k = n > 0 ? m.scale / Math.sqrt(n) : 0;
  for (let c = 0; c < C; c++) scores[c] = accLr[c]! * k + m.bias[c]!;
  if (nb) {
    const kn = nb.scale * nb.mix;
    for (let c = 0; c < C; c++) scores[c]! += accNb[c]! * kn + nb.bias[c]! * nb.mix;
  }
  return scores;
}

function scoreLanes8(m: TopicModel, w: Int8Array, features: readonly number[], scores: Float64Array): Float64Array {
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
  const n = features.length;
  for (let i = 0; i < n; i++) {
    const b = features[i]! << 3;
    a0 += w[b]!; a1 += w[b + 1]!; a2 += w[b + 2]!; a3 += w[b + 3]!;
    a4 += w[b + 4]!; a5 += w[b + 5]!; a6 += w[b + 6]!; a7 += w[b + 7]!;
  }
  const k = n > 0 ? m.scale / Math.sqrt(n) : 0;
  const acc = accLr;
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6; acc[7] = a7;
  const C = m.classes.length;
  for (let c = 0; c < C; c++) scores[c] = acc[c]! * k + m.bias[c]!;
  return scores;
}

/** Softmax in place; returns the index of the largest probability. */
export function softmax(scores: Float64Array, n: number): number {
  let max = -Infinity, arg = 0;
  for (let c = 0; c < n; c++) if (scores[c]! > max) { max = scores[c]!; arg = c; }
  let sum = 0;
  for (let c = 0; c < n; c++) { const e = Math.exp(scores[c]! - max); scores[c] = e; sum += e; }
  for (let c = 0; c < n; c++) scores[c] = scores[c]! / sum;
  return arg;
}

interface ModelFile {
  format: 'newsagg-topics-v1';
  buckets: number;
  classes: Category[];
  bias: number[];
  scale: number;
  /** base64 of buckets*classes int8 values */
  weights: string;
  nb?: { bias: number[]; scale: number; mix: number; weights: string };
}

function quantise(w: Float32Array): { scale: number; b64: string } {
  // Scale to a high percentile of the non-zero weights, not the maximum: a few outliers would
  // otherwise leave the bulk of the weights with only a handful of int8 levels. Outliers clip.
  const mags = Float32Array.from(w.filter((x) => x !== 0), Math.abs).sort();
  const ref = mags.length > 0 ? mags[Math.min(mags.length - 1, Math.floor(mags.length * 0.999))]! : 1;
  const scale = ref / 127 || 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < q.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(w[i]! / scale)));
  return { scale, b64: Buffer.from(q.buffer, q.byteOffset, q.byteLength).toString('base64') };
}

function dequantiseB64(b64: string): Int8Array {
  const buf = Buffer.from(b64, 'base64');
  return new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Serialise a trained float model (and its optional NB companion), quantising to int8. */
export function serializeModel(
  m: { buckets: number; classes: Category[]; bias: Float32Array; weights: Float32Array; nb?: { bias: Float32Array; weights: Float32Array; mix: number } },
  meta: Record<string, unknown>,
): string {
  const lr = quantise(m.weights);
  const file: ModelFile & { meta: Record<string, unknown> } = {
    format: 'newsagg-topics-v1', meta, buckets: m.buckets, classes: m.classes, bias: [...m.bias], scale: lr.scale, weights: lr.b64,
  };
  if (m.nb) {
    const q = quantise(m.nb.weights);
    file.nb = { bias: [...m.nb.bias], scale: q.scale, mix: m.nb.mix, weights: q.b64 };
  }
  return JSON.stringify(file);
}

let cached: TopicModel | null = null;

/** Load the committed model (once per process). */
export function loadTopicModel(path?: string | URL): TopicModel {
  if (cached && path === undefined) return cached;
  const file = path ?? new URL('../../../config/models/topics.json', import.meta.url);
  let raw: ModelFile;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as ModelFile;
  } catch (err) {
    throw new TopicModelError(`cannot read topic model ${String(file)}`, err);
  }
  if (raw.format !== 'newsagg-topics-v1' || (raw.buckets & (raw.buckets - 1)) !== 0) {
    throw new TopicModelError(`unsupported topic model format in ${String(file)}`);
  }
  const weights = dequantiseB64(raw.weights);
  const size = raw.buckets * raw.classes.length;
  if (weights.length !== size) throw new TopicModelError('topic model weights have the wrong size');
  const m: TopicModel = { buckets: raw.buckets, classes: raw.classes, bias: Float32Array.from(raw.bias), weights, scale: raw.scale };
  const C = raw.classes.length;
  if (!raw.nb && C <= 8) {
    const lanes = new Int8Array(raw.buckets * 8);
    for (let b = 0; b < raw.buckets; b++) for (let c = 0; c < C; c++) lanes[b * 8 + c] = weights[b * C + c]!;
    m.lanes8 = lanes;
  }
  if (raw.nb) {
    const nbw = dequantiseB64(raw.nb.weights);
    if (nbw.length !== size) throw new TopicModelError('topic model NB weights have the wrong size');
    m.nb = { bias: Float32Array.from(raw.nb.bias), weights: nbw, scale: raw.nb.scale, mix: raw.nb.mix };
    const inter = new Int8Array(size * 2);
    for (let b = 0; b < raw.buckets; b++) {
      for (let c = 0; c < C; c++) { inter[b * 2 * C + c] = weights[b * C + c]!; inter[b * 2 * C + C + c] = nbw[b * C + c]!; }
    }
    m.interleaved = inter;
  }
  if (path === undefined) cached = m;
  return m;
}
