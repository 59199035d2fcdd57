
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
  const w2 = weight * 2;
  for (let i = 0; i < count; i++) {
    const f = features[i]!;
    const hi = fmix(f ^ SEED_HI);
    const lo = fmix(f ^ SEED_LO);
    // branch-free: feature bits are random, so an if per bit would mispredict half the time
    for (let b = 0; b < 32; b++) {
      acc[b] += ((hi >>> b) & 1) * w2 - weight;
      acc[32 + b] += ((lo >>> b) & 1) * w2 - weight;
    }
  }
}

/** local copy of the murmur3 finaliser (hot loop: no cross-module call) */
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
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

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
