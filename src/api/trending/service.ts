import { INVALIDATE_CHANNEL } from '../../actors/store/feed-cache.js';
import { listedItem } from '../../actors/store/feed-items.js';
import { trendingStories } from '../../actors/store/trending.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import type { FeedService } from '../feed.js';
import { etagOf, type HotEntry } from '../hot-cache.js';
import { FEED_REGIONS } from '../params.js';
import { DEFAULT_TRENDING, topByRegion, trendScores, type TrendingPolicy } from './score.js';

/** Stories kept per edition (the largest `limit`). */
export const TRENDING_MAX = 50;

export interface TrendingOptions {
  sql: Sql;
  cache: Cache;
  feed: FeedService;
  log?: Logger;
  now?: () => number;
  /** recomputation period (default 60 s) */
  intervalMs?: number;
  /** how far back signals are read (default 24 h) */
  windowMs?: number;
  policy?: TrendingPolicy;
  /**
   * Stories written (the feed invalidation events of any node) bring the next recomputation
   * forward, to no sooner than this after the last one began (default 5 s; more when a
   * recomputation is slow: at least 100 times its duration), so a new node's trending fills
   * seconds after its first stories rather than a whole interval later.
   */
  minGapMs?: number;
  /** how long a rendered page is served before its items are read again (default 5 s, as feed pages; sooner when one of its stories is written) */
  pageTtlMs?: number;
}

interface Edition {
  /** the trending stories, best first */
  trends: { id: string; score: number }[];
  /** rendered bodies by limit */
  pages: Map<number, HotEntry>;
  /** renders in flight by limit (concurrent requests share one) */
  rendering?: Map<number, Promise<HotEntry>>;
  /** bumped when its stories are written: a render begun before is not kept */
  gen?: number;
}

/**
 * `GET /v1/trending`: per edition, the stories trending now (score.ts), recomputed on a schedule
 * from the database, and sooner after stories are written (see `minGapMs`). Which stories trend
 * is kept in memory; their items are read from the same story entries as feed pages (so a
 * story's coverage count in the trending list is the one its card shows) and kept rendered for
 * a few seconds, like feed pages. Each run also writes `trending:{region}` to the cache for other
 * consumers. A request before the first run waits for it.
 */
export class TrendingService {
  private editions = new Map<string, Edition>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private lastRunAt = -Infinity;
  private stopped = false;
  private readonly now: () => number;
  private readonly log: Logger;
  /** duration of the last recomputation, ms */
  lastRunMs = 0;

  constructor(private readonly o: TrendingOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? silentLogger;
  }

