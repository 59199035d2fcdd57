import { sketchSimilarity } from './sketch.js';

/**
 * When a candidate found through a shared 16-bit block counts as a near-duplicate. With
 * sketches on both sides the text similarity decides, so the Hamming radius can be wider than
 * the pigeonhole's 3 (more recall) while formulaic look-alikes, whose fingerprints are close
 * but whose shingles differ in names and figures, are refused (precision).
 */
export interface VerifyPolicy {
  /** accepted without sketches (e.g. rebuilt from stored fingerprints only) */
  maxDistanceBare: number;
  /** widest distance considered at all when both have sketches */
  maxDistance: number;
  /** minimum estimated Jaccard when both texts are full bodies */
  minSimilarityText: number;
  /** minimum estimated Jaccard when either side is title + snippet only */
  minSimilaritySnippet: number;
  /** below this distance the similarity bar is lowered by `closeBonus` (close hashes are evidence too) */
  closeDistance: number;
  closeBonus: number;
}

export const DEFAULT_VERIFY_POLICY: VerifyPolicy = {
  maxDistanceBare: 3,
  maxDistance: 14,
  minSimilarityText: 0.6,
  minSimilaritySnippet: 0.6,
  closeDistance: 4,
  closeBonus: 0.15,
};

/** Decides one candidate pair. Sketch arguments are arrays with offsets so tables pass their storage. */
export function verifyCandidate(
  distance: number,
  a: ArrayLike<number> | null,
  aOff: number,
  aText: boolean,
  b: ArrayLike<number> | null,
  bOff: number,
  bText: boolean,
  policy: VerifyPolicy,
): boolean {
  if (!a || !b) return distance <= policy.maxDistanceBare;
  if (distance > policy.maxDistance) return false;
  let bar = aText && bText ? policy.minSimilarityText : policy.minSimilaritySnippet;
  if (distance <= policy.closeDistance) bar -= policy.closeBonus;
  return sketchSimilarity(a, aOff, b, bOff) >= bar;
}
