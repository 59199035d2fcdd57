import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { EPOCH_KEY, FeedCacheGuard, allFeedKeys, epochProblem, rebuildFeeds } from '../../src/actors/store/feed-rebuild.js';
import { feedKey, storyScore, toCachedStory } from '../../src/actors/store/feed-items.js';
import { rankedStories } from '../../src/actors/store/stories.js';
import { openCache, type Cache } from '../../src/runtime/cache.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { stories } from '../api/fixtures.js';

/** The feed cache's epoch and the full rebuild, against real PostgreSQL and both caches. */

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached in time');
}

const caches: [string, () => Promise<Cache>][] = [
  ['memory', async () => new MemoryCache()],
  ['redis', () => openCache({ redisUrl: 'redis://127.0.0.1:6379', prefix: `rebuild-${process.pid}-${Math.random().toString(36).slice(2)}:` })],
];

describe('feed cache epoch and rebuild', () => {
  let db: TestDb;
  let empty: TestDb;

  beforeAll(async () => {
    db = await scratchPostgres();
    empty = await scratchPostgres();
    // 60 stories over 8 categories and two editions, written to a throwaway cache
    await seedStories(db.sql, new MemoryCache(), stories(60, 's', 0));
  }, 60_000);
  afterAll(async () => {
    await db?.cleanup();
    await empty?.cleanup();
  });

  it('names every edition and category once', () => {
    const keys = allFeedKeys();
    expect(keys).toHaveLength(63);
    expect(new Set(keys).size).toBe(63);
    expect(keys).toContain('feed:global:top');
    expect(keys).toContain('feed:mea:sports');
  });

  it.each(caches)('%s: no epoch, then rebuilt; a lost feed key is noticed; a rebuild keeps what ingest wrote meanwhile', async (_name, open) => {
    const cache = await open();
    try {
      expect(await epochProblem(cache)).toBe('no-epoch');
      // ingest refills one feed with a story the database does not rank yet
      const extra = { id: 'late', title: 'Late', lead_article_id: 'a-late', article_count: 1, publisher_count: 1, first_seen: '2030-01-01T00:00:00Z', updated_at: '2030-01-01T00:00:00Z', category: 'world', regions: ['us'], entities: [], score: 0 };
      extra.score = storyScore(extra);
      await publishStories(cache, [
        toCachedStory(extra, { id: 'a-late', url: 'https://p0.example/late', url_hash: 'uh-late', simhash: null, title: 'Late', snippet: null, thumbnail_url: null, publisher_id: 'p0', publisher_name: 'P0', published_at: '2030-01-01T00:00:00Z', category: 'world', region: 'us', language: 'en', story_id: 'late', duplicate_of: null, entities: [], places: [] }),
      ]);
      expect(await cache.zcard(feedKey('global', 'top'))).toBe(1);

      const feeds = await rebuildFeeds(db.sql, cache, Date.now());
      // global × top and 8 categories; us and uk × top and their 4 categories each (us has the
      // odd-numbered stories, uk the even ones); eu, apac, latam and mea none
      expect(feeds).toBe(19);
      expect(await epochProblem(cache)).toBeNull();
      // every feed holds what the feed's own ranking query gives
      for (const key of allFeedKeys()) {
        const [, region, category] = key.split(':') as [string, string, string];
        const want = (await rankedStories(db.sql, { region, category, limit: 100 })).map((r) => r.id);
        const got = (await cache.zrevrangebyscore(feedKey(region, category), Infinity, -Infinity)).map((m) => m.member).filter((m) => m !== 'late');
        expect(got, key).toEqual(want);
      }
      expect(await cache.zscore(feedKey('global', 'top'), 'late')).toBe(extra.score);

      await cache.del(feedKey('uk', 'science'));
      expect(await epochProblem(cache)).toBe('keys-lost');
      await rebuildFeeds(db.sql, cache, Date.now());
      expect(await cache.zcard(feedKey('uk', 'science'))).toBeGreaterThan(0);
      await cache.del(EPOCH_KEY);
      expect(await epochProblem(cache)).toBe('no-epoch');
    } finally {
      await cache.del(...allFeedKeys(), EPOCH_KEY);
      await cache.close();
    }
  });

  it('an empty database gets an epoch too, so nothing is rebuilt again and again', async () => {
    const cache = new MemoryCache();
    expect(await rebuildFeeds(empty.sql, cache, Date.now())).toBe(0);
    expect(await epochProblem(cache)).toBeNull();
  });

  it('the guard rebuilds at start and again when the cache comes back empty; readers are told', async () => {
    const cache = new MemoryCache();
    let rebuilt = 0;
    const guard = new FeedCacheGuard({ sql: db.sql, cache, everyMs: 50, onRebuilt: () => rebuilt++ });
    guard.start();
    try {
      await until(async () => rebuilt === 1);
      expect(await cache.zcard(feedKey('global', 'top'))).toBe(60);
      // quiet while the epoch holds
      await guard.check();
      expect(rebuilt).toBe(1);
      // everything gone at once, as after a restart without persistence
      await cache.del(...allFeedKeys(), EPOCH_KEY);
      await until(async () => rebuilt === 2);
      expect(await cache.zcard(feedKey('global', 'top'))).toBe(60);
    } finally {
      await guard.stop();
      await cache.close();
    }
  });
});