  /** Recompute now (in the background), then every interval, and sooner after stories are written. */
  start(): void {
    this.stopped = false;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.o.intervalMs ?? 60_000);
    this.timer.unref();
    this.o.cache.subscribe(INVALIDATE_CHANNEL, (m) => this.written(m)).then(
      (off) => {
        if (this.stopped) void off().catch(() => {});
        else this.unsubscribe = off;
      },
      (err: unknown) => this.log.warn({ err: describeError(err) }, 'trending: story events unavailable; recomputed on its interval only'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = this.soon = null;
    await this.unsubscribe?.().catch(() => {});
    this.unsubscribe = null;
    await this.running?.catch(() => {});
  }

  private tick(): void {
    this.recompute().catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'trending recomputation failed'));
  }

  /**
   * Stories were written somewhere (an invalidation event, `{feeds, stories}`): pages showing one
   * of them are rendered again on their next request (the counts their cards show changed), and a
   * recomputation is brought forward.
   */
  private written(message: string): void {
    let ids: unknown;
    try {
      ids = (JSON.parse(message) as { stories?: unknown }).stories;
    } catch {
      ids = null;
    }
    const changed = Array.isArray(ids) ? new Set(ids.filter((x): x is string => typeof x === 'string')) : null;
    for (const e of this.editions.values()) {
      if (changed === null || e.trends.some((t) => changed.has(t.id))) {
        e.pages.clear();
        e.rendering?.clear();
        e.gen = (e.gen ?? 0) + 1;
      }
    }
    this.nudge();
  }

  /** Recompute once the gap since the last run allows (one pending at a time). */
  private nudge(): void {
    if (this.stopped || this.soon !== null) return;
    const gap = Math.max(this.o.minGapMs ?? 5_000, this.lastRunMs * 100);
    const wait = Math.max(0, this.lastRunAt + gap - this.now());
    if (wait >= (this.o.intervalMs ?? 60_000)) return; // the interval comes first anyway
    this.soon = setTimeout(() => {
      this.soon = null;
      if (!this.stopped) this.tick();
    }, wait);
    this.soon.unref();
  }

  /** One recomputation (concurrent callers share it). */
  recompute(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The rendered page for an edition; waits for the first recomputation. */
  page(region: string, limit: number): HotEntry | Promise<HotEntry> {
    const e = this.editions.get(region);
    if (e !== undefined) return this.render(region, e, limit);
    return this.recompute().then(() => this.render(region, this.editions.get(region) ?? { trends: [], pages: new Map() }, limit));
  }

  private render(region: string, e: Edition, limit: number): HotEntry | Promise<HotEntry> {
    const page = e.pages.get(limit);
    if (page !== undefined && this.now() - page.at < (this.o.pageTtlMs ?? 5_000)) return page;
    const inflight = e.rendering?.get(limit);
    if (inflight) return inflight;
    const gen = e.gen ?? 0;
    const rendering = this.items(region, e.trends.slice(0, limit)).then((items) => {
      const body = Buffer.from(`{"items":[${items.join(',')}]}`, 'utf8');
      const fresh = { body, etag: etagOf(body), at: this.now() };
      if ((e.gen ?? 0) === gen) e.pages.set(limit, fresh);
      return fresh;
    }).finally(() => {
      if (e.rendering?.get(limit) === rendering) e.rendering.delete(limit);
    });
    (e.rendering ??= new Map()).set(limit, rendering);
    return rendering;
  }

  /** `FeedItem & {trend_score}` as JSON, from the story entries feed pages read, labelled with the edition. */
  private async items(region: string, trends: readonly { id: string; score: number }[]): Promise<string[]> {
    if (trends.length === 0) return [];
    const stories = new Map((await this.o.feed.stories(trends.map((t) => t.id))).map((s) => [s.item.story_id, s]));
    const out: string[] = [];
    for (const t of trends) {
      const s = stories.get(t.id);
      if (s) out.push(JSON.stringify({ ...listedItem(s, region), trend_score: t.score }));
    }
    return out;
  }

  private async run(): Promise<void> {
    const t0 = performance.now();
    const now = this.now();
    this.lastRunAt = now;
    const policy = this.o.policy ?? DEFAULT_TRENDING;
    const active = await trendingStories(this.o.sql, { since: now - (this.o.windowMs ?? 24 * 3_600_000), until: now }, { velocityMs: policy.velocityHalfLifeMs, clicksMs: policy.clickHalfLifeMs });
    const trends = trendScores(active, now, policy);
    const top = topByRegion(trends, FEED_REGIONS, TRENDING_MAX);
    const next = new Map<string, Edition>();
    for (const [region, list] of top) next.set(region, { trends: list.map((t) => ({ id: t.id, score: t.score })), pages: new Map() });
    this.editions = next;
    this.lastRunMs = performance.now() - t0;
    try {
      const lists = await Promise.all([...next].map(async ([r, e]) => ({ key: `trending:${r}`, value: `[${(await this.items(r, e.trends)).join(',')}]`, ttlMs: 10 * 60_000 })));
      await this.o.cache.mset(lists);
    } catch (err) {
      this.log.debug({ err: describeError(err) }, 'trending not written to the cache');
    }
    this.log.debug({ stories: trends.length, ms: Math.round(this.lastRunMs) }, 'trending recomputed');
  }
}
