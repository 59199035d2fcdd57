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
}

interface Edition {
  /** `FeedItem & {trend_score}` as JSON, best first */
  items: string[];
  /** rendered bodies by limit */
  pages: Map<number, HotEntry>;
}

/**
 * `GET /v1/trending`: per edition, the stories trending now (score.ts), recomputed on a schedule
 * from the database and kept rendered in memory; each run also writes `trending:{region}` to the
 * cache for other consumers. A request before the first run waits for it.
 */
export class TrendingService {
  private editions = new Map<string, Edition>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly log: Logger;
  /** duration of the last recomputation, ms */
  lastRunMs = 0;

  constructor(private readonly o: TrendingOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? silentLogger;
  }

  /** Recompute now (in the background) and then every interval. */
  start(): void {
    const tick = () => {
      this.recompute().catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'trending recomputation failed'));
    };
    tick();
    this.timer = setInterval(tick, this.o.intervalMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
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
    if (e !== undefined) return this.render(e, limit);
    return this.recompute().then(() => this.render(this.editions.get(region) ?? { items: [], pages: new Map() }, limit));
  }

  private render(e: Edition, limit: number): HotEntry {
    let page = e.pages.get(limit);
    if (page === undefined) {
      const body = Buffer.from(`{"items":[${e.items.slice(0, limit).join(',')}]}`, 'utf8');
      page = { body, etag: etagOf(body), at: this.now() };
      e.pages.set(limit, page);
    }
    return page;
  }

  private async run(): Promise<void> {
    const t0 = performance.now();
    const now = this.now();
    const policy = this.o.policy ?? DEFAULT_TRENDING;
    const active = await trendingStories(this.o.sql, { since: now - (this.o.windowMs ?? 24 * 3_600_000), until: now }, { velocityMs: policy.velocityHalfLifeMs, clicksMs: policy.clickHalfLifeMs });
    const trends = trendScores(active, now, policy);
    const top = topByRegion(trends, FEED_REGIONS, TRENDING_MAX);
    const ids = [...new Set([...top.values()].flatMap((l) => l.map((t) => t.id)))];
    const stories = new Map((await this.o.feed.stories(ids)).map((s) => [s.item.story_id, s]));
    const next = new Map<string, Edition>();
    for (const [region, list] of top) {
      const items: string[] = [];
      for (const t of list) {
        const s = stories.get(t.id);
        if (s) items.push(JSON.stringify({ ...s.item, trend_score: t.score }));
      }
      next.set(region, { items, pages: new Map() });
    }
    this.editions = next;
    this.lastRunMs = performance.now() - t0;
    try {
      await this.o.cache.mset([...next].map(([r, e]) => ({ key: `trending:${r}`, value: `[${e.items.join(',')}]`, ttlMs: 10 * 60_000 })));
    } catch (err) {
      this.log.debug({ err: describeError(err) }, 'trending not written to the cache');
    }
    this.log.debug({ stories: trends.length, ms: Math.round(this.lastRunMs) }, 'trending recomputed');
  }
}
