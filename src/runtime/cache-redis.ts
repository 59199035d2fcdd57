import { Redis } from 'ioredis';
import { CacheUnavailableError, type Cache, type RangeOptions, type ScoredMember, type Unsubscribe } from './cache.js';
import { checkTtl } from './cache-memory.js';
import { DependencyUnavailableError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { OutageLog } from './outage.js';

/**
 * The Redis cache (ioredis). Commands fail fast while Redis is away (no offline queue, one retry)
 * so the API can fall back to PostgreSQL instead of queueing requests; the client reconnects on
 * its own and pub/sub channels are resubscribed. Keys and channels carry an optional prefix, so
 * tests and several deployments can share one Redis.
 */
export interface RedisCacheOptions {
  url: string;
  prefix?: string;
  log?: Logger;
  connectTimeoutMs?: number;
}

const fmt = (n: number): string => (n === Infinity ? '+inf' : n === -Infinity ? '-inf' : String(n));

function parseScore(s: string): number {
  if (s === 'inf' || s === '+inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return Number(s);
}

/** A URL safe to log: never the password. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}

/** Connects to Redis; an unreachable server at start → DependencyUnavailableError. */
export async function openRedisCache(opts: RedisCacheOptions): Promise<RedisCache> {
  const log = opts.log ?? silentLogger;
  let lastError: unknown;
  let connected = false;
  const outage = new OutageLog(`Redis at ${safeUrl(opts.url)}`, log);
  const client = new Redis(opts.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: opts.connectTimeoutMs ?? 3000,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  // while Redis is down every reconnection attempt errors: one line when it goes, one when it is back
  client.on('error', (err) => {
    lastError = err;
    if (connected) outage.failed(err);
  });
  // (not 'close': a quit at shutdown closes too, and is no outage)
  client.on('reconnecting', () => {
    if (connected) outage.failed(lastError ?? new Error('connection lost'));
  });
  client.on('ready', () => outage.ok());
  try {
    await client.connect();
    connected = true;
  } catch (err) {
    client.disconnect();
    const cause = lastError ?? err;
    throw new DependencyUnavailableError(`Redis at ${safeUrl(opts.url)}`, describeError(cause).replace(/^Error: /, ''), cause);
  }
  return new RedisCache(client, opts.prefix ?? '', log);
}

export class RedisCache implements Cache {
  readonly mode = 'redis' as const;
  private sub: Promise<Redis> | undefined;
  private subClient: Redis | undefined;
  private readonly channels = new Map<string, { handlers: Set<(message: string) => void>; ready: Promise<void> }>();

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  private k(key: string): string {
    return this.prefix + key;
  }

  /** Server replies (WRONGTYPE...) pass through; anything else means Redis is not there. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if ((err as Error)?.name === 'ReplyError') throw err;
      throw new CacheUnavailableError(describeError(err), err);
    }
  }

  private async exec(p: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
    const res = (await this.call(() => p.exec())) ?? [];
    return res.map(([err, v]) => {
      if (err) throw err;
      return v;
    });
  }

  get(key: string) {
    return this.call(() => this.client.get(this.k(key)));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkTtl(ttlMs);
    await this.call(() => (ttlMs === undefined ? this.client.set(this.k(key), value) : this.client.set(this.k(key), value, 'PX', Math.ceil(ttlMs))));
  }

  async del(...keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return this.call(() => this.client.del(...keys.map((k) => this.k(k))));
  }

  async exists(...keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return this.call(() => this.client.exists(...keys.map((k) => this.k(k))));
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return (await this.call(() => this.client.pexpire(this.k(key), Math.ceil(ttlMs)))) === 1;
  }

  hget(key: string, field: string) {
    return this.call(() => this.client.hget(this.k(key), field));
  }

  async hset(key: string, fields: Readonly<Record<string, string>>): Promise<void> {
    if (Object.keys(fields).length === 0) return;
    await this.call(() => this.client.hset(this.k(key), fields));
  }

  hgetall(key: string) {
    return this.call(() => this.client.hgetall(this.k(key)));
  }

  async zadd(key: string, members: readonly ScoredMember[]): Promise<number> {
    if (members.length === 0) return 0;
    const args = members.flatMap((m) => [fmt(m.score), m.member]);
    return Number(await this.call(() => this.client.zadd(this.k(key), ...args)));
  }

  async zrem(key: string, members: readonly string[]): Promise<number> {
    if (members.length === 0) return 0;
    return this.call(() => this.client.zrem(this.k(key), ...members));
  }

  async zrevrangebyscore(key: string, max: number, min: number, opts: RangeOptions = {}): Promise<ScoredMember[]> {
    const hi = (opts.maxExclusive ? '(' : '') + fmt(max);
    const lo = (opts.minExclusive ? '(' : '') + fmt(min);
    const limited = opts.limit !== undefined || (opts.offset ?? 0) > 0;
    const flat = await this.call(() =>
      limited
        ? this.client.zrevrangebyscore(this.k(key), hi, lo, 'WITHSCORES', 'LIMIT', Math.max(0, opts.offset ?? 0), opts.limit ?? -1)
        : this.client.zrevrangebyscore(this.k(key), hi, lo, 'WITHSCORES'),
    );
    const out: ScoredMember[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ member: flat[i]!, score: parseScore(flat[i + 1]!) });
    return out;
  }

  async zscore(key: string, member: string): Promise<number | null> {
    const s = await this.call(() => this.client.zscore(this.k(key), member));
    return s === null ? null : parseScore(s);
  }

  zcard(key: string) {
    return this.call(() => this.client.zcard(this.k(key)));
  }

  zremrangebyrank(key: string, start: number, stop: number) {
    return this.call(() => this.client.zremrangebyrank(this.k(key), start, stop));
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return this.call(() => this.client.mget(...keys.map((k) => this.k(k))));
  }

  async mset(entries: readonly { key: string; value: string; ttlMs?: number }[]): Promise<void> {
    if (entries.length === 0) return;
    for (const e of entries) checkTtl(e.ttlMs);
    const p = this.client.pipeline();
    for (const e of entries) {
      if (e.ttlMs === undefined) p.set(this.k(e.key), e.value);
      else p.set(this.k(e.key), e.value, 'PX', Math.ceil(e.ttlMs));
    }
    await this.exec(p);
  }

  async hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]> {
    if (keys.length === 0) return [];
    const p = this.client.pipeline();
    for (const k of keys) p.hgetall(this.k(k));
    return (await this.exec(p)) as Record<string, string>[];
  }

  async zaddTrim(key: string, members: readonly ScoredMember[], keep: number): Promise<void> {
    // MULTI: readers never see the set above its bound
    const m = this.client.multi();
    if (members.length > 0) m.zadd(this.k(key), ...members.flatMap((x) => [fmt(x.score), x.member]));
    m.zremrangebyrank(this.k(key), 0, -keep - 1);
    await this.exec(m);
  }

  async zaddTrimMany(sets: readonly { key: string; members: readonly ScoredMember[] }[], keep: number): Promise<void> {
    if (sets.length === 0) return;
    // one MULTI for every set: one round trip, and readers never see a set above its bound
    const m = this.client.multi();
    for (const { key, members } of sets) {
      if (members.length > 0) m.zadd(this.k(key), ...members.flatMap((x) => [fmt(x.score), x.member]));
      m.zremrangebyrank(this.k(key), 0, -keep - 1);
    }
    await this.exec(m);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.call(() => this.client.publish(this.k(channel), message));
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    const sub = await this.subscriber();
    const name = this.k(channel);
    let ch = this.channels.get(name);
    if (ch === undefined) {
      ch = { handlers: new Set(), ready: this.call(() => sub.subscribe(name)).then(() => {}) };
      this.channels.set(name, ch);
      ch.ready.catch(() => this.channels.delete(name));
    }
    // a second subscriber of the channel also waits, so nothing published after we return is missed
    await ch.ready;
    const wrapped = (m: string) => handler(m);
    ch.handlers.add(wrapped);
    return async () => {
      const c = this.channels.get(name);
      if (c === undefined || !c.handlers.delete(wrapped) || c.handlers.size > 0) return;
      this.channels.delete(name);
      await this.call(() => sub.unsubscribe(name)).catch(() => {});
    };
  }

  /** Subscribing takes a connection over, so pub/sub gets its own, opened on first use. */
  private subscriber(): Promise<Redis> {
    this.sub ??= (async () => {
      const sub = this.client.duplicate({ enableOfflineQueue: true });
      sub.on('error', (err) => this.log.debug({ err: describeError(err) }, 'redis subscriber error'));
      sub.on('message', (channel: string, message: string) => {
        for (const h of this.channels.get(channel)?.handlers ?? []) {
          try {
            h(message);
          } catch (err) {
            this.log.warn({ err: describeError(err), channel }, 'cache subscriber threw');
          }
        }
      });
      this.subClient = sub;
      try {
        await this.call(() => sub.connect());
      } catch (err) {
        // forget the failed connection so the next subscribe tries again
        sub.disconnect();
        this.sub = undefined;
        this.subClient = undefined;
        throw err;
      }
      return sub;
    })();
    return this.sub;
  }

  async ping(): Promise<void> {
    await this.call(() => this.client.ping());
  }

  async close(): Promise<void> {
    const quit = async (c: Redis) => {
      if (c.status === 'ready') await c.quit().catch(() => c.disconnect());
      else c.disconnect();
    };
    if (this.subClient !== undefined) await quit(this.subClient);
    this.sub = undefined;
    this.subClient = undefined;
    this.channels.clear();
    await quit(this.client);
  }
}
