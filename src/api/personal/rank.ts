import type { Profile } from '../readers/profile.js';
import { diversify } from '../diversity.js';
import { POOL_MAX, sortKey, type Candidate, type Pool } from './pool.js';

/**
 * The personalised order of a pool for one reader: each candidate's reader-independent score
 * (freshness × coverage × authority) times its affinity (1 + the weights of the reader's keys it
 * matches); hidden candidates left out; breaking stories first; then the feed's diversity rules
 * over the first pages. Pure and allocation-light.
 */

export interface PersonalRules {
  pageSize: number;
  maxPerPublisher: number;
  minCategories: number;
  /** pages the diversity rules fill; the rest keeps score order */
  diversePages: number;
}

// Scratch, reused by every call (one request at a time runs on the thread): affinity by position,
// hidden flags, and the positions either touched (to reset them afterwards without a full pass).
const affinity = new Float64Array(POOL_MAX);
const hidden = new Uint8Array(POOL_MAX);
const touched = new Uint16Array(POOL_MAX);
const boostKeys = new Float64Array(POOL_MAX);

/**
 * Candidate positions in personalised order (hidden ones left out). Most candidates match none of
 * a reader's keys and keep the pool's precomputed base order; only the few the reader's keys touch
 * are scored and sorted, then merged into it: a walk over the pool, not a sort of it.
 */
export function personalOrder(pool: Pool, profile: Profile | null): number[] {
  let nTouched = 0;
  if (profile) {
    for (let k = 0; k < profile.keys.length; k++) {
      const post = pool.index.get(profile.keys[k]!);
      if (post === undefined) continue;
      const w = profile.weights[k]!;
      for (let j = 0; j < post.length; j++) {
        const at = post[j]!;
        if (affinity[at] === 0 && hidden[at] === 0) touched[nTouched++] = at;
        affinity[at]! += w;
      }
    }
    for (const key of profile.hidden) {
      const post = pool.index.get(key);
      if (post === undefined) continue;
      for (let j = 0; j < post.length; j++) {
        const at = post[j]!;
        if (affinity[at] === 0 && hidden[at] === 0) touched[nTouched++] = at;
        hidden[at] = 1;
      }
    }
  }
  // the boosted candidates, best first
  let nb = 0;
  for (let t = 0; t < nTouched; t++) {
    const at = touched[t]!;
    const c = pool.candidates[at];
    if (hidden[at] === 1 || c === null || c === undefined || !(affinity[at]! > 0)) continue;
    boostKeys[nb++] = sortKey(c.at, c.breaking, c.logBase + Math.log2(1 + affinity[at]!));
  }
  const boosted = boostKeys.subarray(0, nb).sort();
  // merge them (descending) into the base order, leaving out hidden and boosted positions
  const out: number[] = [];
  let b = nb - 1;
  const base = pool.baseOrder;
  for (let i = 0; i < base.length; i++) {
    const at = base[i]!;
    if (hidden[at] === 1 || affinity[at]! > 0) continue;
    const key = pool.candidates[at]!.baseKey;
    while (b >= 0 && boosted[b]! > key) out.push(511 - (boosted[b--]! % 512));
    out.push(at);
  }
  while (b >= 0) out.push(511 - (boosted[b--]! % 512));
  for (let t = 0; t < nTouched; t++) {
    affinity[touched[t]!] = 0;
    hidden[touched[t]!] = 0;
  }
  return out;
}

/** The order a reader's pages follow: personalised, then diversified over the first pages. */
export function personalPages(pool: Pool, profile: Profile | null, rules: PersonalRules): number[] {
  const order = personalOrder(pool, profile);
  // the diversified pages draw from the head of the order (with a page to spare for deferrals)
  const headN = Math.min(order.length, rules.pageSize * (rules.diversePages + 1));
  const head: Candidate[] = new Array<Candidate>(headN);
  for (let i = 0; i < headN; i++) head[i] = pool.candidates[order[i]!]!;
  const diverse = diversify<Candidate>(head, {
    pageSize: rules.pageSize,
    maxPerPublisher: rules.maxPerPublisher,
    minCategories: rules.minCategories,
    maxPages: rules.diversePages,
  });
  for (let i = 0; i < headN; i++) order[i] = diverse[i]!.at;
  return order;
}
