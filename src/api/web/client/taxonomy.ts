/**
 * The sections and editions the client offers, with their names: the server's one definition
 * (src/actors/model/taxonomy.ts), bundled into the client at build time. Never a copy here.
 */
import { CATEGORY_NAMES, REGION_NAMES } from '../../../actors/model/index.js';

export { CATEGORIES, FEED_CATEGORIES, FEED_REGIONS, type FeedCategory, type FeedRegion } from '../../../actors/model/index.js';

const own = (o: object, k: unknown): k is string => typeof k === 'string' && Object.hasOwn(o, k);

/** A section's name (`top` included), or undefined for a value the taxonomy does not know. */
export function categoryName(c: string | null | undefined): string | undefined {
  return own(CATEGORY_NAMES, c) ? CATEGORY_NAMES[c as keyof typeof CATEGORY_NAMES] : undefined;
}

/** An edition's name (`global` included), or undefined for a value the taxonomy does not know. */
export function regionName(r: string | null | undefined): string | undefined {
  return own(REGION_NAMES, r) ? REGION_NAMES[r as keyof typeof REGION_NAMES] : undefined;
}
