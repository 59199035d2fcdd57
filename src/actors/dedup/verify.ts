import { anchorsConflict } from './anchors.js';
import { ANCHOR_OFFSET, containment, COUNT_OFFSET, sketchSimilarity } from './sketch.js';

/**
 * When a candidate found through a shared 16-bit block counts as a near-duplicate. With
 * sketches on both sides the text similarity decides, so the Hamming radius can be wider than
 * the pigeonhole's 3 (more recall) while formulaic look-alikes, whose fingerprints are close
 * but whose shingles differ in names and figures, are refused (precision). Anchors (the names
 * and figures of each lead, see anchors.ts) refuse the look-alikes that slip through: the same
 * template about another person, place or death toll.
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
  /** minimum estimated Jaccard when either side has only a few shingles (a bare headline) */
  minSimilarityShort: number;
  /** below this distance the similarity bar is lowered by `closeBonus` (close hashes are evidence too) */
  closeDistance: number;
  closeBonus: number;
  /**
   * A pair below the similarity bar still counts when the larger text contains this much of the
   * smaller (a snippet cut shorter by its feed, a copy that dropped its ending) ...
   */
  minContainment: number;
  /** ... and the smaller has at least this many shingles (a few words prove nothing) */
  containmentMinShingles: number;
}

export const DEFAULT_VERIFY_POLICY: VerifyPolicy = {
  maxDistanceBare: 3,
  maxDistance: 14,
  minSimilarityText: 0.6,
  minSimilaritySnippet: 0.6,
  minSimilarityShort: 0.9,
  closeDistance: 4,
  closeBonus: 0.15,
  minContainment: 0.85,
  containmentMinShingles: 12,
};

/** flag bits describing one side of a pair */
export const VERIFY_TEXT = 2;
export const VERIFY_SHORT = 4;

/**
 * Decides one candidate pair. Sketch arguments are arrays with offsets so tables pass their
 * storage; flags are `VERIFY_TEXT | VERIFY_SHORT` bits.
 */
export function verifyCandidate(
  distance: number,
  a: ArrayLike<number> | null,
  aOff: number,
  aFlags: number,
  b: ArrayLike<number> | null,
  bOff: number,
  bFlags: number,
  policy: VerifyPolicy,
): boolean {
  if (!a || !b) return distance <= policy.maxDistanceBare;
  if (distance > policy.maxDistance) return false;
  if (anchorsConflict(a, aOff + ANCHOR_OFFSET, b, bOff + ANCHOR_OFFSET)) return false;
  const sim = sketchSimilarity(a, aOff, b, bOff);
  // a handful of shingles makes a coarse estimate, and formulaic headlines share most of them
  if ((aFlags | bFlags) & VERIFY_SHORT) return sim >= policy.minSimilarityShort;
  let bar = aFlags & bFlags & VERIFY_TEXT ? policy.minSimilarityText : policy.minSimilaritySnippet;
  if (distance <= policy.closeDistance) bar -= policy.closeBonus;
  if (sim >= bar) return true;
  const na = a[aOff + COUNT_OFFSET]!;
  const nb = b[bOff + COUNT_OFFSET]!;
  return Math.min(na, nb) >= policy.containmentMinShingles && containment(sim, na, nb) >= policy.minContainment - (distance <= policy.closeDistance ? policy.closeBonus : 0);
}
