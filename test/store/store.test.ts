import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampSnippet, existingUrlHashes, getArticles, storyArticles, upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { addPublishers, listPublishers, removePublisher, savePublisherState, loadPublisherState } from '../../src/actors/store/publishers.js';
import { searchArticles } from '../../src/actors/store/search.js';
import { HOME_BONUS } from '../../src/actors/store/feed-items.js';
import { getStories, rankedStories, upsertStories } from '../../src/actors/store/stories.js';
import { databases, type TestDb } from '../helpers/db.js';

function article(id: string, over: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://news.example/${id}`, url_hash: `h-${id}`, simhash: 'f0e1d2c3b4a59687', title: `Title ${id}`,
    snippet: 'A short snippet.', thumbnail_url: null, publisher_id: 'pub1', published_at: '2026-11-20T10:00:00Z',
    category: 'world', region: 'us', language: 'en', story_id: 's1', duplicate_of: null, entities: ['Ada Lovelace'], places: [], ...over,
  };
}

describe.each(databases)('store on %s', (_name, open) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, [{ id: 'pub1', name: 'Daily Example', feed_url: 'https://news.example/feed', country: 'US', region: 'us' }]);
  }, 120_000);
  afterAll(async () => db?.cleanup());

  it('upserts idempotently across month partitions and treats a retitle as an update', async () => {
    const rows = [article('a1'), article('a2', { published_at: '2026-10-05T08:00:00Z' }), article('a3', { published_at: '2026-12-01T00:00:00Z' })];
    await upsertArticles(db.sql, rows);
    await upsertArticles(db.sql, rows);
    await upsertArticles(db.sql, [article('a1', { title: 'Title a1 (updated)' })]);
    const got = await getArticles(db.sql, ['a1', 'a2', 'a3']);
    expect(got).toHaveLength(3);
    expect(got.find((a) => a.id === 'a1')).toMatchObject({ title: 'Title a1 (updated)', publisher_name: 'Daily Example', simhash: 'f0e1d2c3b4a59687' });
    const count = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles');
    expect(count.rows[0]!.n).toBe(3);
    const parts = await db.sql.query<{ relname: string }>(
      "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'articles'::regclass ORDER BY 1",
    );
    expect(parts.rows.map((r) => r.relname)).toEqual(expect.arrayContaining(['articles_2026_10', 'articles_2026_11', 'articles_2026_12']));
    const existing = await existingUrlHashes(db.sql, ['h-a1', 'h-zz']);
    expect([...existing.keys()]).toEqual(['h-a1']);
    expect(existing.get('h-a1')).toMatchObject({ id: 'a1', story_id: 's1', duplicate_of: null });
  });

  it('stores every field as given: quotes, backslashes, non-Latin text, nulls and signed SimHashes', async () => {
    const odd = article('odd1', {
      url_hash: 'h-odd1', title: 'He said "no" \\ {braces}, \'quotes\' and 東京 🚀', snippet: null, simhash: 'ffffffffffffffff',
      category: null, region: null, language: null, story_id: null, entities: [{ name: 'Zoë "Z" O\'Brien', type: 'person' }], places: ['JP'],
    });
    await upsertArticles(db.sql, [odd]);
    const [got] = await getArticles(db.sql, ['odd1']);
    expect(got).toMatchObject({
      title: odd.title, snippet: null, simhash: 'ffffffffffffffff', category: null, region: null, language: null, story_id: null,
      entities: odd.entities, places: ['JP'], published_at: '2026-11-20T10:00:00Z',
    });
  });

  it('exact dedup finds the earliest stored copy of a URL, in any month partition', async () => {
    await upsertArticles(db.sql, [
      article('dup-late', { url_hash: 'h-dup', published_at: '2026-12-02T00:00:00Z' }),
      article('dup-early', { url_hash: 'h-dup', published_at: '2026-10-06T00:00:00Z' }),
    ]);
    const existing = await existingUrlHashes(db.sql, ['h-dup', 'h-dup', 'h-none']);
    expect([...existing.keys()]).toEqual(['h-dup']);
    expect(existing.get('h-dup')).toMatchObject({ id: 'dup-early' });
    expect(Date.parse(existing.get('h-dup')!.published_at)).toBe(Date.parse('2026-10-06T00:00:00Z'));
    const got = await getArticles(db.sql, ['dup-late', 'dup-late', 'nope']);
    expect(got.map((a) => a.id)).toEqual(['dup-late']);
  });

  it('stores snippets of at most 300 characters and has no column for full text', async () => {
    const long = 'word '.repeat(2000);
    await upsertArticles(db.sql, [article('long1', { url_hash: 'h-long1', snippet: long })]);
    const [a] = await getArticles(db.sql, ['long1']);
    expect(a!.snippet!.length).toBeLessThanOrEqual(300);
    const { rows } = await db.sql.query<{ column_name: string; character_maximum_length: number | null }>(
      "SELECT column_name, character_maximum_length FROM information_schema.columns WHERE table_name = 'articles'",
    );
    const names = rows.map((r) => r.column_name);
    for (const forbidden of ['text', 'content', 'body', 'full_text', 'html']) expect(names).not.toContain(forbidden);
    expect(rows.find((r) => r.column_name === 'snippet')!.character_maximum_length).toBe(300);
    expect(clampSnippet(long)!.length).toBeLessThanOrEqual(300);
  });

  it('keeps stories, ranks them per feed and lists Full Coverage', async () => {
    const base = { lead_article_id: 'a1', article_count: 2, publisher_count: 1, first_seen: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T11:00:00Z', entities: [] };
    await upsertStories(db.sql, [
      { ...base, id: 's1', title: 'Story one', category: 'world', regions: ['us'], score: 5 },
      { ...base, id: 's2', title: 'Story two', category: 'sports', regions: ['uk'], score: 9, lead_article_id: 'a2' },
    ]);
    await upsertStories(db.sql, [{ ...base, id: 's1', title: 'Story one', category: 'world', regions: ['us'], score: 7, article_count: 3 }]);
    const [s1] = await getStories(db.sql, ['s1']);
    expect(s1).toMatchObject({ id: 's1', article_count: 3, score: 7, regions: ['us'] });
    expect((await rankedStories(db.sql, { region: 'global', category: 'top', limit: 10 })).map((r) => r.id)).toEqual(['s2', 's1']);
    expect((await rankedStories(db.sql, { region: 'us', category: 'top', limit: 10 })).map((r) => r.id)).toEqual(['s1']);
    expect((await rankedStories(db.sql, { region: 'global', category: 'sports', limit: 10 })).map((r) => r.id)).toEqual(['s2']);
    expect((await storyArticles(db.sql, 's1')).map((a) => a.id)).toContain('a1');
  });

  it('ranks an edition\'s own news first: a story that happened there above a fresher one it only carries', async () => {
    const base = { lead_article_id: 'a1', article_count: 2, publisher_count: 2, first_seen: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T11:00:00Z', entities: [], category: 'politics' };
    await upsertStories(db.sql, [
      { ...base, id: 'h-home', title: 'Budget vote in Westminster', regions: ['uk'], home_regions: ['uk'], score: 10 },
      { ...base, id: 'h-away', title: 'Manila match', regions: ['apac', 'uk'], home_regions: ['apac'], score: 11 },
    ]);
    const uk = await rankedStories(db.sql, { region: 'uk', category: 'politics', limit: 10 });
    expect(uk.map((r) => r.id)).toEqual(['h-home', 'h-away']);
    expect(uk[0]!.score).toBe(10 + HOME_BONUS);
    // keyset paging continues from the feed score
    expect((await rankedStories(db.sql, { region: 'uk', category: 'politics', limit: 10, after: uk[0]! })).map((r) => r.id)).toEqual(['h-away']);
    expect((await rankedStories(db.sql, { region: 'global', category: 'politics', limit: 10 })).map((r) => r.id)).toEqual(['h-away', 'h-home']);
    expect((await rankedStories(db.sql, { region: 'apac', category: 'politics', limit: 10 })).map((r) => r.id)).toEqual(['h-away']);
    expect((await getStories(db.sql, ['h-away']))[0]).toMatchObject({ regions: ['apac', 'uk'], home_regions: ['apac'] });
  });

  it('searches title over snippet with websearch syntax, recency and filters, paging by keyset', async () => {
    const now = Date.parse('2026-11-21T00:00:00Z');
    await upsertArticles(db.sql, [
      article('q1', { url_hash: 'h-q1', title: 'Volcano erupts near harbour town', snippet: 'Ash cloud grounds flights.', category: 'science', published_at: '2026-11-20T20:00:00Z', story_id: 'sq1' }),
      article('q2', { url_hash: 'h-q2', title: 'Harbour reopens', snippet: 'Officials say the volcano is calm.', category: 'world', published_at: '2026-11-20T20:00:00Z', story_id: 'sq2' }),
      article('q3', { url_hash: 'h-q3', title: 'Volcano erupts again', snippet: 'Second eruption this year.', category: 'science', region: 'uk', published_at: '2026-06-01T00:00:00Z', story_id: 'sq3' }),
      article('q4', { url_hash: 'h-q4', title: 'Volcano copy', snippet: 'copy', duplicate_of: 'q1', story_id: 'sq1' }),
      article('q5', { url_hash: 'h-q5', title: 'Flights resume', snippet: 'The volcano ash has cleared.', category: 'science', published_at: '2026-11-20T19:00:00Z', story_id: 'sq1' }),
    ]);
    const hits = await searchArticles(db.sql, { q: 'volcano', limit: 10, now });
    expect(hits.map((h) => h.id).slice(0, 2)).toEqual(['q1', 'q2']); // title match first; old one last
    expect(hits.map((h) => h.id)).not.toContain('q4');
    expect(hits.at(-1)!.id).toBe('q3');
    expect(hits.map((h) => [h.id, h.matches])).toEqual([['q1', 2], ['q2', 1], ['q3', 1]]); // q5 folds into its story's best hit, q1
    // q1 is left out by the query, so its story is shown through q5
    expect((await searchArticles(db.sql, { q: 'volcano -harbour', limit: 10, now })).map((h) => h.id)).toEqual(['q5', 'q3']);
    expect((await searchArticles(db.sql, { q: 'volcano', category: 'science', region: 'uk', limit: 10, now })).map((h) => h.id)).toEqual(['q3']);
    const p1 = await searchArticles(db.sql, { q: 'volcano', limit: 1, now });
    const p2 = await searchArticles(db.sql, { q: 'volcano', limit: 1, now, after: { rank: p1[0]!.rank, id: p1[0]!.id } });
    expect(p2[0]!.id).not.toBe(p1[0]!.id);
    expect(await searchArticles(db.sql, { q: '"unclosed & | !!', limit: 5, now })).toEqual([]);
  });

  it('adds, lists and removes publishers and keeps actor state', async () => {
    const added = await addPublishers(db.sql, [
      { id: 'pub2', name: 'Two', feed_url: 'https://two.example/feed' },
      { id: 'dup', name: 'Dup', feed_url: 'https://news.example/feed' },
    ]);
    expect(added).toEqual(['pub2']);
    await savePublisherState(db.sql, 'pub2', { etag: 'W/"1"' }, {
      etag: 'W/"1"', last_modified: null, next_poll_at: Date.parse('2026-11-21T00:05:00Z'), last_polled_at: Date.parse('2026-11-21T00:00:00Z'),
      last_success_at: null, consecutive_failures: 2, circuit: 'open', circuit_reason: 'FETCH_TIMEOUT', fetch_count: 5,
      not_modified_count: 3, error_count: 2, article_count: 0, poll_interval_seconds: 900, websub_hub: null, websub_lease_expires_at: null,
    });
    expect(await loadPublisherState(db.sql, 'pub2')).toEqual({ etag: 'W/"1"' });
    const page = await listPublishers(db.sql, { limit: 1 });
    expect(page.map((p) => p.id)).toEqual(['pub1']);
    const next = await listPublishers(db.sql, { limit: 5, after: 'pub1' });
    expect(next[0]).toMatchObject({ id: 'pub2', failures: 2, circuit: 'open', not_modified_count: 3, last_polled_at: '2026-11-21T00:00:00Z' });
    expect(await removePublisher(db.sql, 'pub2')).toBe(true);
    expect(await removePublisher(db.sql, 'pub2')).toBe(false);
  });
});
