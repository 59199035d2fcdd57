import type { Profile } from '../readers/profile.js';
import { NO_CATEGORY, POOL_MAX, sortKey, type Pool } from './pool.js';

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
// hidden flags, and the positions either touched (to reset them afterwards without a full pass);
// the boosted candidates' sort keys; the diversity pass's lists and counters.
const affinity = new Float64Array(POOL_MAX);
const hidden = new Uint8Array(POOL_MAX);
const touched = new Uint16Array(POOL_MAX);
const boostKeys = new Float64Array(POOL_MAX);
const pendingA = new Uint16Array(POOL_MAX);
const pendingB = new Uint16Array(POOL_MAX);
const taken = new Uint16Array(POOL_MAX);
const perPublisher = new Uint8Array(POOL_MAX);
const catShown = new Uint8Array(POOL_MAX);
/** the order the plain-array forms compute in */
const orderScratch = new Uint16Array(POOL_MAX);

/**
 * Candidate positions in personalised order (hidden ones left out), written into `out` (room for
 * POOL_MAX); returns how many. Most candidates match none of a reader's keys and keep the pool's
 * precomputed base order; only the few the reader's keys touch are scored and sorted, then merged
 * into it: a walk over the pool, not a sort of it.
 */
export function personalOrderInto(pool: Pool, profile: Profile | null, out: Uint16Array): number {
  let nTouched = 0;
  if (profile) {
    const keys = profile.keys;
    const weights = profile.weights;
    for (let k = 0; k < keys.length; k++) {
      const post = pool.index.get(keys[k]!);
      if (post === undefined) continue;
      const w = weights[k]!;
      for (let j = 0; j < post.length; j++) {
        const at = post[j]!;
        if (affinity[at] === 0 && hidden[at] === 0) touched[nTouched++] = at;
        affinity[at]! += w;
      }
    }
    const hide = profile.hidden;
    for (let k = 0; k < hide.length; k++) {
      const post = pool.index.get(hide[k]!);
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
  const candidates = pool.candidates;
  for (let t = 0; t < nTouched; t++) {
    const at = touched[t]!;
    const c = candidates[at];
    if (hidden[at] === 1 || c === null || c === undefined || !(affinity[at]! > 0)) continue;
    boostKeys[nb++] = sortKey(c.at, c.breaking, c.logBase + Math.log2(1 + affinity[at]!));
  }
  if (nb > 1) boostKeys.subarray(0, nb).sort();
  // merge them (descending) into the base order, leaving out hidden and boosted positions;
  // a key's low 9 bits are 511 - position (key - 512 * floor(key / 512) is exact below 2^53)
  let n = 0;
  let b = nb - 1;
  let bk = b >= 0 ? boostKeys[b]! : -1;
  const base = pool.baseOrder;
  const baseKeys = pool.baseKeys;
  for (let i = 0; i < base.length; i++) {
    const at = base[i]!;
    if (hidden[at] === 1 || affinity[at]! > 0) continue;
    const key = baseKeys[at]!;
    while (b >= 0 && bk > key) {
      out[n++] = 511 - (bk - 512 * Math.floor(bk / 512));
      bk = --b >= 0 ? boostKeys[b]! : -1;
    }
    out[n++] = at;
  }
  for (; b >= 0; b--) {
    bk = boostKeys[b]!;
    out[n++] = 511 - (bk - 512 * Math.floor(bk / 512));
  }
  for (let t = 0; t < nTouched; t++) {
    affinity[touched[t]!] = 0;
    hidden[touched[t]!] = 0;
  }
  return n;
}

/** personalOrderInto as a plain array. */
export function personalOrder(pool: Pool, profile: Profile | null): number[] {
  const n = personalOrderInto(pool, profile, orderScratch);
  return Array.from(orderScratch.subarray(0, n));
}

/**
 * The order a reader's pages follow: personalised, then diversified over the first pages (the
 * rules of diversity.ts, on the pool's per-position publisher and category numbers). Written into
 * `out` (room for POOL_MAX); returns its length.
 */
export function personalPagesInto(pool: Pool, profile: Profile | null, rules: PersonalRules, out: Uint16Array): number {
  const n = personalOrderInto(pool, profile, out);
  // the diversified pages draw from the head of the order (with a page to spare for deferrals)
  const headN = Math.min(n, rules.pageSize * (rules.diversePages + 1));
  diversifyHead(pool, out, headN, rules);
  return n;
}

/** personalPagesInto as a plain array. */
export function personalPages(pool: Pool, profile: Profile | null, rules: PersonalRules): number[] {
  const n = personalPagesInto(pool, profile, rules, orderScratch);
  return Array.from(orderScratch.subarray(0, n));
}

/**
 * diversify() (diversity.ts) over order[0, headN), in place, step for step the same: pages of
 * pageSize with at most maxPerPublisher items of a publisher, the first page keeping its last
 * slots for categories not yet shown while any remain; what does not fit is deferred, and an
 * underfull page is filled in rank order; past diversePages the rest keeps its order.
 */
function diversifyHead(pool: Pool, order: Uint16Array, headN: number, rules: PersonalRules): void {
  const pubOf = pool.publisherOf;
  const catOf = pool.categoryOf;
  const { pageSize, maxPerPublisher, diversePages } = rules;
  let pending = pendingA;
  let deferred = pendingB;
  for (let i = 0; i < headN; i++) pending[i] = order[i]!;
  let nPending = headN;
  let n = 0;
  for (let page = 0; nPending > 0; page++) {
    if (page >= diversePages) {
      for (let i = 0; i < nPending; i++) order[n++] = pending[i]!;
      break;
    }
    let nTaken = 0;
    let nDeferred = 0;
    let nCats = 0;
    const wantCats = page === 0 ? rules.minCategories : 0;
    for (let i = 0; i < nPending; i++) {
      const at = pending[i]!;
      if (nTaken >= pageSize) {
        for (let j = i; j < nPending; j++) deferred[nDeferred++] = pending[j]!;
        break;
      }
      const p = pubOf[at]!;
      if (perPublisher[p]! >= maxPerPublisher) {
        deferred[nDeferred++] = at;
        continue;
      }
      const c = catOf[at]!;
      // keep the last slots of the first page for categories not yet shown, if any remain
      const missing = wantCats - nCats;
      if (missing > 0 && pageSize - nTaken <= missing && c !== NO_CATEGORY && catShown[c] === 1) {
        let another = false;
        for (let j = i + 1; j < nPending && !another; j++) {
          const r = pending[j]!;
          const rc = catOf[r]!;
          another = rc !== NO_CATEGORY && catShown[rc] === 0 && perPublisher[pubOf[r]!]! < maxPerPublisher;
        }
        if (another) {
          deferred[nDeferred++] = at;
          continue;
        }
      }
      taken[nTaken++] = at;
      perPublisher[p]!++;
      if (c !== NO_CATEGORY && catShown[c] === 0) {
        catShown[c] = 1;
        nCats++;
      }
    }
    // counters back to zero: only taken items touched them
    for (let i = 0; i < nTaken; i++) {
      const at = taken[i]!;
      perPublisher[pubOf[at]!] = 0;
      const c = catOf[at]!;
      if (c !== NO_CATEGORY) catShown[c] = 0;
    }
    // an underfull page would shift every later page boundary: fill it in rank order instead
    let d = 0;
    while (nTaken < pageSize && d < nDeferred) taken[nTaken++] = deferred[d++]!;
    for (let i = 0; i < nTaken; i++) order[n++] = taken[i]!;
    // what was deferred (and not used to fill) is the next page's pending list
    const next = pending;
    pending = deferred;
    nPending = nDeferred - d;
    if (d > 0) pending.copyWithin(0, d, nDeferred);
    deferred = next;
  }
}
