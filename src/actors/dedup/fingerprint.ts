import { headlineAnchorText } from './anchors.js';
import { cleanText, cleanTitle, fold } from './normalize.js';
import { asciiTokenHashes, shingleHashes, tokenHashes } from './shingles.js';
import { accumulate, finish, simhashHex } from './simhash.js';
import { minhashSketch } from './sketch.js';

/** What the dedup index needs of one article: the SimHash halves and the verification sketch. */
export interface Fingerprint {
  hi: number;
  lo: number;
  /** b-bit min-hash sketch of the shingles and the lead's anchor mask (null for empty text) */
  sketch: Uint8Array | null;
  /** whether body text (not just title + snippet) went into it: verification is stricter without */
  hasText: boolean;
  /** true when the article had no words at all: such fingerprints are all alike and match nothing */
  empty?: boolean;
  /** few shingles (typically a headline alone): verification then wants a near-identical text */
  short?: boolean;
}

export interface FingerprintOptions {
  /** words per SimHash feature: single words survive a substituted word far better than shingles */
  simhashShingle: number;
  /** words per sketch shingle: longer shingles tell formulaic look-alikes apart */
  sketchShingle: number;
  /** how much more a headline feature counts than a body feature (headlines survive syndication) */
  titleWeight: number;
  /** tokens read from the body at most (long texts: the lead decides) */
  maxTokens: number;
  /**
   * body tokens the sketch reads: the lead, about a snippet's length and a little more, so a
   * copy whose ending was cut, or that carries only the snippet, still compares like for like
   */
  sketchTokens: number;
}

export const DEFAULT_FINGERPRINT_OPTIONS: FingerprintOptions = { simhashShingle: 1, sketchShingle: 3, titleWeight: 16, maxTokens: 64, sketchTokens: 64 };

/** fewer sketch shingles than this mark a fingerprint `short` (a headline of up to ~13 words) */
export const SHORT_SHINGLES = 12;

// scratch buffers reused across calls: fingerprinting is hot and single-threaded per worker
let titleTok = new Uint32Array(128);
let bodyTok = new Uint32Array(4096);
let feats = new Uint32Array(4096);
let all = new Uint32Array(4096);
const acc = new Int32Array(64);

/**
 * The fingerprint of an article from its headline, snippet and (transient, optional) body text.
 * The body replaces the snippet when present, since a snippet is the body's first lines.
 */
export function fingerprint(
  title: string,
  snippet: string | null | undefined,
  text?: string | null,
  options: FingerprintOptions = DEFAULT_FINGERPRINT_OPTIONS,
): Fingerprint {
  const hasText = !!text && text.trim().length > 0;
  const clean = cleanText((hasText ? text : snippet) ?? '');
  const head = cleanTitle(title ?? '');
  const cap = options.maxTokens + 128;
  if (bodyTok.length < cap) {
    bodyTok = new Uint32Array(cap);
    feats = new Uint32Array(cap);
    all = new Uint32Array(cap);
  }
  // the tokens of the folded (normalised) texts; ASCII text is tokenised without folding a copy
  let nt = asciiTokenHashes(head, titleTok);
  if (nt < 0) nt = tokenHashes(fold(head), titleTok);
  // (a whole, non-negative maxTokens is what `subarray(0, maxTokens)` would leave: no view needed)
  const max = options.maxTokens;
  let nb = Number.isInteger(max) && max >= 0 ? asciiTokenHashes(clean, bodyTok, max) : -1;
  if (nb < 0) nb = tokenHashes(fold(clean), bodyTok.subarray(0, max));
  acc.fill(0);
  let n = shingleHashes(titleTok, nt, options.simhashShingle, feats);
  accumulate(acc, feats, n, options.titleWeight);
  n = shingleHashes(bodyTok, nb, options.simhashShingle, feats);
  accumulate(acc, feats, n, 1);
  const { hi, lo } = finish(acc);
  const ns = shingleHashes(titleTok, nt, options.sketchShingle, all);
  const m = shingleHashes(bodyTok, Math.min(nb, options.sketchTokens), options.sketchShingle, all, ns);
  // a bare headline's names and figures are its anchors (with a body, the lead's are: a headline
  // in capitals, or cased otherwise than its copy's, would give anchors the copy seems to lack)
  const sketch = minhashSketch(all, ns + m, clean, nb === 0 ? headlineAnchorText(head) : '');
  if (!sketch) return { hi, lo, sketch, hasText, empty: true, short: true };
  return ns + m < SHORT_SHINGLES ? { hi, lo, sketch, hasText, short: true } : { hi, lo, sketch, hasText };
}

/** Convenience for output: the fingerprint's 16-hex-digit SimHash. */
export function fingerprintHex(fp: Fingerprint): string {
  return simhashHex(fp.hi, fp.lo);
}
