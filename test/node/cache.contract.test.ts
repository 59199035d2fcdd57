import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Cache } from '../../src/runtime/cache.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { openRedisCache } from '../../src/runtime/cache-redis.js';

/**
 * One contract, two implementations: the in-process cache (fake clock) and real Redis
 * (db 15, a random key prefix, cleaned up afterwards).
 */
const REDIS_URL = process.env['NEWSAGG_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';

interface Subject {
  cache: Cache;
  /** lets `ms` of cache time pass */
  advance(ms: number): Promise<void>;
  cleanup(): Promise<void>;
}

const factories: [string, () => Promise<Subject>][] = [
  [
    'memory',
    async () => {
      let t = 1_000_000;
      const cache = new MemoryCache({ now: () => t });
      return { cache, advance: async (ms) => void (t += ms), cleanup: () => cache.close() };
    },
  ],
  [
    'redis',
    async () => {
      const prefix = `newsagg-test:${randomBytes(4).toString('hex')}:`;
      const cache = await openRedisCache({ url: REDIS_URL, prefix });
      return {
        cache,
        advance: (ms) => new Promise((r) => setTimeout(r, ms + 30)),
        async cleanup() {
          await cache.close();
          const raw = new Redis(REDIS_URL);
          const keys = await raw.keys(`${prefix}*`);
          if (keys.length > 0) await raw.del(...keys);
          await raw.quit();
        },
      };
    },
  ],
];

const sm = (member: string, score: number) => ({ member, score });

describe.each(factories)('cache contract: %s', (_name, make) => {
  let s: Subject;
  const subjects: Subject[] = [];
  beforeEach(async () => {
    s = await make();
    subjects.push(s);
  });
  afterAll(async () => {
    for (const x of subjects) await x.cleanup();
  });

  it('get/set/del round trip and missing keys', async () => {
    const c = s.cache;
    expect(await c.get('a')).toBeNull();
    await c.set('a', 'héllo');
    expect(await c.get('a')).toBe('héllo');
    await c.set('a', 'two');
    expect(await c.get('a')).toBe('two');
    expect(await c.del('a', 'nope')).toBe(1);
    expect(await c.get('a')).toBeNull();
    expect(await c.del()).toBe(0);
  });

  it('exists counts the keys that exist, of any kind, and not expired ones', async () => {
    const c = s.cache;
    expect(await c.exists()).toBe(0);
    await c.set('e:s', 'x');
    await c.hset('e:h', { f: '1' });
    await c.zadd('e:z', [{ member: 'm', score: 1 }]);
    await c.set('e:gone', 'x', 60);
    expect(await c.exists('e:s', 'e:h', 'e:z', 'e:none')).toBe(3);
    expect(await c.exists('e:s', 'e:s')).toBe(2);
    await s.advance(100);
    expect(await c.exists('e:gone')).toBe(0);
    await c.zrem('e:z', ['m']);
    expect(await c.exists('e:z')).toBe(0);
  });

  it('expires keys by TTL and by expire()', async () => {
    const c = s.cache;
    await c.set('short', 'x', 60);
    await c.set('long', 'y', 60_000);
    await c.set('later', 'z');
    expect(await c.expire('later', 60)).toBe(true);
    expect(await c.expire('missing', 60)).toBe(false);
    expect(await c.get('long')).toBe('y'); // (short-lived keys are not read before expiry: a slow machine could miss them)
    await s.advance(100);
    expect(await c.get('short')).toBeNull();
    expect(await c.get('later')).toBeNull();
    expect(await c.get('long')).toBe('y');
  });

  it('rejects a non-positive TTL', async () => {
    await expect(s.cache.set('k', 'v', 0)).rejects.toThrow(RangeError);
    await expect(s.cache.set('k', 'v', -5)).rejects.toThrow(RangeError);
  });

  it('hashes: hset merges, hget, hgetall, empty hash', async () => {
    const c = s.cache;
    expect(await c.hgetall('h')).toEqual({});
    expect(await c.hget('h', 'f')).toBeNull();
    await c.hset('h', { title: 'A', n: '1' });
    await c.hset('h', { n: '2', extra: 'e' });
    await c.hset('h', {});
    expect(await c.hget('h', 'n')).toBe('2');
    expect(await c.hgetall('h')).toEqual({ title: 'A', n: '2', extra: 'e' });
  });

  it('zadd counts new members and updates scores', async () => {
    const c = s.cache;
    expect(await c.zadd('z', [sm('a', 1), sm('b', 2), sm('c', 3)])).toBe(3);
    expect(await c.zadd('z', [sm('a', 10), sm('d', 4)])).toBe(1);
    expect(await c.zadd('z', [])).toBe(0);
    expect(await c.zcard('z')).toBe(4);
    expect(await c.zscore('z', 'a')).toBe(10);
    expect(await c.zscore('z', 'zz')).toBeNull();
    const all = await c.zrevrangebyscore('z', Infinity, -Infinity);
    expect(all).toEqual([sm('a', 10), sm('d', 4), sm('c', 3), sm('b', 2)]);
  });

  it('zrevrangebyscore: bounds, exclusivity, offset/limit, ties by member', async () => {
    const c = s.cache;
    await c.zadd('f', [sm('m1', 5), sm('m3', 5), sm('m2', 5), sm('x', 7), sm('y', 1.5), sm('neg', -2)]);
    const table: [number, number, Parameters<Cache['zrevrangebyscore']>[3], string[]][] = [
      [Infinity, -Infinity, {}, ['x', 'm3', 'm2', 'm1', 'y', 'neg']],
      [5, 0, {}, ['m3', 'm2', 'm1', 'y']],
      [5, 0, { maxExclusive: true }, ['y']],
      [7, 5, { minExclusive: true }, ['x']],
      [Infinity, -Infinity, { offset: 1, limit: 2 }, ['m3', 'm2']],
      [Infinity, -Infinity, { limit: 0 }, []],
      [Infinity, -Infinity, { offset: 4 }, ['y', 'neg']],
      [Infinity, -Infinity, { offset: 10, limit: 3 }, []],
      [1, 2, {}, []],
    ];
    for (const [max, min, opts, want] of table) {
      const got = (await c.zrevrangebyscore('f', max, min, opts)).map((m) => m.member);
      expect(got, JSON.stringify({ max, min, opts })).toEqual(want);
    }
    expect(await c.zrevrangebyscore('missing', 10, 0)).toEqual([]);
  });

  it('zrem and zremrangebyrank trim like Redis; an emptied set disappears', async () => {
    const c = s.cache;
    await c.zadd('t', [1, 2, 3, 4, 5, 6].map((i) => sm(`a${i}`, i)));
    expect(await c.zrem('t', ['a1', 'zz'])).toBe(1);
    expect(await c.zremrangebyrank('t', 0, -4)).toBe(2); // keep the 3 highest
    expect((await c.zrevrangebyscore('t', Infinity, -Infinity)).map((m) => m.member)).toEqual(['a6', 'a5', 'a4']);
    expect(await c.zremrangebyrank('t', 5, 10)).toBe(0);
    expect(await c.zremrangebyrank('t', -1, -1)).toBe(1);
    expect(await c.zremrangebyrank('t', 0, -1)).toBe(2);
    expect(await c.zcard('t')).toBe(0);
    await c.set('t', 'string now'); // would be WRONGTYPE if the empty set had stayed
    expect(await c.get('t')).toBe('string now');
  });

  it('zaddTrim keeps only the highest-scored members', async () => {
    const c = s.cache;
    await c.zaddTrim('feed', [1, 2, 3].map((i) => sm(`s${i}`, i)), 4);
    await c.zaddTrim('feed', [4, 5, 6].map((i) => sm(`s${i}`, i)), 4);
    expect((await c.zrevrangebyscore('feed', Infinity, -Infinity)).map((m) => m.member)).toEqual(['s6', 's5', 's4', 's3']);
  });

  it('zaddTrimMany adds to and trims every set it is given', async () => {
    const c = s.cache;
    await c.zaddTrim('fa', [1, 2].map((i) => sm(`a${i}`, i)), 3);
    await c.zaddTrimMany([{ key: 'fa', members: [3, 4].map((i) => sm(`a${i}`, i)) }, { key: 'fb', members: [sm('b1', 1)] }, { key: 'fc', members: [] }], 3);
    expect((await c.zrevrangebyscore('fa', Infinity, -Infinity)).map((m) => m.member)).toEqual(['a4', 'a3', 'a2']);
    expect((await c.zrevrangebyscore('fb', Infinity, -Infinity)).map((m) => m.member)).toEqual(['b1']);
    expect(await c.zcard('fc')).toBe(0);
    await c.zaddTrimMany([], 3);
  });

  it('batch helpers: mget, mset with TTLs, hgetallMany', async () => {
    const c = s.cache;
    await c.mset([{ key: 'k1', value: 'v1' }, { key: 'k2', value: 'v2', ttlMs: 50 }, { key: 'k3', value: 'v3', ttlMs: 60_000 }]);
    expect(await c.mget(['k1', 'nope', 'k3'])).toEqual(['v1', null, 'v3']);
    expect(await c.mget([])).toEqual([]);
    await c.hset('h1', { a: '1' });
    await c.hset('h2', { b: '2' });
    expect(await c.hgetallMany(['h1', 'missing', 'h2'])).toEqual([{ a: '1' }, {}, { b: '2' }]);
    await s.advance(100);
    expect(await c.mget(['k1', 'k2', 'k3'])).toEqual(['v1', null, 'v3']);
  });

  it('a command on the wrong kind of value is rejected', async () => {
    const c = s.cache;
    await c.set('str', 'x');
    await expect(c.zadd('str', [sm('a', 1)])).rejects.toThrow(/WRONGTYPE/);
    await expect(c.hgetall('str')).rejects.toThrow(/WRONGTYPE/);
  });

  it('publish reaches every subscriber until it unsubscribes', async () => {
    const c = s.cache;
    const got1: string[] = [];
    const got2: string[] = [];
    const un1 = await c.subscribe('inv', (m) => got1.push(m));
    await c.subscribe('inv', (m) => got2.push(m));
    await c.subscribe('other', () => got1.push('wrong channel'));
    await c.publish('inv', 'feed:us:top');
    await waitFor(() => got1.length === 1 && got2.length === 1);
    await un1();
    await c.publish('inv', 'second');
    await waitFor(() => got2.length === 2);
    expect(got1).toEqual(['feed:us:top']);
    expect(got2).toEqual(['feed:us:top', 'second']);
  });

  it('ping answers and close is clean', async () => {
    await expect(s.cache.ping()).resolves.toBeUndefined();
  });
});

/** Polls a condition (pub/sub is asynchronous); fails after a generous bound instead of hanging. */
async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms; // a deadline, not a count of 10 ms sleeps (each can take far longer under load)
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}
