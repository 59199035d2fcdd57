import { planAcceleration } from '../actors/breaking/acceleration.js';
import { BREAKING_DETECTOR, breakingBehaviour, type BreakingMsg, type BreakingReply } from '../actors/breaking/actor.js';
import type { ActiveBreaking } from '../actors/breaking/breaking-set.js';
import { regionForCountry } from '../actors/enrich/gazetteer.js';
import type { PublisherMsg } from '../actors/publisher/actor.js';
import { activeBreaking, coverageCandidates, endBreaking, pruneBreaking, recentArticles, recentStoryArticles, upsertBreaking } from '../actors/store/breaking.js';
import { INVALIDATE_CHANNEL } from '../actors/store/feed-cache.js';
import { feedsOf, storyKey, type CachedStory } from '../actors/store/feed-items.js';
import { liveEventsFor } from '../actors/store/live-events.js';
import type { Component, Node } from '../node.js';
import type { Route } from '../runtime/system.js';
import { describeError } from '../runtime/errors.js';
import { askVia, type ClusterComponent } from './cluster.js';
import type { IngestComponent } from './ingest.js';

/** Most publishers accelerated for one breaking story. */
const ACCELERATE_MAX = 500;
/** How far back a publisher's coverage of a region or topic makes it a candidate for acceleration. */
const COVERAGE_LOOKBACK_MS = 86_400_000;
/** Stories remembered for announcements (the last written version of each). */
const STORIES_KEPT = 20_000;

/**
 * Live events and breaking news on the nodes that write stories: every written batch becomes a
 * `stories` live event (WebSocket story updates on every API node) and goes to the
 * BreakingDetector actor, whose effects are wired here: SQL, accelerating publisher actors,
 * breaking live events and feed-cache invalidation.
 *
 * In a cluster the detector is one shard (kind `breaking`) owned by one process node: every
 * process node tells it the stories it wrote, so it counts the whole fleet's articles and a burst
 * spread over three nodes is one burst, flagged once. Its owner learns the stories other nodes
 * wrote from their `stories` live events (for the announcement), and a node that takes the shard
 * over reloads the breaking set from the store and recounts the recent stories (`init`).
 */
export function breakingComponent(opts: {
  ingest: IngestComponent;
  now?: () => number;
  /** delivers a message to a publisher's actor wherever it runs (a cluster); default: this node's actors */
  tellPublisher?: () => ((id: string, msg: PublisherMsg) => void) | null;
  /** the cluster (server mode): the detector runs on the owner of the `breaking` shard */
  cluster?: ClusterComponent;
  /** the fetcher's minimum time between two requests to one host (default 1 s) */
  hostMinIntervalMs?: () => number;
}): Component & { active(): Promise<ActiveBreaking[]> } {
  let node: Node | null = null;
  /** where the detector's messages go: this node's system, or the shard owner's in a cluster */
  let detector: Route | null = null;
  let unsubscribe: (() => Promise<void>) | null = null;
  return {
    name: 'breaking',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const now = opts.now ?? Date.now;
      const events = liveEventsFor(n.cache, n.broadcast, n.log);
      const recent = new Map<string, CachedStory>();
      const remember = (s: { item: CachedStory['item']; regions: string[] }) => {
        const known = recent.get(s.item.story_id);
        recent.delete(s.item.story_id);
        recent.set(s.item.story_id, known ? { ...known, item: s.item, regions: s.regions } : { item: s.item, regions: s.regions, publisher_id: '', score: 0 } as CachedStory);
        while (recent.size > STORIES_KEPT) recent.delete(recent.keys().next().value as string);
      };
      const accelerated = n.metrics.counter('newsagg_breaking_accelerated_total', 'Publishers told to poll faster because a story they likely cover started breaking');
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
            earlyShare: cfg.breakingEarlyShare,
            cooldownMs: cfg.breakingCooldownMinutes * 60_000,
            accelerateMs: cfg.breakingAccelerateMinutes * 60_000,
            accelerateIntervalMs: cfg.breakingAccelerateIntervalSeconds * 1000,
            tickMs: Math.min(30_000, cfg.breakingCooldownMinutes * 15_000),
          },
          now,
          loadArticles: (ids, since) => recentStoryArticles(n.sql, ids, since),
          loadActive: () => activeBreaking(n.sql),
          loadRecent: (since, limit) => recentArticles(n.sql, since, limit),
          save: (rows) => upsertBreaking(n.sql, rows),
          end: (ids, at) => endBreaking(n.sql, ids, at),
          pruneEnded: async (before) => void (await pruneBreaking(n.sql, before)),
          regionOfPlace: (place) => regionForCountry(place),
          accelerate: async (regions, intervalMs, until, storyId) => {
            const at = now();
            const story = await storyOf(storyId).catch(() => null);
            const candidates = await coverageCandidates(n.sql, regions, story?.item.category ?? null, at - COVERAGE_LOOKBACK_MS);
            const orders = planAcceleration(candidates, at, {
              intervalMs, durationMs: until - at, max: ACCELERATE_MAX, hostMinIntervalMs: opts.hostMinIntervalMs?.() ?? 1_000,
            });
            let told = 0;
            const tell = opts.tellPublisher?.() ?? null;
            for (const o of orders) {
              // publisher actors of this node (or of their owners in a cluster); none here and no cluster: nothing to tell
              if (!tell && !n.system.hosts('publisher')) break;
              try {
                const msg: PublisherMsg = { type: 'accelerate', intervalMs: o.intervalMs, until: o.until };
                if (tell) tell(o.id, msg);
                else n.system.send<PublisherMsg>(`publisher/${o.id}`, msg);
                told++;
              } catch (err) {
                n.log.debug({ err: describeError(err), publisher_id: o.id }, 'accelerate not delivered');
              }
            }
            accelerated.inc(told);
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
      const wiring = opts.cluster?.get() ?? null;
      if (wiring) {
        const sys = n.system;
        detector = wiring.route('breaking', 'breaking', sys, {
          // the detector reloads the breaking set and recounts the recent stories in `init`: ready once it answers
          acquired: async () => void (await sys.ask<BreakingReply, BreakingMsg>(BREAKING_DETECTOR, { type: 'active' }, 300_000)),
          released: () => sys.stop(BREAKING_DETECTOR),
        }, () => 0);
        // stories written by the other process nodes, for the owner's announcements
        unsubscribe = await events.subscribe((e) => {
          if (e.type === 'stories') for (const s of e.stories) remember(s);
        });
      } else {
        detector = n.system;
        n.system.spawn(BREAKING_DETECTOR);
      }
      const to = detector;
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
        // an ask, so a message that meets the shard moving is delivered to its new owner
        askVia<BreakingReply, BreakingMsg>(to, BREAKING_DETECTOR, { type: 'stories', stories: stories.map((s) => ({ id: s.item.story_id, regions: s.regions })) })
          .catch((err: unknown) => n.log.debug({ err: describeError(err) }, 'breaking detector did not take the stories'));
      });
    },
    async stop() {
      await unsubscribe?.().catch(() => undefined);
      unsubscribe = null;
    },
    async active() {
      if (!node || !detector) return [];
      return (await askVia<BreakingReply, BreakingMsg>(detector, BREAKING_DETECTOR, { type: 'active' })) ?? [];
    },
  };
}
