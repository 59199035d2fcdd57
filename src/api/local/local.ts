import type { FeedItem } from '../../actors/store/feed-items.js';
import type { Pool } from '../personal/pool.js';
import type { LocalCity } from './cities.js';

/** How a Local item is near the reader's city: the story names the city, or it is placed in its country. */
export type Nearness = 'city' | 'country';
export type LocalItem = FeedItem & { near: Nearness };

/**
 * The Local section of a city from candidate pools (personal/pool.ts: an edition's current
 * ranking with an index of what each story names): stories naming the city first, then stories
 * placed in its country, each group in the pool's own order (breaking first, then freshness x
 * coverage x authority), so Local ranks like the rest. Pools are read in the order given (the
 * city's edition, then the World edition) and a story appears once. Pure: reads the pools only.
 */
export function localItems(pools: readonly Pool[], city: LocalCity, limit: number): LocalItem[] {
  const out: LocalItem[] = [];
  const seen = new Set<string>();
  const cityKey = `e:${city.name.toLowerCase()}`;
  const countryKey = `l:${city.country}`;
  for (const [key, near] of [[cityKey, 'city'], [countryKey, 'country']] as const) {
    for (const pool of pools) {
      const posting = pool.index.get(key);
      if (!posting || posting.length === 0) continue;
      const matches = new Set(posting);
      for (const at of pool.baseOrder) {
        if (out.length >= limit) return out;
        if (!matches.has(at)) continue;
        const c = pool.candidates[at];
        if (!c || seen.has(c.id)) continue;
        seen.add(c.id);
        out.push({ ...(JSON.parse(c.bare.toString('utf8')) as FeedItem), near });
      }
    }
  }
  return out;
}
