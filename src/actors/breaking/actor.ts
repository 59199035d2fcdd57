import { defineBehaviour, type ActorContext, type Behaviour } from '../../runtime/actor.js';
import { describeError } from '../../runtime/errors.js';
import type { BreakingRow, RecentArticle } from '../store/breaking.js';
import { affectedRegions, applySpikes, coolDown, type ActiveBreaking } from './breaking-set.js';
import { keysOf, SpikeDetector, type DetectorConfig } from './detect.js';

/**
 * BreakingDetector (`breaking/0`): told which stories the ingest pipeline wrote, it reads their
 * recent articles, counts them in sliding windows (detect.ts) and keeps the set of breaking
 * stories (breaking-set.ts). A story that starts breaking is saved, announced (WebSocket topics
 * `breaking` and `breaking:{region}`, feed caches invalidated) and the publishers likely to
 * cover it (acceleration.ts) are polled faster for a while; it cools down after `cooldownMs` without a spike.
 * Effects and the clock are injected; `init` reloads the active set, so a restart neither forgets
 * nor re-announces a breaking story.
 */

export type BreakingMsg =
  /** stories just written, with the editions that carry them */
  | { type: 'stories'; stories: { id: string; regions: string[] }[] }
  /** count the pending stories' articles and look for spikes (a timer) */
  | { type: 'flush' }
  /** prune old counts, cool stories down (a timer) */
  | { type: 'tick' }
  /** the active set, newest first */
  | { type: 'active' };

export type BreakingReply = ActiveBreaking[] | undefined;

export const BREAKING_DETECTOR = 'breaking/0';

export interface BreakingConfig extends DetectorConfig {
  cooldownMs: number;
  accelerateMs: number;
  accelerateIntervalMs: number;
  /** stories are counted this long after they were written, together (default 500 ms) */
  flushMs?: number;
  /** cool-down checks and pruning (default 30 s) */
  tickMs?: number;
  /** ended stories are kept this long in the table (default 7 days) */
  keepEndedMs?: number;
}

export interface BreakingDeps {
  cfg: BreakingConfig;
  now(): number;
  /** articles of these stories published since `since` */
  loadArticles(storyIds: string[], since: number): Promise<RecentArticle[]>;
  loadActive(): Promise<BreakingRow[]>;
  /**
   * the articles stored since `since` (newest first, at most `limit`), counted again by a
   * detector that starts (a restart, or a node taking the breaking shard over), so a burst under
   * way is not forgotten
   */
  loadRecent?(since: number, limit: number): Promise<RecentArticle[]>;
  save(rows: BreakingRow[]): Promise<void>;
  end(storyIds: string[], at: number): Promise<void>;
  pruneEnded(before: number): Promise<void>;
  /** the edition of an ISO place code */
  regionOfPlace(place: string): string;
  /** polls the publishers likely to cover this story (of these editions or its topic) faster until `until`; how many were told */
  accelerate(regions: string[], intervalMs: number, until: number, story: string): Promise<number>;
  /** tells subscribers and feed caches that a story started (`active`) or stopped breaking */
  announce(b: ActiveBreaking, active: boolean): Promise<void>;
}

export interface BreakingState {
  detector: SpikeDetector;
  active: Map<string, ActiveBreaking>;
  /** story -> editions, from the stories messages (bounded) */
  regions: Map<string, string[]>;
  pending: Set<string>;
  flushScheduled: boolean;
  /** when each active story's row was last written */
  savedAt: Map<string, number>;
  /** rising stories whose publishers were accelerated early, and when (bounded, pruned on tick) */
  early: Map<string, number>;
}

const REGIONS_KEPT = 50_000;
const RETRY_MS = 5_000;
const SAVE_EVERY_MS = 60_000;

function toRow(b: ActiveBreaking): BreakingRow {
  return {
    story_id: b.story, since: b.since, last_spike_at: b.lastSpikeAt, ended_at: null, regions: b.regions,
    signal: b.spike.key, articles: b.spike.articles, publishers: b.spike.publishers, baseline: b.spike.baseline,
  };
}

