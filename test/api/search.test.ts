import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
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
