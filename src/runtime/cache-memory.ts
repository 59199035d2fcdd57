import type { Cache, RangeOptions, ScoredMember, Unsubscribe } from './cache.js';

/**
 * The in-process cache for embedded mode, with Redis semantics where callers can observe them:
 * TTLs, empty hashes and sorted sets vanish, ties in sorted sets order by member, WRONGTYPE errors.
 * Sorted sets are arrays kept in (score, member) order, so a feed page is a binary search and a
 * slice; inserts cost a splice, cheap at feed sizes (thousands of members, trimmed).
 */
type Value =
  | { kind: 'string'; value: string }
  | { kind: 'hash'; map: Map<string, string> }
  | { kind: 'zset'; scores: Map<string, number>; sorted: ScoredMember[] };

interface Entry {
  v: Value;
  expiresAt: number | undefined;
}

const cmp = (a: ScoredMember, b: ScoredMember): number =>
  a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0);

/** first index whose element is not below `x` */
function lowerBound(arr: ScoredMember[], x: ScoredMember): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(arr[mid]!, x) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** first index whose score is above `score` (`strictlyAbove`), or at or above it */
function scoreBound(arr: ScoredMember[], score: number, strictlyAbove: boolean): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = arr[mid]!.score;
    if (strictlyAbove ? s <= score : s < score) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function checkTtl(ttlMs: number | undefined): void {
  if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttl must be a positive number of ms, got ${ttlMs}`);
}

function wrongType(key: string): Error {
  return new TypeError(`WRONGTYPE key ${key} holds another kind of value`);
}

/** In-process cache; `now` is injectable so TTL tests need no waiting. */
export class MemoryCache implements Cache {
  readonly mode = 'memory' as const;
  private readonly data = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(opts: { now?: () => number; sweepIntervalMs?: number } = {}) {
    this.now = opts.now ?? Date.now;
    // expired keys are dropped on access; the sweep only bounds memory held by keys nobody reads
    this.sweeper = setInterval(() => this.sweep(), opts.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const e = this.data.get(key);
    if (e === undefined) return undefined;
    if (e.expiresAt !== undefined && e.expiresAt <= this.now()) {
      this.data.delete(key);
      return undefined;
    }
    return e;
  }

  private typed<K extends Value['kind']>(key: string, kind: K, create: boolean): Extract<Value, { kind: K }> | undefined {
    const e = this.live(key);
    if (e !== undefined) {
      if (e.v.kind !== kind) throw wrongType(key);
      return e.v as Extract<Value, { kind: K }>;
    }
    if (!create) return undefined;
    const v = (kind === 'hash' ? { kind, map: new Map() } : { kind, scores: new Map(), sorted: [] }) as Extract<Value, { kind: K }>;
    this.data.set(key, { v, expiresAt: undefined });
    return v;
  }

  /** Redis deletes a hash or sorted set when its last member goes */
  private dropIfEmpty(key: string, size: number): void {
    if (size === 0) this.data.delete(key);
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, e] of this.data) if (e.expiresAt !== undefined && e.expiresAt <= t) this.data.delete(k);
  }

  async get(key: string): Promise<string | null> {
    const e = this.live(key);
    if (e === undefined) return null;
    if (e.v.kind !== 'string') throw wrongType(key);
    return e.v.value;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkTtl(ttlMs);
    this.data.set(key, { v: { kind: 'string', value }, expiresAt: ttlMs === undefined ? undefined : this.now() + ttlMs });
  }

  async del(...keys: string[]): Promise<number> {
    let n = 0;
    for (const k of keys) if (this.live(k) !== undefined && this.data.delete(k)) n++;
    return n;
  }

  async exists(...keys: string[]): Promise<number> {
    let n = 0;
    for (const k of keys) if (this.live(k) !== undefined) n++;
    return n;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    const e = this.live(key);
    if (e === undefined) return false;
    e.expiresAt = this.now() + ttlMs;
    return true;
  }

  async hget(key: string, field: string): Promise<string | null> {
    return this.typed(key, 'hash', false)?.map.get(field) ?? null;
  }

  async hset(key: string, fields: Readonly<Record<string, string>>): Promise<void> {
    const entries = Object.entries(fields);
    if (entries.length === 0) return;
    const h = this.typed(key, 'hash', true)!;
    for (const [f, v] of entries) h.map.set(f, v);
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    const h = this.typed(key, 'hash', false);
    return h === undefined ? {} : Object.fromEntries(h.map);
  }

  async zadd(key: string, members: readonly ScoredMember[]): Promise<number> {
    if (members.length === 0) return 0;
    for (const m of members) if (Number.isNaN(m.score)) throw new RangeError('score is not a number');
    const z = this.typed(key, 'zset', true)!;
    let added = 0;
    for (const { member, score } of members) {
      const old = z.scores.get(member);
      if (old === score) continue;
      if (old === undefined) added++;
      else z.sorted.splice(lowerBound(z.sorted, { member, score: old }), 1);
      const item = { member, score };
      z.sorted.splice(lowerBound(z.sorted, item), 0, item);
      z.scores.set(member, score);
    }
    return added;
  }

  async zrem(key: string, members: readonly string[]): Promise<number> {
    const z = this.typed(key, 'zset', false);
    if (z === undefined) return 0;
    let n = 0;
    for (const member of members) {
      const score = z.scores.get(member);
      if (score === undefined) continue;
      z.sorted.splice(lowerBound(z.sorted, { member, score }), 1);
      z.scores.delete(member);
      n++;
    }
    this.dropIfEmpty(key, z.sorted.length);
    return n;
  }

  async zrevrangebyscore(key: string, max: number, min: number, opts: RangeOptions = {}): Promise<ScoredMember[]> {
    const z = this.typed(key, 'zset', false);
    if (z === undefined) return [];
    const arr = z.sorted;
    const top = scoreBound(arr, max, !opts.maxExclusive) - 1; // last index with score <= max (< max if exclusive)
    const out: ScoredMember[] = [];
    let skip = Math.max(0, opts.offset ?? 0);
    const limit = opts.limit ?? Infinity;
    for (let i = top; i >= 0 && out.length < limit; i--) {
      const m = arr[i]!;
      if (opts.minExclusive ? m.score <= min : m.score < min) break;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push({ member: m.member, score: m.score });
    }
    return out;
  }

  async zscore(key: string, member: string): Promise<number | null> {
    return this.typed(key, 'zset', false)?.scores.get(member) ?? null;
  }

  async zcard(key: string): Promise<number> {
    return this.typed(key, 'zset', false)?.sorted.length ?? 0;
  }

  async zremrangebyrank(key: string, start: number, stop: number): Promise<number> {
    const z = this.typed(key, 'zset', false);
    if (z === undefined) return 0;
    const len = z.sorted.length;
    let a = start < 0 ? len + start : start;
    let b = stop < 0 ? len + stop : stop;
    if (a < 0) a = 0;
    if (b >= len) b = len - 1;
    if (a > b || a >= len) return 0;
    const removed = z.sorted.splice(a, b - a + 1);
    for (const m of removed) z.scores.delete(m.member);
    this.dropIfEmpty(key, z.sorted.length);
    return removed.length;
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    return Promise.all(keys.map((k) => this.get(k)));
  }

  async mset(entries: readonly { key: string; value: string; ttlMs?: number }[]): Promise<void> {
    for (const e of entries) checkTtl(e.ttlMs);
    for (const e of entries) await this.set(e.key, e.value, e.ttlMs);
  }

  async hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]> {
    return Promise.all(keys.map((k) => this.hgetall(k)));
  }

  async zaddTrim(key: string, members: readonly ScoredMember[], keep: number): Promise<void> {
    await this.zadd(key, members);
    await this.zremrangebyrank(key, 0, -keep - 1);
  }

  async zaddTrimMany(sets: readonly { key: string; members: readonly ScoredMember[] }[], keep: number): Promise<void> {
    for (const { key, members } of sets) await this.zaddTrim(key, members, keep);
  }

  async publish(channel: string, message: string): Promise<void> {
    const subs = this.channels.get(channel);
    if (subs === undefined) return;
    // delivered asynchronously, as Redis does, so a publisher never runs subscriber code inline
    for (const h of [...subs]) {
      queueMicrotask(() => {
        try {
          h(message);
        } catch {
          // a subscriber's bug must not break the publisher or other subscribers
        }
      });
    }
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    let subs = this.channels.get(channel);
    if (subs === undefined) this.channels.set(channel, (subs = new Set()));
    const wrapped = (m: string) => handler(m);
    subs.add(wrapped);
    return async () => {
      subs.delete(wrapped);
      if (subs.size === 0) this.channels.delete(channel);
    };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.channels.clear();
    this.data.clear();
  }
}
