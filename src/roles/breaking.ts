import { BREAKING_DETECTOR, breakingBehaviour, type BreakingMsg, type BreakingReply } from '../actors/breaking/actor.js';
import type { ActiveBreaking } from '../actors/breaking/breaking-set.js';
import { regionForCountry } from '../actors/enrich/gazetteer.js';
import type { PublisherMsg } from '../actors/publisher/actor.js';
import { activeBreaking, endBreaking, pruneBreaking, recentStoryArticles, tierOnePublishers, upsertBreaking } from '../actors/store/breaking.js';
import { INVALIDATE_CHANNEL } from '../actors/store/feed-cache.js';
import { feedsOf, storyKey, type CachedStory } from '../actors/store/feed-items.js';
import { liveEventsFor } from '../actors/store/live-events.js';
import type { Component, Node } from '../node.js';
import { describeError } from '../runtime/errors.js';
import type { IngestComponent } from './ingest.js';

/** Most publishers accelerated for one breaking story. */
const ACCELERATE_MAX = 500;
/** Stories remembered for announcements (the last written version of each). */
const STORIES_KEPT = 20_000;

/**
 * Live events and breaking news on the nodes that write stories: every written batch becomes a
 * `stories` live event (WebSocket story updates on every API node) and goes to the
 * BreakingDetector actor, whose effects are wired here: SQL, accelerating local publisher actors,
 * breaking live events and feed-cache invalidation.
 */
export function breakingComponent(opts: {
  ingest: IngestComponent;
  now?: () => number;
  /** delivers a message to a publisher's actor wherever it runs (a cluster); default: this node's actors */
  tellPublisher?: () => ((id: string, msg: PublisherMsg) => void) | null;
}): Component & { active(): Promise<ActiveBreaking[]> } {
  let node: Node | null = null;
  return {
    name: 'breaking',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const now = opts.now ?? Date.now;
      const events = liveEventsFor(n.cache, n.broadcast, n.log);
      const recent = new Map<string, CachedStory>();
      const storyOf = async (id: string): Promise<CachedStory | null> => {
        const known = recent.get(id);
        if (known) return known;
        const raw = await n.cache.get(storyKey(id)).catch(() => null);
        return raw ? (JSON.parse(raw) as CachedStory) : null;
      };
      n.system.register(
        breakingBehaviour({
          cfg: {
            windowMs: cfg.breakingWindowMinutes * 60_000,
            baselineMs: cfg.breakingBaselineMinutes * 60_000,
            bucketMs: Math.min(60_000, cfg.breakingWindowMinutes * 6_000),
            ratio: cfg.breakingRatio,
            minPublishers: cfg.breakingMinPublishers,
            minBaseline: cfg.breakingMinBaseline,
            baselineShare: cfg.breakingBaselineShare,
            maxArticles: 200_000,
            cooldownMs: cfg.breakingCooldownMinutes * 60_000,
            accelerateMs: cfg.breakingAccelerateMinutes * 60_000,
            accelerateIntervalMs: cfg.breakingAccelerateIntervalSeconds * 1000,
            tickMs: Math.min(30_000, cfg.breakingCooldownMinutes * 15_000),
          },
          now,
          loadArticles: (ids, since) => recentStoryArticles(n.sql, ids, since),
          loadActive: () => activeBreaking(n.sql),
          save: (rows) => upsertBreaking(n.sql, rows),
          end: (ids, at) => endBreaking(n.sql, ids, at),
          pruneEnded: async (before) => void (await pruneBreaking(n.sql, before)),
          regionOfPlace: (place) => regionForCountry(place),
          accelerate: async (regions, intervalMs, until) => {
            const ids = await tierOnePublishers(n.sql, regions, ACCELERATE_MAX);
            let told = 0;
            const tell = opts.tellPublisher?.() ?? null;
            for (const id of ids) {
              // publisher actors of this node (or of their owners in a cluster); none here and no cluster: nothing to tell
              if (!tell && !n.system.hosts('publisher')) break;
              try {
                const msg: PublisherMsg = { type: 'accelerate', intervalMs, until };
                if (tell) tell(id, msg);
                else n.system.send<PublisherMsg>(`publisher/${id}`, msg);
                told++;
              } catch (err) {
                n.log.debug({ err: describeError(err), publisher_id: id }, 'accelerate not delivered');
              }
            }
            return told;
          },
          announce: async (b, active) => {
            const story = await storyOf(b.story);
            if (!story) {
              n.log.warn({ story_id: b.story }, 'breaking story not found for its announcement');
              return;
            }
            // the breaking set first, then the feeds: an API node re-renders a page with the new set
            await events.publish({ type: 'breaking', story: { ...story.item, breaking_since: new Date(b.since).toISOString() }, regions: b.regions, active });
            await n.cache.publish(INVALIDATE_CHANNEL, JSON.stringify({ feeds: feedsOf({ category: story.item.category, regions: story.regions }), stories: [b.story] }));
          },
        }),
      );
      n.system.spawn(BREAKING_DETECTOR);
      opts.ingest.onStories((stories) => {
        if (stories.length === 0) return;
        for (const s of stories) {
          recent.delete(s.item.story_id);
          recent.set(s.item.story_id, s);
        }
        while (recent.size > STORIES_KEPT) recent.delete(recent.keys().next().value as string);
        events
          .publish({ type: 'stories', stories: stories.map((s) => ({ item: s.item, regions: s.regions })) })
          .catch((err: unknown) => n.log.warn({ err: describeError(err) }, 'live story event not published'));
        try {
          n.system.send<BreakingMsg>(BREAKING_DETECTOR, { type: 'stories', stories: stories.map((s) => ({ id: s.item.story_id, regions: s.regions })) });
        } catch (err) {
          n.log.debug({ err: describeError(err) }, 'breaking detector did not take the stories');
        }
      });
    },
    async active() {
      if (!node) return [];
      return (await node.system.ask<BreakingReply, BreakingMsg>(BREAKING_DETECTOR, { type: 'active' })) ?? [];
    },
  };
}
