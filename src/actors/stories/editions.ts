import { REGIONS } from '../model/index.js';
import { regionOfPlace } from '../enrich/gazetteer.js';
import type { ClusterHints } from './features.js';

/** A story's editions: where it happened (its places) and who covers it, weighted by share of its articles. */

/** editions a story can be filed in (global carries every story) */
export const REGION_KEYS = REGIONS;
/** a story is at home in an edition when this share of its articles names a place there */
const HOME_SHARE = 0.3;
/** and carried by an edition when this share of its articles comes from publishers there */
const COVERAGE_SHARE = 0.25;

/** Count one article's editions: where its places lie (once per edition) and where its publisher is. */
export function countRegions(counts: Uint16Array, hints: ClusterHints): void {
  let seen = 0;
  for (const p of hints.places ?? []) {
    const k = REGION_KEYS.indexOf(regionOfPlace(p) as never);
    if (k >= 0 && !(seen & (1 << k))) { seen |= 1 << k; if (counts[k]! < 0xffff) counts[k]!++; }
  }
  const k = hints.region ? REGION_KEYS.indexOf(hints.region as never) : -1;
  if (k >= 0 && counts[REGION_KEYS.length + k]! < 0xffff) counts[REGION_KEYS.length + k]!++;
}

/**
 * A story's editions, weighted: at home where a fair share of its articles place it, and carried
 * where a fair share of its coverage comes from (one UK outlet among twenty covering a Manila
 * match no longer files it under UK). Every story is in `global` besides.
 */
export function editions(counts: Uint16Array, n: number): { regions: string[]; home_regions: string[] } {
  const home: string[] = [];
  const carried: string[] = [];
  const R = REGION_KEYS.length;
  for (let k = 0; k < R; k++) {
    if (counts[k]! > 0 && counts[k]! >= HOME_SHARE * n) home.push(REGION_KEYS[k]!);
    else if (counts[R + k]! > 0 && counts[R + k]! >= COVERAGE_SHARE * n) carried.push(REGION_KEYS[k]!);
  }
  return { regions: [...home, ...carried], home_regions: home };
}
