import type { Profile } from '../readers/profile.js';
import { diversify } from '../diversity.js';
import { POOL_MAX, type Candidate, type Pool } from './pool.js';

/**
 * The personalised order of a pool for one reader: each candidate's reader-independent score
 * (freshness × coverage × authority) times its affinity (1 + the weights of the reader's keys it
 * matches); hidden candidates left out; breaking stories first; then the feed's diversity rules
 * over the first pages. Pure and allocation-light: scratch arrays are reused between calls
 * (one request at a time runs on the thread).
 */

export interface PersonalRules {
  pageSize: number;
  maxPerPublisher: number;
  minCategories: number;
  /** pages the diversity rules fill; the rest keeps score order */
  diversePages: number;
}

const affinity = new Float64Array(POOL_MAX);
const hidden = new Uint8Array(POOL_MAX);
const sortKeys = new Float64Array(POOL_MAX);
// One float64 sort key per candidate: log2 of the score (clamped to [-2^12, 2^8)) shifted to be
// positive, kept to 2^-20, times 512, plus 511 - position (ties: the better anonymous rank first),
// plus 2^43 for breaking stories; everything stays below 2^53, so the native numeric sort of a
// Float64Array orders them exactly.
const SCALE = 2 ** 20;
const LOG_MIN = -(2 ** 12);
const LOG_MAX = 2 ** 8 - 1;
const BREAKING = 2 ** 43;

/** Candidate positions in personalised order (hidden ones left out). */
export function personalOrder(pool: Pool, profile: Profile | null): number[] {
  const n = pool.candidates.length;
  affinity.fill(0, 0, n);
  hidden.fill(0, 0, n);
  if (profile) {
    for (let k = 0; k < profile.keys.length; k++) {
      const post = pool.index.get(profile.keys[k]!);
      if (post === undefined) continue;
      const w = profile.weights[k]!;
      for (let j = 0; j < post.length; j++) affinity[post[j]!]! += w;
    }
    for (const key of profile.hidden) {
      const post = pool.index.get(key);
      if (post !== undefined) for (let j = 0; j < post.length; j++) hidden[post[j]!] = 1;
    }
  }
  let m = 0;
  for (let i = 0; i < n; i++) {
    const c = pool.candidates[i];
    if (c === null || c === undefined || hidden[i] === 1) continue;
    const log = Math.min(LOG_MAX, Math.max(LOG_MIN, c.logBase + Math.log2(1 + affinity[i]!)));
    sortKeys[m++] = (c.breaking ? BREAKING : 0) + Math.floor((log - LOG_MIN) * SCALE) * 512 + (511 - i);
  }
  const keys = sortKeys.subarray(0, m).sort();
  const out = new Array<number>(m);
  for (let j = 0; j < m; j++) out[j] = 511 - (keys[m - 1 - j]! % 512);
  return out;
}

/** The order a reader's pages follow: personalised, then diversified over the first pages. */
export function personalPages(pool: Pool, profile: Profile | null, rules: PersonalRules): number[] {
  const ordered = personalOrder(pool, profile).map((i) => pool.candidates[i]!);
  const diverse = diversify<Candidate>(ordered, {
    pageSize: rules.pageSize,
    maxPerPublisher: rules.maxPerPublisher,
    minCategories: rules.minCategories,
    maxPages: rules.diversePages,
  });
  return diverse.map((c) => c.at);
}
