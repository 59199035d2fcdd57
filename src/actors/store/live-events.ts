import type { Cache } from '../../runtime/cache.js';
import type { FeedItem } from './feed-items.js';

/**
 * Live events: what WebSocket subscribers hear about, from the nodes that write stories and
 * detect breaking news to every API node. Carried by the cache's pub/sub (in process, or Redis
 * in server mode) behind two small interfaces, so another transport (NATS) can replace it.
 */

/** A written story as subscribers see it, with the editions that carry it. */
export interface LiveStory {
  item: FeedItem;
  regions: string[];
}

/** A breaking story: the feed item and since when it is breaking. */
export type BreakingItem = FeedItem & { breaking_since: string };

export type LiveEvent =
  /** new or updated stories (coverage count, new lead), one event per written batch */
  | { type: 'stories'; stories: LiveStory[] }
  /** a story started (`active`) or stopped breaking */
  | { type: 'breaking'; story: BreakingItem; regions: string[]; active: boolean };

export interface LiveEventSink {
  publish(event: LiveEvent): Promise<void>;
}

export interface LiveEventSource {
  /** every event published by any node from now on; resolves once subscribed */
  subscribe(handler: (event: LiveEvent) => void): Promise<() => Promise<void>>;
}

export const LIVE_CHANNEL = 'newsagg:live';

/** Live events over the cache's pub/sub channel `newsagg:live`. Malformed messages are ignored. */
export function cacheLiveEvents(cache: Cache): LiveEventSink & LiveEventSource {
  return {
    publish: (event) => cache.publish(LIVE_CHANNEL, JSON.stringify(event)),
    subscribe: async (handler) =>
      cache.subscribe(LIVE_CHANNEL, (raw) => {
        const event = parseLiveEvent(raw);
        if (event) handler(event);
      }),
  };
}

const isItem = (x: unknown): x is FeedItem => typeof x === 'object' && x !== null && typeof (x as FeedItem).story_id === 'string';
const isRegions = (x: unknown): x is string[] => Array.isArray(x) && x.every((r) => typeof r === 'string');

/** A live event from its JSON, or null when it is not one. */
export function parseLiveEvent(raw: string): LiveEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const e = v as Record<string, unknown>;
  if (e.type === 'stories' && Array.isArray(e.stories)) {
    const stories = (e.stories as unknown[]).filter((s): s is LiveStory => typeof s === 'object' && s !== null && isItem((s as LiveStory).item) && isRegions((s as LiveStory).regions));
    return { type: 'stories', stories };
  }
  if (e.type === 'breaking' && isItem(e.story) && isRegions(e.regions) && typeof e.active === 'boolean') {
    return { type: 'breaking', story: e.story as BreakingItem, regions: e.regions, active: e.active };
  }
  return null;
}
