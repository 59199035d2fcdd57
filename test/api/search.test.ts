import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { upsertStories } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from './harness.js';
import { expectMatchesOpenApi } from './schema.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

function article(id: string, title: string, snippet: string, ageHours: number, extra: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://news.example/${id}`, url_hash: `uh-${id}`, simhash: null, title, snippet, thumbnail_url: null, publisher_id: 'pub',
    published_at: hoursAgo(ageHours), category: 'world', region: 'us', language: 'en', story_id: `st-${id}`, duplicate_of: null,
    entities: [], places: [], ...extra,
  };
}

describe('search over HTTP', () => {
  let db: TestDb;
  let api: ApiHarness;
  const ids = async (path: string) => {
    const r = await api.get(path);
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/search', 'get', 200, r.body);
    return r.body.items.map((i: { id: string }) => i.id) as string[];
  };

  beforeAll(async () => {
    db = await scratchPostgres();
    await upsertArticles(db.sql, [
      article('title-fresh', 'Volcano erupts near the coastal city', 'Residents were moved inland overnight', 1),
      article('snippet-fresh', 'City council meets on budget', 'A volcano was mentioned only in passing', 1),
      article('title-old', 'Volcano erupts again after a decade', 'The mountain had been quiet', 24 * 20),
      article('tsunami', 'Tsunami warning lifted for the islands', 'Officials say waves were small', 2, { category: 'science', region: 'apac' }),
      article('dup', 'Volcano erupts near the coastal city', 'Residents were moved inland overnight', 1, { duplicate_of: 'title-fresh' }),
      ...Array.from({ length: 30 }, (_, i) => article(`bulk-${String(i).padStart(2, '0')}`, `Harbour report number ${i}`, 'harbour traffic and shipping', i)),
    ]);
    api = await startApi(db.sql, new MemoryCache(), { now: () => NOW });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('ranks a title match over a snippet match, and fresh over old at equal relevance; leaves duplicates out', async () => {
    const got = await ids('/v1/search?q=volcano');
    expect(got[0]).toBe('title-fresh');
    expect(got.indexOf('title-fresh')).toBeLessThan(got.indexOf('snippet-fresh'));
    expect(got.indexOf('title-fresh')).toBeLessThan(got.indexOf('title-old'));
    expect(got).not.toContain('dup');
    expect(new Set(got)).toEqual(new Set(['title-fresh', 'snippet-fresh', 'title-old']));
  });

  it.each([
    ['"volcano erupts" -decade', ['title-fresh']],
    ['volcano or tsunami', ['title-fresh', 'snippet-fresh', 'title-old', 'tsunami']],
    ['tsunami', ['tsunami']],
    ['nothing-matches-this', []],
  ])('understands websearch syntax: %s', async (q, want) => {
    expect(new Set(await ids(`/v1/search?q=${encodeURIComponent(q)}`))).toEqual(new Set(want));
  });

  it.each([
    ['category=science', ['tsunami']],
    ['category=world', ['title-fresh', 'snippet-fresh', 'title-old']],
    ['region=apac', ['tsunami']],
    ['region=uk', []],
    ['region=global', ['title-fresh', 'snippet-fresh', 'title-old', 'tsunami']],
  ])('filters by %s', async (filter, want) => {
    expect(new Set(await ids(`/v1/search?q=${encodeURIComponent('volcano or tsunami')}&${filter}`))).toEqual(new Set(want));
  });

  it('pages with cursors in the same order as one big page, without repeats', async () => {
    const whole = await ids('/v1/search?q=harbour&limit=50');
    expect(whole).toHaveLength(30);
    const paged: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const r = await api.get(`/v1/search?q=harbour&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, r.text).toBe(200);
      paged.push(...r.body.items.map((i: { id: string }) => i.id));
      cursor = r.body.next_cursor;
      n++;
    } while (cursor && n < 10);
    expect(paged).toEqual(whole);
    // recency blend: same text, so newer first
    expect(whole.slice(0, 3)).toEqual(['bulk-00', 'bulk-01', 'bulk-02']);
  });

  it('binds a cursor to its query and filters', async () => {
    const r = await api.get('/v1/search?q=harbour&limit=5');
    const c = r.body.next_cursor as string;
    expect((await api.get(`/v1/search?q=harbour&limit=5&cursor=${c}`)).status).toBe(200);
    for (const other of ['q=volcano', 'q=harbour&category=world', 'q=harbour&region=us']) {
      const bad = await api.get(`/v1/search?${other}&limit=5&cursor=${c}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_cursor');
    }
  });
});

describe('search first pages kept rendered for a few seconds', () => {
  let db: TestDb;
  let api: ApiHarness;
  let clock = NOW;
  const titles = async (path: string) => {
    const r = await api.get(path);
    expect(r.status, r.text).toBe(200);
    return (r.body.items as { id: string }[]).map((i) => i.id);
  };

  beforeAll(async () => {
    db = await scratchPostgres();
    await upsertArticles(db.sql, [article('g1', 'Glacier retreat measured', 'Ice loss in the valley', 2), article('g2', 'Glacier tours resume', 'Visitors return', 3)]);
    api = await startApi(db.sql, new MemoryCache(), { now: () => clock, searchHotTtlMs: 5_000 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('reuses the page of an identical query until the TTL, then shows new articles; filters, limits and later pages are not mixed up', async () => {
    expect(await titles('/v1/search?q=glacier')).toEqual(['g1', 'g2']);
    await upsertArticles(db.sql, [article('g0', 'Glacier collapse blocks road', 'A new article', 0)]);
    clock += 4_000;
    expect(await titles('/v1/search?q=glacier')).toEqual(['g1', 'g2']); // the kept page
    expect(await titles('/v1/search?q=glacier&limit=2')).toEqual(['g0', 'g1']); // another limit: its own page
    expect(await titles('/v1/search?q=glacier&region=uk')).toEqual([]); // another filter: its own page
    const first = await api.get('/v1/search?q=glacier&limit=1');
    expect(await titles(`/v1/search?q=glacier&limit=1&cursor=${first.body.next_cursor}`)).toEqual(['g1']); // cursor pages are never kept
    clock += 2_000;
    expect(await titles('/v1/search?q=glacier')).toEqual(['g0', 'g1', 'g2']);
  });

  it('answers from the kept page with the same ETag, and 304 when the client has it', async () => {
    const a = await api.get('/v1/search?q=tours');
    const b = await api.get('/v1/search?q=tours');
    expect(b.text).toBe(a.text);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect((await api.get('/v1/search?q=tours', { 'if-none-match': String(a.headers.etag) })).status).toBe(304);
  });
});

describe('search results grouped by story', () => {
  let db: TestDb;
  let api: ApiHarness;
  type Item = { id: string; story_id: string | null; matches: number; coverage_count: number };
  const items = async (path: string): Promise<Item[]> => {
    const r = await api.get(path);
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/search', 'get', 200, r.body);
    return r.body.items;
  };

  beforeAll(async () => {
    db = await scratchPostgres();
    const inStory = (story: string) => ({ story_id: story });
    await upsertArticles(db.sql, [
      // one story told by five outlets, the freshest with the word in its title
      article('quake-a', 'Earthquake shakes the capital', 'Buildings swayed downtown', 1, inStory('quake')),
      article('quake-b', 'Earthquake: residents sleep outside', 'Aftershocks feared', 2, inStory('quake')),
      article('quake-c', 'Strong tremor felt across region', 'The earthquake struck at dawn', 3, inStory('quake')),
      article('quake-d', 'Earthquake damage assessed', 'Engineers inspect bridges', 4, inStory('quake')),
      article('quake-e', 'Rescue teams reach villages', 'After the earthquake roads were cut', 5, inStory('quake')),
      // another story, older, two outlets
      article('drill-a', 'Earthquake drill held in schools', 'Pupils practised', 30, inStory('drill')),
      article('drill-b', 'Schools rehearse for an earthquake', 'A yearly exercise', 31, inStory('drill')),
      // an article no story has taken yet, and a wire copy (never listed)
      article('lone', 'Earthquake insurance explained', 'What policies cover', 10, { story_id: null }),
      article('copy', 'Earthquake shakes the capital', 'Buildings swayed downtown', 1, { ...inStory('quake'), duplicate_of: 'quake-a' }),
      // unrelated
      article('other', 'Harvest festival returns', 'Stalls and music', 1, inStory('fest')),
    ]);
    const story = (id: string, lead: string, n: number) => ({
      id, title: id, lead_article_id: lead, article_count: n, publisher_count: n, first_seen: hoursAgo(40), updated_at: hoursAgo(1),
      category: 'world', regions: ['us'], entities: [], score: 1,
    });
    await upsertStories(db.sql, [story('quake', 'quake-a', 6), story('drill', 'drill-a', 2), story('fest', 'other', 1)]);
    api = await startApi(db.sql, new MemoryCache(), { now: () => NOW, searchHotTtlMs: 0 });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('lists each story once, as its best-matching article, with how many of its articles matched', async () => {
    const got = await items('/v1/search?q=earthquake');
    expect(got.map((i) => i.id)).toEqual(['quake-a', 'lone', 'drill-a']);
    expect(got.map((i) => [i.story_id, i.matches, i.coverage_count])).toEqual([
      ['quake', 5, 6],
      [null, 1, 1],
      ['drill', 2, 2],
    ]);
  });

  it('a filter narrows the articles before they are grouped', async () => {
    const got = await items(`/v1/search?q=${encodeURIComponent('earthquake -capital')}`);
    expect(got.find((i) => i.story_id === 'quake')).toMatchObject({ id: 'quake-b', matches: 4 });
  });

  it('pages by cursor over stories: the same stories in the same order as one page, none twice', async () => {
    const whole = (await items('/v1/search?q=earthquake&limit=50')).map((i) => i.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 10; n++) {
      const r = await api.get(`/v1/search?q=earthquake&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, r.text).toBe(200);
      paged.push(...r.body.items.map((i: Item) => i.id));
      cursor = r.body.next_cursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(whole);
    expect(cursor).toBeNull();
  });

  it('an empty result is an empty page', async () => {
    const r = await api.get('/v1/search?q=volcano');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [], next_cursor: null });
  });
});
