import { SKETCH_BYTES } from './sketch.js';

/** Entry types and record helpers of the shard table. */

// a module-local copy: the copy loop below is hot
const SKETCH_WORDS: number = SKETCH_BYTES >>> 2;

/** A fingerprint as the tables see it; `handle` is the article's numeric handle. */
export interface TableItem {
  handle: number;
  hi: number;
  lo: number;
  /** ms since epoch */
  publishedAt: number;
  sketch?: Uint8Array | null;
  hasText?: boolean;
  /** few shingles (a headline alone): only a near-identical text counts as a copy */
  short?: boolean;
}

export interface TableOptions {
  blockIndex: number;
  partitions: number;
  windowMs: number;
  /** entries to reserve up front (the expected size of the shard) */
  initialCapacity?: number;
}

/** Result slots written by `lookupInsert`: best verified earlier entry's handle, or -1. */
export interface MatchOut {
  candidate: number;
  distance: number;
}

/** Copies record and sketch `e` of one store to slot `w` of another, word by word. */
export function copyEntry(rec: Uint32Array, sk: Uint32Array, e: number, toRec: Uint32Array, toSk: Uint32Array, w: number): void {
  const r = e << 2;
  const q = w << 2;
  toRec[q] = rec[r]!;
  toRec[q + 1] = rec[r + 1]!;
  toRec[q + 2] = rec[r + 2]!;
  toRec[q + 3] = rec[r + 3]!;
  const a = e * SKETCH_WORDS;
  const b = w * SKETCH_WORDS;
  for (let i = 0; i < SKETCH_WORDS; i++) toSk[b + i] = sk[a + i]!;
}

/** minutes since epoch, clamped to what fits beside the three flag bits (until year 3000) */
export function toMin(ms: number): number {
  return ms <= 0 ? 0 : Math.min(0x1fffffff, Math.floor(ms / 60_000));
}
