/**
 * Lead selection: the article that fronts a story is the one with the best
 * source authority x freshness x depth x uniqueness. Scores are recomputed against the story's
 * latest time, so an old lead fades and a better source arriving later takes over.
 */

/** What lead scoring needs to know about an article (kept per story for its current lead). */
export interface LeadCandidate {
  articleId: string;
  publisher: string;
  /** publish time, epoch ms */
  time: number;
  /** characters of snippet (+ transient text) the article offers */
  depth: number;
  /** true when the article is a near-copy of another */
  duplicate: boolean;
  /** how much of the headline is shared with the story's other headlines, 0..1 */
  overlap: number;
}

export interface LeadPolicy {
  /** publisher -> authority in (0, 1]; unknown publishers get `defaultAuthority` */
  authority?: (publisher: string) => number | undefined;
  defaultAuthority?: number;
  /** freshness half-life, ms (default 6 h) */
  halfLifeMs?: number;
}

/** Lead score of `c` seen from time `ref` (the story's latest article time). */
export function leadScore(c: LeadCandidate, ref: number, policy: LeadPolicy = {}): number {
  const auth = Math.min(1, Math.max(0.01, policy.authority?.(c.publisher) ?? policy.defaultAuthority ?? 0.5));
  const half = policy.halfLifeMs ?? 6 * 3_600_000;
  const age = Math.max(0, ref - c.time);
  // Freshness only halves the score per half-life down to a floor: a deep, authoritative piece
  // stays a good lead for a while after newer but thinner reports arrive.
  const fresh = 0.35 + 0.65 * Math.pow(0.5, age / half);
  const depth = 0.5 + 0.5 * Math.min(1, c.depth / 600);
  const unique = c.duplicate ? 0.25 : 1 - 0.3 * Math.min(1, Math.max(0, c.overlap));
  return auth * fresh * depth * unique;
}

/** True when `cand` should replace `current` as lead (ties keep the current lead: stability). */
export function betterLead(cand: LeadCandidate, current: LeadCandidate, ref: number, policy: LeadPolicy = {}): boolean {
  return leadScore(cand, ref, policy) > leadScore(current, ref, policy) * 1.05;
}
