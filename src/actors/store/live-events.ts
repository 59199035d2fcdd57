import type { NatsBroadcast } from '../../runtime/broadcast-nats.js';
import type { Cache } from '../../runtime/cache.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { FeedItem } from './feed-items.js';

/**
 * Live events: what WebSocket subscribers hear about, from the nodes that write stories and
 * detect breaking news to every API node. Carried behind two small interfaces: by NATS when the
 * node has it (msgpack objects on one broadcast channel), else by the cache's pub/sub (in process,
 * or Redis in server mode without NATS).
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

/** The broadcast channel of live events on NATS (subject `<prefix>.bc.live`). */
export const LIVE_BROADCAST = 'live';

/**
 * Live events over NATS: each event is one msgpack message that every node's subscribers get once
 * (the publishing node's too, by the same path, so nothing is delivered twice). A `stories` event
 * too large for one message is split into several.
 */
export function natsLiveEvents(bus: NatsBroadcast, log: Logger = silentLogger): LiveEventSink & LiveEventSource {
  const send = (event: LiveEvent): void => {
    try {
      bus.publish(LIVE_BROADCAST, event);
    } catch (err) {
      if (event.type !== 'stories' || event.stories.length < 2 || (err as { code?: string }).code !== 'PAYLOAD_TOO_LARGE') throw err;
      const half = Math.ceil(event.stories.length / 2);
      send({ type: 'stories', stories: event.stories.slice(0, half) });
      send({ type: 'stories', stories: event.stories.slice(half) });
    }
  };
  return {
    publish: async (event) => send(event),
    subscribe: (handler) =>
      bus.subscribe(LIVE_BROADCAST, (data) => {
        const event = toLiveEvent(data);
        if (event) handler(event);
        else log.warn('malformed live event dropped');
      }),
  };
}

/** The node's live events: over NATS when it has a link (`--nats-url`), else over its cache. */
export function liveEventsFor(cache: Cache, bus: NatsBroadcast | null, log?: Logger): LiveEventSink & LiveEventSource {
  return bus ? natsLiveEvents(bus, log) : cacheLiveEvents(cache);
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
  return toLiveEvent(v);
}

/** A live event from decoded data (JSON or msgpack), or null when it is not one. */
export function toLiveEvent(v: unknown): LiveEvent | null {
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
