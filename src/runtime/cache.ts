import { NewsaggError } from './errors.js';
import type { Logger } from './log.js';

/**
 * The feed cache: what a news feed needs from Redis, and nothing more, so an in-process
 * implementation can stand in for it in embedded mode. Values are strings (callers encode).
 * Sorted sets follow Redis semantics exactly, including ties: equal scores order by member,
 * byte-wise (descending in `zrevrangebyscore`).
 */
export interface ScoredMember {
  member: string;
  score: number;
}

export interface RangeOptions {
  /** exclude members whose score equals `max` (Redis `(max`), for score cursors */
  maxExclusive?: boolean;
  /** exclude members whose score equals `min` */
  minExclusive?: boolean;
  offset?: number;
  /** at most this many members (default: all) */
  limit?: number;
}

export type Unsubscribe = () => Promise<void>;

export interface Cache {
  readonly mode: 'redis' | 'memory';

  get(key: string): Promise<string | null>;
  /** `ttlMs` > 0 sets an expiry; absent = no expiry */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** number of keys that existed */
  del(...keys: string[]): Promise<number>;
  /** how many of the keys exist (a key named twice counts twice, as in Redis) */
  exists(...keys: string[]): Promise<number>;
  /** sets a time to live on an existing key; false when the key does not exist */
  expire(key: string, ttlMs: number): Promise<boolean>;

  hget(key: string, field: string): Promise<string | null>;
  hset(key: string, fields: Readonly<Record<string, string>>): Promise<void>;
  /** `{}` when the key does not exist */
  hgetall(key: string): Promise<Record<string, string>>;

  /** adds or updates members; returns how many were new */
  zadd(key: string, members: readonly ScoredMember[]): Promise<number>;
  zrem(key: string, members: readonly string[]): Promise<number>;
  /** highest score first, between `max` and `min` inclusive unless told otherwise */
  zrevrangebyscore(key: string, max: number, min: number, opts?: RangeOptions): Promise<ScoredMember[]>;
  zscore(key: string, member: string): Promise<number | null>;
  zcard(key: string): Promise<number>;
  /** removes by rank, lowest score = rank 0; negative ranks count from the top (-1 = highest) */
  zremrangebyrank(key: string, start: number, stop: number): Promise<number>;

  // Batch helpers: one round trip for many keys, so callers never build pipelines themselves.
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  mset(entries: readonly { key: string; value: string; ttlMs?: number }[]): Promise<void>;
  hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]>;
  /** adds to one sorted set and trims it to its `keep` highest-scored members */
  zaddTrim(key: string, members: readonly ScoredMember[], keep: number): Promise<void>;
  /** `zaddTrim` for many sorted sets in one round trip, all applied together */
  zaddTrimMany(sets: readonly { key: string; members: readonly ScoredMember[] }[], keep: number): Promise<void>;

  /** invalidation events; delivered to every subscriber of the channel, including in this process */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /**
   * Told when messages of every channel may have been missed (the link carrying them was away and
   * is back), so holders of state kept fresh only by events drop it. Absent: the cache cannot tell.
   */
  onGap?(fn: () => void): () => void;

  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A cache command failed (Redis down, reconnecting): callers fall back to the database. */
export class CacheUnavailableError extends NewsaggError {
  constructor(detail: string, cause?: unknown) {
    super('CACHE_UNAVAILABLE', `cache unavailable: ${detail}`, { cause });
  }
}

/** Opens Redis when a URL is given, else the in-process cache. Unreachable Redis → DependencyUnavailableError. */
export async function openCache(opts: { redisUrl?: string | undefined; log?: Logger; prefix?: string; now?: () => number }): Promise<Cache> {
  if (opts.redisUrl !== undefined) {
    const { openRedisCache } = await import('./cache-redis.js');
    return openRedisCache({ url: opts.redisUrl, ...(opts.log ? { log: opts.log } : {}), ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}) });
  }
  const { MemoryCache } = await import('./cache-memory.js');
  return new MemoryCache(opts.now ? { now: opts.now } : {});
}
