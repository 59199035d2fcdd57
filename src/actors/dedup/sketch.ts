import { ANCHOR_BYTES, anchorMask } from './anchors.js';
import { fmix32 } from '../../runtime/hash.js';

/**
 * A small min-hash sketch of a shingle set: one-permutation hashing into 16 bins, densified by
 * rotation, keeping only the low 8 bits of each minimum (b-bit min-hash). The first
 * `SKETCH_BINS` bins are kept, then one byte with the set's size (capped at 255), so a shard can
 * estimate both the Jaccard similarity of two texts (which a SimHash distance alone cannot tell
 * apart from formulaic look-alikes) and how much of the smaller text the larger contains (a copy
 * whose feed cut the snippet shorter).
 */
export const SKETCH_BINS = 15;
const HASH_BINS = 16;
/** offset of the shingle-count byte */
export const COUNT_OFFSET = SKETCH_BINS;
/** bytes of a stored sketch: the bins, the count, then the 64-bit anchor mask (see anchors.ts) */
export const SKETCH_BYTES = SKETCH_BINS + 1 + ANCHOR_BYTES;
export const ANCHOR_OFFSET = SKETCH_BINS + 1;
const SEED_BIN = 0x68e31da4;
const SEED_VAL = 0xb5297a4d;
const EMPTY = 0xffffffff;
// scratch, reused: sketches are computed one at a time per thread
const mins = new Uint32Array(HASH_BINS);
const seen = new Uint8Array(HASH_BINS);

const titleAnchors = new Uint8Array(ANCHOR_BYTES);

/**
 * Sketch of `count` shingle hashes with the anchor mask of `anchorText` (the cleaned body, case
 * kept) appended; null when there are no shingles. The anchors of `titleText` (a cleaned
 * headline) are added to the body's, read apart so that a headline never moves the part of the
 * body that is read. The fingerprint passes a headline-only item's headline: it has anchors
 * too ("Housing bill clears vote in Brazil" and "... in Japan" are two events).
 */
export function minhashSketch(shingles: Uint32Array, count: number, anchorText = '', titleText = ''): Uint8Array | null {
  if (count === 0) return null;
  mins.fill(EMPTY);
  seen.fill(0);
  for (let i = 0; i < count; i++) {
    const s = shingles[i]!;
    // fmix32 is unsigned and HASH_BINS a power of two: a mask is the same as `%`
    const bin = fmix32(s ^ SEED_BIN) & (HASH_BINS - 1);
    const v = fmix32(s ^ SEED_VAL);
    if (!seen[bin] || v < mins[bin]!) {
      mins[bin] = v;
      seen[bin] = 1;
    }
  }
  const out = new Uint8Array(SKETCH_BYTES);
  for (let b = 0; b < SKETCH_BINS; b++) {
    let src = b;
    let step = 0;
    // rotation densification: an empty bin borrows the next non-empty one, salted by distance
    while (!seen[src]) {
      src = (src + 1) % HASH_BINS;
      step++;
    }
    out[b] = fmix32(mins[src]! + Math.imul(step, 0x9e3779b9)) & 0xff;
  }
  out[COUNT_OFFSET] = Math.min(255, count);
  anchorMask(anchorText, out, ANCHOR_OFFSET);
  if (titleText) {
    anchorMask(titleText, titleAnchors, 0);
    for (let k = 0; k < ANCHOR_BYTES; k++) out[ANCHOR_OFFSET + k]! |= titleAnchors[k]!;
  }
  return out;
}

/**
 * How much of the smaller set the larger contains, from a Jaccard estimate and the two set
 * sizes: |A∩B| = J(|A|+|B|)/(1+J). 0 when a size is unknown.
 */
export function containment(jaccard: number, na: number, nb: number): number {
  const small = Math.min(na, nb);
  return small === 0 ? 0 : (jaccard * (na + nb)) / ((1 + jaccard) * small);
}

/** Jaccard estimate from two b-bit sketches (corrected for chance 8-bit collisions). */
export function sketchSimilarity(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number): number {
  let m = 0;
  for (let i = 0; i < SKETCH_BINS; i++) if (a[aOff + i] === b[bOff + i]) m++;
  const p = m / SKETCH_BINS;
  return Math.max(0, (p - 1 / 256) / (1 - 1 / 256));
}
