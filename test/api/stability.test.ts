import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankedStories } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { iso, stories } from './fixtures.js';
import { startApi, type ApiHarness } from './harness.js';

describe('feed cursors while articles are inserted concurrently', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(150, 'c', 0));
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it.each([
    ['global', 'top'],
    ['us', 'top'],
    ['global', 'world'],
  ])('pages %s/%s with no repeats and no gaps while a writer adds and bumps stories', async (region, category) => {
    // ground truth from SQL, not from the API under test: the feed as it is when paging begins
    const original = (await rankedStories(db.sql, { region, category, limit: 10_000 })).map((r) => r.id);
    expect(original.length).toBeGreaterThan(15);
    let paging = true;
    let writes = 0;
    // the writer: new stories, and updates that move existing ones to the top, as fast as it can
    const writer = (async () => {
      for (let k = 0; paging; k++) {
        await seedStories(db.sql, cache, stories(3, `w-${region}-${category}-${k}-`, 20_000 + k * 5));
        await seedStories(db.sql, cache, [{ id: `c${String((k * 37) % 150).padStart(4, '0')}`, publisher: `p${k % 7}`, category: 'world', region: 'uk', updatedAt: iso(30_000 + k) }]);
        writes++;
      }
    })();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    try {
      do {
        const r: Awaited<ReturnType<ApiHarness['get']>> = await api.get(`/v1/feed?region=${region}&category=${category}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status, r.text).toBe(200);
        seen.push(...r.body.items.map((i: { story_id: string }) => i.story_id));
        cursor = r.body.next_cursor;
        pages++;
        if (pages % 3 === 0) await new Promise((res) => setTimeout(res, 5)); // let the writer in
      } while (cursor && pages < 100);
    } finally {
      paging = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    // every story of the feed as it was when paging began is served exactly once
    const seenSet = new Set(seen);
    const missing = original.filter((id) => !seenSet.has(id));
    // a story the writer moved to the uk edition leaves the us feed: that is a move, not a gap (global feeds keep all)
    const moved = new Set(region === 'global' ? [] : Array.from({ length: writes + 1 }, (_, k) => `c${String((k * 37) % 150).padStart(4, '0')}`));
    expect(missing.filter((id) => !moved.has(id))).toEqual([]);
  });
});
