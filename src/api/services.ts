import { AuthorityTable } from '../actors/store/authority.js';
import type { Cache } from '../runtime/cache.js';
import { describeError } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Sql } from '../runtime/sql.js';
import type { CursorCodec } from './cursor.js';
import type { FeedService } from './feed.js';
import { PersonalFeed, type BreakingStoryIds } from './personal/service.js';
import { Profiles } from './readers/profiles.js';
import { TrendingService } from './trending/service.js';

export interface ReaderServicesOptions {
  sql: Sql;
  cache: Cache;
  feed: FeedService;
  codec: CursorCodec;
  log?: Logger;
  now?: () => number;
  /** breaking stories per edition, put first on personalised pages (default: none) */
  breaking?: BreakingStoryIds;
  /** trending recomputation period (default 60 s) */
  trendingIntervalMs?: number;
  /** soonest trending recomputation after the last when stories are written (default 5 s) */
  trendingMinGapMs?: number;
  /** publisher authorities reloaded this often (default 10 min) */
  authorityRefreshMs?: number;
  /** reader profiles held in memory (default 200,000) */
  maxProfiles?: number;
}

/** What the reader-facing routes need beyond the feed: profiles, the personalised feed, trending, authorities. */
export interface ReaderServices {
  profiles: Profiles;
  personal: PersonalFeed;
  trending: TrendingService;
  authority: AuthorityTable;
  stop(): Promise<void>;
}

/** Builds and starts them (subscriptions, the trending schedule, the authority table). */
export async function startReaderServices(o: ReaderServicesOptions): Promise<ReaderServices> {
  const log = o.log ?? silentLogger;
  const authority = new AuthorityTable(o.sql);
  await authority.load().catch((err: unknown) => log.warn({ err: describeError(err) }, 'publisher authorities not loaded; using defaults'));
  const profiles = new Profiles({ sql: o.sql, cache: o.cache, log, ...(o.maxProfiles ? { max: o.maxProfiles } : {}) });
  await profiles.start();
  const personal = new PersonalFeed({
    feed: o.feed, sql: o.sql, codec: o.codec, authority: authority.get, log,
    ...(o.now ? { now: o.now } : {}), ...(o.breaking ? { breaking: o.breaking } : {}),
  });
  const trending = new TrendingService({
    sql: o.sql, cache: o.cache, feed: o.feed, log, ...(o.now ? { now: o.now } : {}),
    ...(o.trendingIntervalMs ? { intervalMs: o.trendingIntervalMs } : {}),
    ...(o.trendingMinGapMs !== undefined ? { minGapMs: o.trendingMinGapMs } : {}),
  });
  trending.start();
  const refresh = setInterval(() => {
    authority.load().catch((err: unknown) => log.warn({ err: describeError(err) }, 'publisher authorities not reloaded'));
  }, o.authorityRefreshMs ?? 10 * 60_000);
  refresh.unref();
  return {
    profiles,
    personal,
    trending,
    authority,
    async stop() {
      clearInterval(refresh);
      await trending.stop();
      await profiles.stop();
    },
  };
}
