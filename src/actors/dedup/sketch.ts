import { ANCHOR_BYTES, anchorMask } from './anchors.js';
import { fmix32 } from './shingles.js';

/**
 * A small min-hash sketch of a shingle set: one-permutation hashing into `SKETCH_BINS` bins,
 * densified by rotation, keeping only the low 8 bits of each minimum (b-bit min-hash). 16 bytes
 * per article let a dedup shard estimate the Jaccard similarity of two texts, which a SimHash
 * Hamming distance alone cannot tell apart from formulaic look-alikes.
 */
export const SKETCH_BINS = 16;
/** bytes of a stored sketch: the bins, then the 64-bit anchor mask (see anchors.ts) */
export const SKETCH_BYTES = SKETCH_BINS + ANCHOR_BYTES;
export const ANCHOR_OFFSET = SKETCH_BINS;
const SEED_BIN = 0x68e31da4;
const SEED_VAL = 0xb5297a4d;
const EMPTY = 0xffffffff;
// scratch, reused: sketches are computed one at a time per thread
const mins = new Uint32Array(SKETCH_BINS);
const seen = new Uint8Array(SKETCH_BINS);

/**
 * Sketch of `count` shingle hashes with the anchor mask of `anchorText` (the cleaned body, case
 * kept) appended; null when there are no shingles.
 */
export function minhashSketch(shingles: Uint32Array, count: number, anchorText = ''): Uint8Array | null {
  if (count === 0) return null;
  mins.fill(EMPTY);
  seen.fill(0);
  for (let i = 0; i < count; i++) {
    const s = shingles[i]!;
    // fmix32 is unsigned and SKETCH_BINS a power of two: a mask is the same as `%`
    const bin = fmix32(s ^ SEED_BIN) & (SKETCH_BINS - 1);
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
      src = (src + 1) % SKETCH_BINS;
      step++;
    }
    out[b] = fmix32(mins[src]! + Math.imul(step, 0x9e3779b9)) & 0xff;
  }
  anchorMask(anchorText, out, ANCHOR_OFFSET);
  return out;
}

/** Jaccard estimate from two b-bit sketches (corrected for chance 8-bit collisions). */
export function sketchSimilarity(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number): number {
  let m = 0;
  for (let i = 0; i < SKETCH_BINS; i++) if (a[aOff + i] === b[bOff + i]) m++;
  const p = m / SKETCH_BINS;
  return Math.max(0, (p - 1 / 256) / (1 - 1 / 256));
}
