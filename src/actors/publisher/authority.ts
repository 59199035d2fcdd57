/**
 * Source authority in (0, 1]: how much a publisher's account of a story is worth leading with or
 * ranking up. It starts from the publisher's tier (1 = highest, set by the operator) and is then
 * adjusted by the publisher's record over recent weeks: how much of what it publishes is its own
 * (not a near-copy of another publisher's article), and how much of it other publishers
 * corroborate (lands in stories they cover too). A publisher with little record keeps its tier's
 * value. Pure: the store computes the counts, this decides.
 */

/** A publisher's record over the authority window. */
export interface PublisherRecord {
  articles: number;
  /** articles that are not near-copies of another article */
  originals: number;
  /** articles in stories at least one other publisher covers */
  corroborated: number;
}

/** Authority by tier; any other tier is treated as 2. */
export const TIER_AUTHORITY: Readonly<Record<number, number>> = { 1: 0.9, 2: 0.6, 3: 0.35 };
/** for a publisher the node knows nothing about (the lead choice's historical default) */
export const DEFAULT_AUTHORITY = 0.5;
/** articles below which the record is not evidence yet */
export const MIN_RECORD = 10;

export function authorityOf(tier: number, record: PublisherRecord | null): number {
  const base = TIER_AUTHORITY[tier] ?? TIER_AUTHORITY[2]!;
  if (!record || record.articles < MIN_RECORD) return base;
  const own = clamp01(record.originals / record.articles);
  const confirmed = clamp01(record.corroborated / record.articles);
  // a pure copier of corroborated news keeps 75 %, an original voice nobody echoes 85 %
  const factor = 0.6 + 0.25 * own + 0.15 * confirmed;
  return Math.round(base * factor * 1000) / 1000;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
