import type { Cache } from '../../runtime/cache.js';
import { describeError, isOutage } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import { FEED_KEEP, INVALIDATE_CHANNEL } from './feed-cache.js';
import { CATEGORIES, REGIONS, feedKey } from './feed-items.js';
import { rankedStoriesByFeed } from './stories.js';

/**
 * The feed cache's epoch: a sorted set written in the same MULTI as a full rebuild of every
 * feed, holding a marker and the key of every feed that rebuild left non-empty. A Redis that
 * restarted without persistence, was flushed, or evicted keys is told apart from a quiet one by
 * it: no epoch means the cache lost everything since; an epoch whose feeds are not all there
 * means keys were lost. Either way every feed is rebuilt from PostgreSQL, merged with what
 * ingest wrote meanwhile (a feed refilled by three new stories is not mistaken for a full one).
 */
export const EPOCH_KEY = 'feed:epoch';
const MARKER = '@built';

/** Every feed a story can be in: each edition (and `global`) × `top` and each category. */
export function allFeedKeys(): string[] {
  const out: string[] = [];
  for (const r of ['global', ...REGIONS]) for (const c of ['top', ...CATEGORIES]) out.push(feedKey(r, c));
  return out;
}

/** Why the cache needs a rebuild, or null when it holds what the last rebuild put there. */
export async function epochProblem(cache: Cache): Promise<'no-epoch' | 'keys-lost' | null> {
  const epoch = await cache.zrevrangebyscore(EPOCH_KEY, Infinity, -Infinity);
  if (epoch.length === 0) return 'no-epoch';
  const feeds = epoch.map((m) => m.member).filter((m) => m !== MARKER);
  if (feeds.length > 0 && (await cache.exists(...feeds)) < feeds.length) return 'keys-lost';
  return null;
}

/**
 * Rebuilds every feed sorted set from PostgreSQL (one statement for all feeds, so an embedded
 * database busy with ingest is waited for once), then writes them and the new epoch in one MULTI
 * (all or nothing: a cache that dies halfway shows no epoch and is rebuilt again). Returns how
 * many feeds hold stories.
 */
export async function rebuildFeeds(sql: Sql, cache: Cache, now: number): Promise<number> {
  const feeds = ['global', ...REGIONS].flatMap((region) => ['top', ...CATEGORIES].map((category) => ({ region, category })));
  const ranked = await rankedStoriesByFeed(sql, feeds, FEED_KEEP);
  const sets: { key: string; members: { member: string; score: number }[] }[] = [];
  for (const { region, category } of feeds) {
    const rows = ranked.get(`${region}:${category}`);
    if (rows && rows.length > 0) sets.push({ key: feedKey(region, category), members: rows.map((x) => ({ member: x.id, score: x.score })) });
  }
  const epoch = [{ member: MARKER, score: now }, ...sets.map((s) => ({ member: s.key, score: now }))];
  await cache.zaddTrimMany([...sets, { key: EPOCH_KEY, members: epoch }], FEED_KEEP);
  await cache.publish(INVALIDATE_CHANNEL, JSON.stringify({ feeds: sets.map((s) => s.key), stories: [] }));
  return sets.length;
}

export interface FeedCacheGuardOptions {
  sql: Sql;
  cache: Cache;
  log?: Logger;
  /** how often the epoch is checked (default 2 s) */
  everyMs?: number;
  now?: () => number;
  /** told after a rebuild (the API drops its rendered pages) */
  onRebuilt?: () => void;
}

/**
 * Watches the feed cache's epoch and rebuilds every feed when it is missing or incomplete: at
 * start (an in-process cache always starts empty), and within `everyMs` of Redis coming back
 * empty. While a rebuild runs, `rebuilding` is true and readers should rank from PostgreSQL.
 */
export class FeedCacheGuard {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly log: Logger;
  private readonly now: () => number;
  private stopped = false;
  private busy = false;
  private failing = false;

  constructor(private readonly o: FeedCacheGuardOptions) {
    this.log = o.log ?? silentLogger;
    this.now = o.now ?? Date.now;
  }

  get rebuilding(): boolean {
    return this.busy;
  }

  /** Checks once now (a rebuild it starts runs on), then every `everyMs`. */
  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.o.everyMs ?? 2_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One check (and rebuild when needed); resolves when done. Never rejects. */
  check(): Promise<void> {
    this.running ??= this.checkOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkOnce(): Promise<void> {
    if (this.stopped) return;
    let problem: Awaited<ReturnType<typeof epochProblem>>;
    try {
      problem = await epochProblem(this.o.cache);
    } catch {
      return; // the cache is away: its adapter says so; checked again when it is back
    }
    if (problem === null) return;
    const started = this.now();
    this.busy = true;
    try {
      const feeds = await rebuildFeeds(this.o.sql, this.o.cache, started);
      this.failing = false;
      this.o.onRebuilt?.();
      this.log.info({ reason: problem, feeds, ms: this.now() - started }, 'feed cache rebuilt from the database');
    } catch (err) {
      // a backing service that is away is reported by its adapter; anything else once per streak
      const quiet = isOutage(err) || this.failing;
      this.failing = true;
      this.log[quiet ? 'debug' : 'warn']({ reason: problem, err: describeError(err) }, 'feed cache rebuild failed; trying again shortly');
      return;
    } finally {
      this.busy = false;
    }
  }
}
