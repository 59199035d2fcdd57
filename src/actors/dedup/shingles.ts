/**
 * Word tokens and shingles as 32-bit hashes, computed straight from char codes: no substrings,
 * no regex per token, so a snippet costs a few microseconds. Input is normalised text
 * (`normalize.ts`): lower case, ASCII punctuation.
 */

import { FNV_OFFSET, FNV_PRIME, fmix32 } from '../../runtime/hash.js';

function isWordChar(c: number): boolean {
  // a-z, 0-9, and everything from Latin-1 letters up except the general punctuation block
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 0xc0 && (c < 0x2000 || c > 0x206f) && c !== 0xd7 && c !== 0xf7);
}

/** FNV-1a hashes (inline over char codes: no substring per token) of the word tokens of `text`, appended to `out` from `n`; returns the new length. */
export function tokenHashes(text: string, out: Uint32Array, n = 0): number {
  let h = FNV_OFFSET;
  let inWord = false;
  const len = text.length;
  for (let i = 0; i < len && n < out.length; i++) {
    const c = text.charCodeAt(i);
    if (isWordChar(c)) {
      h = Math.imul(h ^ c, FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      out[n++] = h >>> 0;
      h = FNV_OFFSET;
      inWord = false;
    }
  }
  if (inWord && n < out.length) out[n++] = h >>> 0;
  return n;
}

/**
 * `tokenHashes(fold(text), out.subarray(0, limit))` for pure-ASCII `text`, without building the folded copy:
 * upper-case letters hash as lower case, and whitespace and backticks separate tokens either
 * way. Returns -1 as soon as it meets a non-ASCII character (the caller folds then).
 */
export function asciiTokenHashes(text: string, out: Uint32Array, limit = out.length): number {
  let h = FNV_OFFSET;
  let inWord = false;
  let n = 0;
  const len = text.length;
  let i = 0;
  for (; i < len && n < limit; i++) {
    let c = text.charCodeAt(i);
    if (c > 127) return -1;
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      h = Math.imul(h ^ c, FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      out[n++] = h >>> 0;
      h = FNV_OFFSET;
      inWord = false;
    }
  }
  // stopped at the limit: NFKC could still join the last separator with a combining mark after it
  for (; i < len; i++) if (text.charCodeAt(i) > 127) return -1;
  if (inWord && n < limit) out[n++] = h >>> 0;
  return n;
}

/**
 * Shingle hashes of `size` consecutive tokens (unigrams when fewer tokens than `size`).
 * Writes into `out` from index `at` and returns the count.
 */
export function shingleHashes(tokens: Uint32Array, count: number, size: number, out: Uint32Array, at = 0): number {
  if (count < size) size = Math.max(1, count);
  const room = out.length - at;
  let n = 0;
  for (let i = 0; i + size <= count && n < room; i++) {
    let h = 0x2545f491 ^ size;
    for (let j = 0; j < size; j++) h = fmix32((h ^ tokens[i + j]!) + Math.imul(j + 1, 0x9e3779b9));
    out[at + n++] = h;
  }
  return n;
}
