/**
 * The house's non-cryptographic hashes, in one place: FNV-1a over UTF-16 code units and
 * MurmurHash3's 32-bit finaliser. Loops that hash straight from char codes (tokenizers, the
 * SimHash accumulator) use FNV_OFFSET/FNV_PRIME inline and say so; everything else calls these.
 */

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over the UTF-16 code units of `s`, unsigned. */
export function fnv1a(s: string, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** MurmurHash3's finaliser: a bijection on 32 bits with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a finished with the murmur mix, so strings that differ in one character spread apart. */
export function mixedHash(s: string): number {
  return fmix32(fnv1a(s));
}

/** Hash of an ordered pair of 32-bit hashes (bigram features). */
export function pairHash(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
