import type { Cache } from '../../runtime/cache.js';
import type { CachedStory } from './feed-items.js';
import { feedsByRegion, feedScore, feedsOf, storyKey } from './feed-items.js';

/** Feed sorted sets keep this many leads each; deeper pages come from the database. */
export const FEED_KEEP = 2_000;
export const INVALIDATE_CHANNEL = 'newsagg:invalidate';

/**
 * After the store writes stories: refresh the story hashes and the `feed:{region}:{category}`
 * sorted sets, then tell every API node which feeds changed so hot pages are dropped.
 * A story that moved out of a feed (category changed) is removed from the old one.
 */
export async function publishStories(cache: Cache, stories: readonly CachedStory[], previous: ReadonlyMap<string, CachedStory> = new Map()): Promise<string[]> {
  if (stories.length === 0) return [];
  await cache.mset(stories.map((s) => ({ key: storyKey(s.item.story_id), value: JSON.stringify(s), ttlMs: 14 * 86_400_000 })));
  const byFeed = new Map<string, { member: string; score: number }[]>();
  const removals = new Map<string, string[]>();
  for (const s of stories) {
    const byRegion = feedsByRegion({ category: s.item.category, regions: s.regions });
    const feeds = byRegion.map((f) => f.key);
    for (const { key, region } of byRegion) {
      let list = byFeed.get(key);
      if (!list) byFeed.set(key, (list = []));
      // an edition's own news first: a story is ranked higher where it happened
      list.push({ member: s.item.story_id, score: feedScore(s, region) });
    }
    const prev = previous.get(s.item.story_id);
    if (prev) {
      const now = new Set(feeds);
      for (const f of feedsOf({ category: prev.item.category, regions: prev.regions })) {
        if (!now.has(f)) removals.set(f, [...(removals.get(f) ?? []), s.item.story_id]);
      }
    }
  }
  await cache.zaddTrimMany([...byFeed].map(([key, members]) => ({ key, members })), FEED_KEEP);
  await Promise.all([...removals].map(([f, ids]) => cache.zrem(f, ids)));
  const changed = [...new Set([...byFeed.keys(), ...removals.keys()])];
  await cache.publish(INVALIDATE_CHANNEL, JSON.stringify({ feeds: changed, stories: stories.map((s) => s.item.story_id) }));
  return changed;
}
