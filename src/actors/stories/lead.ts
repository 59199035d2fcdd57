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

/**
 * Pieces that are not a straight report: opinion, analysis, live pages, explainers, reviews.
 * Read from a label opening the headline ("Opinion: ...", "ANALYSIS - ...") or a section of the
 * URL's path (/opinion/, /live/, ...).
 */
const LABEL = /^\s*(?:opinion|analysis|live(?:\s+updates?)?|explainer|explained|comment|commentary|editorial|column|review|podcast|watch|video|perspective|view|letters?|fact\s*check|q\s*&\s*a)\s*[:|\u2013\u2014-]\s*/i;
const SECTION = /\/(?:opinion|opinions|analysis|live|live-news|liveblog|explainer|explainers|commentisfree|comment|editorial|editorials|columns?|reviews?|podcasts?|video)\//i;

export function isStraightReport(title: string, url = ''): boolean {
  if (LABEL.test(title)) return false;
  let path = '';
  try { path = url ? new URL(url).pathname : ''; } catch { path = ''; }
  return !SECTION.test(path + '/');
}

/** The headline without a label opening it ("Opinion: X" -> "X"). */
export function stripPieceLabel(title: string): string {
  return title.replace(LABEL, '');
}

/** What the central lead needs of a member: its centrality and standing. */
export interface CentralCandidate extends LeadCandidate {
  /** cosine of the member's vector to the story's centroid: its mean similarity to the others, up to a factor */
  centrality: number;
  straight: boolean;
  /** whether the model would join it to the story (the opener, or joined at or above the threshold) */
  eligible: boolean;
}

/** weight of a piece that is not a straight report (an Opinion lead only when nothing else fits) */
export const NOT_STRAIGHT = 0.3;

/**
 * Value of `c` as the story's lead: its centrality, preferring straight reports, then its
 * standing (authority, freshness, depth, uniqueness: `leadScore`) as a milder factor. -1 when
 * the model would not join it.
 */
export function centralLeadValue(c: CentralCandidate, ref: number, policy: LeadPolicy = {}): number {
  if (!c.eligible) return -1;
  return Math.max(0, c.centrality) * (c.straight ? 1 : NOT_STRAIGHT) * (0.6 + 0.4 * leadScore(c, ref, policy));
}

/** The lead among `members` (the current one keeps its place on a near tie: stability). */
export function pickCentralLead<T extends CentralCandidate>(members: readonly T[], current: T | undefined, ref: number, policy: LeadPolicy = {}): T | undefined {
  let best = current;
  let bestV = current ? centralLeadValue(current, ref, policy) * 1.05 : -Infinity;
  for (const m of members) {
    if (m === current) continue;
    const v = centralLeadValue(m, ref, policy);
    if (v > bestV) { best = m; bestV = v; }
  }
  return best;
}
