
/**
 * 64-bit SimHash kept as two uint32 halves (`hi`, `lo`): JS bit operations are 32-bit, and a
 * BigInt per bit is ~6x slower (BENCH.md). Each feature hash is expanded to 64 bits with two
 * independent mixes.
 */
export interface SimHash {
  hi: number;
  lo: number;
}

const SEED_HI = 0x5bd1e995;
const SEED_LO = 0x27d4eb2f;

/** Adds `weight` times each feature into the 64 signed bit counters `acc`. */
export function accumulate(acc: Int32Array, features: Uint32Array, count: number, weight = 1): void {
  // Each counter ends at weight * (2 * ones - count), `ones` being how many features set its
  // bit. The ones are counted SWAR-style: lane j holds four byte-wide counts, of bits j, j+8,
  // j+16 and j+24, so a feature costs 16 shift-mask-adds instead of 64 counter updates.
  // Chunks of at most 127 features keep the byte counts from carrying (and lanes in int32).
  const w2 = weight * 2;
  if (!Number.isInteger(weight)) return accumulateEach(acc, features, count, weight);
  let i = 0;
  while (i < count) {
    const end = Math.min(count, i + 127);
    const wn = weight * (end - i);
    let h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0;
    let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
    for (; i < end; i++) {
      const f = features[i]!;
      const hi = fmix(f ^ SEED_HI);
      const lo = fmix(f ^ SEED_LO);
      h0 += hi & BYTE_ONES; h1 += (hi >>> 1) & BYTE_ONES; h2 += (hi >>> 2) & BYTE_ONES; h3 += (hi >>> 3) & BYTE_ONES;
      h4 += (hi >>> 4) & BYTE_ONES; h5 += (hi >>> 5) & BYTE_ONES; h6 += (hi >>> 6) & BYTE_ONES; h7 += (hi >>> 7) & BYTE_ONES;
      l0 += lo & BYTE_ONES; l1 += (lo >>> 1) & BYTE_ONES; l2 += (lo >>> 2) & BYTE_ONES; l3 += (lo >>> 3) & BYTE_ONES;
      l4 += (lo >>> 4) & BYTE_ONES; l5 += (lo >>> 5) & BYTE_ONES; l6 += (lo >>> 6) & BYTE_ONES; l7 += (lo >>> 7) & BYTE_ONES;
    }
    addLane(acc, 0, h0, w2, wn); addLane(acc, 1, h1, w2, wn); addLane(acc, 2, h2, w2, wn); addLane(acc, 3, h3, w2, wn);
    addLane(acc, 4, h4, w2, wn); addLane(acc, 5, h5, w2, wn); addLane(acc, 6, h6, w2, wn); addLane(acc, 7, h7, w2, wn);
    addLane(acc, 32, l0, w2, wn); addLane(acc, 33, l1, w2, wn); addLane(acc, 34, l2, w2, wn); addLane(acc, 35, l3, w2, wn);
    addLane(acc, 36, l4, w2, wn); addLane(acc, 37, l5, w2, wn); addLane(acc, 38, l6, w2, wn); addLane(acc, 39, l7, w2, wn);
  }
}

const BYTE_ONES = 0x01010101;

/** Feature by feature: the counters truncate a fractional weight at every step, so it must be summed this way. */
function accumulateEach(acc: Int32Array, features: Uint32Array, count: number, weight: number): void {
  const w2 = weight * 2;
  for (let i = 0; i < count; i++) {
    const hi = fmix(features[i]! ^ SEED_HI);
    const lo = fmix(features[i]! ^ SEED_LO);
    for (let b = 0; b < 32; b++) {
      acc[b] += ((hi >>> b) & 1) * w2 - weight;
      acc[32 + b] += ((lo >>> b) & 1) * w2 - weight;
    }
  }
}

/** Adds the four byte-wide one counts of `lane` to the counters `b`, `b+8`, `b+16`, `b+24`. */
function addLane(acc: Int32Array, b: number, lane: number, w2: number, wn: number): void {
  acc[b] += (lane & 0xff) * w2 - wn;
  acc[b + 8] += ((lane >>> 8) & 0xff) * w2 - wn;
  acc[b + 16] += ((lane >>> 16) & 0xff) * w2 - wn;
  acc[b + 24] += (lane >>> 24) * w2 - wn;
}

/** runtime/hash.ts fmix32, copied into the accumulator's hot loop so it needs no cross-module call */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The fingerprint of accumulated counters: bit set where the counter is positive. */
export function finish(acc: Int32Array): SimHash {
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if (acc[b]! > 0) hi |= 1 << b;
    if (acc[32 + b]! > 0) lo |= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/** SimHash of a set of feature hashes. */
export function simhash(features: Uint32Array, count = features.length): SimHash {
  const acc = new Int32Array(64);
  accumulate(acc, features, count);
  return finish(acc);
}

/** Number of set bits in a uint32. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Hamming distance of two 64-bit fingerprints given as halves. */
export function hamming(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return popcount32((aHi ^ bHi) >>> 0) + popcount32((aLo ^ bLo) >>> 0);
}

/** 16-hex-digit form used in output and storage. */
export function simhashHex(hi: number, lo: number): string {
  // byte table: ~4x cheaper than toString(16) + padStart, and this runs per article
  return HEX2[hi >>> 24]! + HEX2[(hi >>> 16) & 255]! + HEX2[(hi >>> 8) & 255]! + HEX2[hi & 255]! +
    HEX2[lo >>> 24]! + HEX2[(lo >>> 16) & 255]! + HEX2[(lo >>> 8) & 255]! + HEX2[lo & 255]!;
}

/** two hex digits of each byte value */
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Parses the 16-hex-digit form; throws on anything else. */
export function parseSimhashHex(hex: string): SimHash {
  if (!/^[0-9a-f]{16}$/i.test(hex)) throw new TypeError(`not a 16-hex-digit simhash: ${hex}`);
  return { hi: parseInt(hex.slice(0, 8), 16) >>> 0, lo: parseInt(hex.slice(8), 16) >>> 0 };
}

/** Block `i` (0 = most significant) of the four 16-bit blocks of a fingerprint. */
export function block(hi: number, lo: number, i: number): number {
  switch (i) {
    case 0: return hi >>> 16;
    case 1: return hi & 0xffff;
    case 2: return lo >>> 16;
    default: return lo & 0xffff;
  }
}
