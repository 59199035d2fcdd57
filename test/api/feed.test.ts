import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService } from '../../src/api/feed.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { CATEGORIES } from '../../src/actors/store/feed-items.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories, type SeedStory } from '../helpers/seed.js';

const t0 = Date.parse('2026-11-20T00:00:00Z');
const iso = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString().replace('.000', '');

function stories(n: number, prefix: string, startMinute: number): SeedStory[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`,
    publisher: `p${i % 7}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    region: i % 2 ? 'us' : 'uk',
    updatedAt: iso(startMinute + i),
  }));
}

describe('FeedService', () => {
  let db: TestDb;
  const cache = new MemoryCache();
  let feed: FeedService;
  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(120, 's', 0));
    feed = new FeedService({ sql: db.sql, cache, codec: new CursorCodec('k'), snapshotSize: 200 });
  }, 60_000);
  afterAll(async () => db?.cleanup());

  it('pages through a feed with no repeats and no gaps while new stories arrive and old ones update', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const r = await feed.page({ region: 'global', category: 'top', cursor, limit: 20 });
      seen.push(...r.items.map((i) => i.story_id));
      cursor = r.next_cursor;
      // between pages: brand-new stories and updates that would move old stories to the top
      await seedStories(db.sql, cache, stories(5, `n${page}-`, 10_000 + page * 10));
      await seedStories(db.sql, cache, [{ id: 's0003', publisher: 'p3', category: 'world', region: 'uk', updatedAt: iso(20_000 + page) }]);
      page++;
    } while (cursor && page < 20);
    expect(new Set(seen).size).toBe(seen.length);
    // everything that existed when paging began was served exactly once
    for (let i = 0; i < 120; i++) expect(seen).toContain(`s${String(i).padStart(4, '0')}`);
  });

  it('keeps at most three items per publisher per page and three categories on the first top page', async () => {
    const r = await feed.page({ region: 'global', category: 'top', cursor: null, limit: 20 });
    const perPub = new Map<string, number>();
    for (const it of r.items) perPub.set(it.publisher_name, (perPub.get(it.publisher_name) ?? 0) + 1);
    expect(Math.max(...perPub.values())).toBeLessThanOrEqual(3);
    expect(new Set(r.items.map((i) => i.category)).size).toBeGreaterThanOrEqual(3);
    expect(r.items[0]).toMatchObject({ article_id: expect.any(String), story_id: expect.any(String), coverage_count: expect.any(Number) });
  });

  it('filters by region and category', async () => {
    const r = await feed.page({ region: 'us', category: 'technology', cursor: null, limit: 50 });
    expect(r.items.length).toBeGreaterThan(0);
    for (const it of r.items) expect(it.category).toBe('technology');
  });

  it('rejects a cursor from another feed or a forged one', async () => {
    const r = await feed.page({ region: 'global', category: 'top', cursor: null, limit: 5 });
    await expect(feed.page({ region: 'us', category: 'top', cursor: r.next_cursor, limit: 5 })).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(feed.page({ region: 'global', category: 'top', cursor: 'abc.def', limit: 5 })).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it('serves the same pages from the database when the cache is empty', async () => {
    const cold = new FeedService({ sql: db.sql, cache: new MemoryCache(), codec: new CursorCodec('k') });
    const warm = await feed.page({ region: 'uk', category: 'world', cursor: null, limit: 10 });
    const fromDb = await cold.page({ region: 'uk', category: 'world', cursor: null, limit: 10 });
    expect(fromDb.items.map((i) => i.story_id)).toEqual(warm.items.map((i) => i.story_id));
  });
});