function observe(detector: SpikeDetector, a: RecentArticle, now: number): void {
  const places = Array.isArray(a.places) ? a.places : [];
  const keys = keysOf(Array.isArray(a.entities) ? a.entities : [], places);
  detector.observe({ id: a.id, story: a.story_id, publisher: a.publisher_id, at: Math.min(a.published_at, a.ingested_at), keys }, now);
}

export function breakingBehaviour(deps: BreakingDeps): Behaviour<BreakingState, BreakingMsg> {
  const cfg = deps.cfg;
  const flushMs = cfg.flushMs ?? 500;
  const tickMs = cfg.tickMs ?? 30_000;
  const horizon = cfg.windowMs + cfg.baselineMs + cfg.bucketMs;

  async function flush(state: BreakingState, ctx: ActorContext): Promise<void> {
    state.flushScheduled = false;
    if (state.pending.size === 0) return;
    const ids = [...state.pending];
    state.pending.clear();
    const now = deps.now();
    for (const a of await deps.loadArticles(ids, now - horizon)) observe(state.detector, a, now);
    const { spikes, rising } = state.detector.evaluateAll(now);
    // a story halfway to a spike: the publishers likely to cover it are polled faster already, so
    // the rest of a burst on polled feeds arrives within a minute or so instead of their next poll
    for (const story of rising) {
      if (state.active.has(story) || state.early.has(story)) continue;
      state.early.set(story, now);
      if (state.early.size > REGIONS_KEPT) state.early.delete(state.early.keys().next().value as string);
      const regions = state.regions.get(story) ?? [];
      const affected = await affectedBy({ story, regions }, now).catch(() => regions);
      await deps.accelerate(affected, cfg.accelerateIntervalMs, now + cfg.accelerateMs, story).then(
        (n) => ctx.log.info({ story_id: story, regions: affected, publishers: n }, 'publishers accelerated early: a story is rising'),
        (err: unknown) => ctx.log.warn({ err: describeError(err), story_id: story }, 'accelerating publishers failed'),
      );
    }
    if (spikes.length === 0) return;
    const outcome = applySpikes(state.active, spikes, now, (id) => state.regions.get(id) ?? []);
    // a story keeps spiking while it breaks: its row is rewritten at most once a minute
    const changed = [...outcome.started, ...outcome.refreshed.filter((b) => now - (state.savedAt.get(b.story) ?? 0) >= SAVE_EVERY_MS)];
    try {
      await deps.save(changed.map(toRow));
      for (const b of changed) state.savedAt.set(b.story, now);
    } catch (err) {
      // not saved, so not announced: the next spike of these stories starts them again
      for (const b of outcome.started) state.active.delete(b.story);
      throw err;
    }
    for (const b of outcome.started) {
      ctx.log.info({ story_id: b.story, signal: b.spike.key, articles: b.spike.articles, publishers: b.spike.publishers, baseline: b.spike.baseline }, 'breaking story');
      const affected = await affectedBy(b, now).catch(() => b.regions);
      await deps.accelerate(affected, cfg.accelerateIntervalMs, now + cfg.accelerateMs, b.story).then(
        (n) => ctx.log.info({ story_id: b.story, regions: affected, publishers: n }, 'publishers accelerated'),
        (err: unknown) => ctx.log.warn({ err: describeError(err), story_id: b.story }, 'accelerating publishers failed'),
      );
      await deps.announce(b, true).catch((err: unknown) => ctx.log.warn({ err: describeError(err), story_id: b.story }, 'breaking announcement failed'));
    }
  }

  /** Where a story that starts breaking happens: the places its articles of the window name. */
  async function affectedBy(b: { story: string; regions: string[] }, now: number): Promise<string[]> {
    const counts = new Map<string, number>();
    const articles = await deps.loadArticles([b.story], now - cfg.windowMs);
    for (const a of articles) for (const p of (Array.isArray(a.places) ? a.places : []).slice(0, 2)) counts.set(p, (counts.get(p) ?? 0) + 1);
    return affectedRegions(counts, articles.length, deps.regionOfPlace, b.regions);
  }

  async function tick(state: BreakingState, ctx: ActorContext): Promise<void> {
    const now = deps.now();
    state.detector.prune(now);
    for (const [id, at] of state.early) if (now - at >= cfg.accelerateMs) state.early.delete(id);
    const ended = coolDown(state.active, now, cfg.cooldownMs);
    if (ended.length > 0) {
      try {
        await deps.end(ended.map((b) => b.story), now);
      } catch (err) {
        for (const b of ended) state.active.set(b.story, b);
        throw err;
      }
      for (const b of ended) {
        state.savedAt.delete(b.story);
        ctx.log.info({ story_id: b.story }, 'breaking story cooled down');
        await deps.announce(b, false).catch((err: unknown) => ctx.log.warn({ err: describeError(err), story_id: b.story }, 'breaking announcement failed'));
      }
    }
    await deps.pruneEnded(now - (cfg.keepEndedMs ?? 7 * 86_400_000));
  }

  return defineBehaviour<BreakingState, BreakingMsg>({
    kind: 'breaking',
    // stories messages only add ids to a set: a full mailbox drops the newest (counted), never blocks ingest
    mailbox: { capacity: 10_000, overflow: 'drop-newest' },
    async init(_key, ctx): Promise<BreakingState> {
      const active = new Map<string, ActiveBreaking>();
      for (const r of await deps.loadActive()) {
        active.set(r.story_id, {
          story: r.story_id, since: r.since, lastSpikeAt: r.last_spike_at, regions: r.regions,
          spike: { story: r.story_id, key: r.signal, articles: r.articles, publishers: r.publishers, baseline: r.baseline },
        });
      }
      ctx.schedule(tickMs, { type: 'tick' }, 'tick');
      const detector = new SpikeDetector(cfg);
      if (deps.loadRecent) {
        const now = deps.now();
        const recent = await deps.loadRecent(now - horizon, cfg.maxArticles).catch((err: unknown) => {
          ctx.log.warn({ err: describeError(err) }, 'recent articles not recounted');
          return [] as RecentArticle[];
        });
        // oldest first, as they arrived; the next flush evaluates what they fill
        for (let i = recent.length - 1; i >= 0; i--) observe(detector, recent[i]!, now);
      }
      return { detector, active, regions: new Map(), pending: new Set(), flushScheduled: false, savedAt: new Map(), early: new Map() };
    },
    async receive(state, msg, ctx): Promise<BreakingReply> {
      switch (msg.type) {
        case 'stories':
          for (const s of msg.stories) {
            state.pending.add(s.id);
            state.regions.delete(s.id);
            state.regions.set(s.id, s.regions);
          }
          while (state.regions.size > REGIONS_KEPT) state.regions.delete(state.regions.keys().next().value as string);
          if (!state.flushScheduled && state.pending.size > 0) {
            state.flushScheduled = true;
            ctx.schedule(flushMs, { type: 'flush' }, 'flush');
          }
          return undefined;
        case 'flush': {
          // a failure (the database away) keeps the stories for a later try instead of restarting
          // the actor, which would forget every count
          const ids = [...state.pending];
          try {
            await flush(state, ctx);
          } catch (err) {
            ctx.log.warn({ err: describeError(err), stories: ids.length }, 'breaking detection failed; retrying');
            for (const id of ids) state.pending.add(id);
            state.flushScheduled = true;
            ctx.schedule(RETRY_MS, { type: 'flush' }, 'flush');
          }
          return undefined;
        }
        case 'tick':
          try {
            await tick(state, ctx);
          } catch (err) {
            ctx.log.warn({ err: describeError(err) }, 'breaking cool-down failed; retrying');
          }
          ctx.schedule(tickMs, { type: 'tick' }, 'tick');
          return undefined;
        case 'active':
          return [...state.active.values()].sort((a, b) => b.since - a.since);
      }
    },
  });
}
