/**
 * The sections and editions the client offers, with their names: the server's one definition
 * (src/actors/model/taxonomy.ts), bundled into the client at build time. Never a copy here.
 * Names are in the interface's language (i18n.ts; English from the taxonomy itself).
 */
import { editionName, sectionName } from './i18n.js';

export { CATEGORIES, FEED_CATEGORIES, FEED_REGIONS, type FeedCategory, type FeedRegion } from '../../../actors/model/index.js';

/** A section's name (`top` included), or undefined for a value the taxonomy does not know. */
export function categoryName(c: string | null | undefined): string | undefined {
  return typeof c === 'string' ? sectionName(c) : undefined;
}

/** An edition's name (`global` included), or undefined for a value the taxonomy does not know. */
export function regionName(r: string | null | undefined): string | undefined {
  return typeof r === 'string' ? editionName(r) : undefined;
}
