import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getArticles, upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { ensureArticlePartitions } from '../../src/actors/store/migrations.js';
import { searchArticles } from '../../src/actors/store/search.js';
import { databases, type TestDb } from '../helpers/db.js';

// What migration 7 changed about ingest writes: duplicates carry no search vector, and the indexes
// no query used are gone (the others stay).

function article(id: string, over: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://news.example/${id}`, url_hash: `h-${id}`, simhash: '0123456789abcdef', title: 'Lighthouse keeper retires after forty years',
    snippet: 'The harbour lighthouse gets an automatic lamp.', thumbnail_url: null, publisher_id: 'pub1', published_at: '2027-02-10T10:00:00Z',
    category: 'world', region: 'uk', language: 'en', story_id: 's1', duplicate_of: null, entities: [], places: [], ...over,
  };
}

const NOW = Date.parse('2027-02-11T00:00:00Z');

describe.each(databases)('ingest writes on %s', (_name, open) => {
  let db: TestDb;
  const vectors = async (): Promise<Record<string, string | null>> => {
    const { rows } = await db.sql.query<{ id: string; search: string | null }>('SELECT id, search::text AS search FROM articles ORDER BY id');
    return Object.fromEntries(rows.map((r) => [r.id, r.search]));
  };
  beforeAll(async () => {
    db = await open();
  }, 120_000);
  afterAll(async () => db?.cleanup());

  it('originals get a weighted search vector, duplicates none; search finds the original only', async () => {
    await upsertArticles(db.sql, [article('orig'), article('copy', { url_hash: 'h-copy', duplicate_of: 'orig' })]);
    const v = await vectors();
    expect(v.orig).toMatch(/'lighthous':1A,\d+B/);
    expect(v.copy).toBeNull();
    const hits = await searchArticles(db.sql, { q: 'lighthouse', limit: 10, now: NOW });
    expect(hits.map((h) => h.id)).toEqual(['orig']);
  });

  it('an article marked a duplicate later loses its vector; a retitled original gets a new one', async () => {
    await upsertArticles(db.sql, [article('late', { url_hash: 'h-late', title: 'Ferry timetable changes' })]);
    expect((await vectors()).late).toMatch(/'ferri'/);
    await upsertArticles(db.sql, [article('late', { url_hash: 'h-late', title: 'Ferry timetable changes', duplicate_of: 'orig' })]);
    expect((await vectors()).late).toBeNull();
    await upsertArticles(db.sql, [article('orig', { title: 'Lighthouse keeper honoured' })]);
    expect((await vectors()).orig).toMatch(/'honour':\dA/);
  });

  it('a month partition created after the migration computes the same vector', async () => {
    await ensureArticlePartitions(db.sql, () => Date.parse('2027-05-01T00:00:00Z'), 0);
    await upsertArticles(db.sql, [
      article('may', { url_hash: 'h-may', published_at: '2027-05-03T00:00:00Z' }),
      article('may-copy', { url_hash: 'h-may-copy', published_at: '2027-05-03T00:00:00Z', duplicate_of: 'may' }),
    ]);
    const { rows } = await db.sql.query<{ id: string; part: string; has: boolean }>(
      "SELECT id, tableoid::regclass::text AS part, search IS NOT NULL AS has FROM articles WHERE id LIKE 'may%' ORDER BY id",
    );
    expect(rows.map((r) => [r.id, r.part.replace(/^.*\./, ''), r.has])).toEqual([['may', 'articles_2027_05', true], ['may-copy', 'articles_2027_05', false]]);
  });

  it('rows as JSON arrays keep every field: nulls, quotes, non-Latin text, entities, places', async () => {
    const odd = article('odd', {
      url_hash: 'h-odd', title: 'Ein "Zitat" \\ {x}, \'q\' und 東京 🚀', snippet: null, simhash: 'ffffffffffffffff', thumbnail_url: 'https://img.example/t.jpg',
      category: null, region: null, language: null, story_id: null, entities: [{ name: 'Zoë "Z"', type: 'person' }], places: ['JP', 'DE'],
    });
    // the secondary category (migration 30) round-trips; a row written without one reads null
    const second = article('second', { url_hash: 'h-second', category: 'business', secondary_category: 'sports' });
    await upsertArticles(db.sql, [odd, second]);
    const [got] = await getArticles(db.sql, ['odd']);
    const { publisher_name: _n, ...row } = got!;
    expect(row).toEqual({ ...odd, secondary_category: null, published_at: '2027-02-10T10:00:00Z' });
    const [two] = await getArticles(db.sql, ['second']);
    expect(two).toMatchObject({ category: 'business', secondary_category: 'sports' });
    // a later write of the same row replaces both categories (a republished entry re-enriched)
    await upsertArticles(db.sql, [{ ...second, category: 'sports', secondary_category: null }]);
    expect((await getArticles(db.sql, ['second']))[0]).toMatchObject({ category: 'sports', secondary_category: null });
  });

  it('keeps the indexes the queries use and drops the ones none uses', async () => {
    const { rows } = await db.sql.query<{ name: string }>(
      "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('articles', 'stories') ORDER BY 1",
    );
    expect(rows.map((r) => r.name)).toEqual([
      'articles_ingested_brin', 'articles_pkey', 'articles_published_idx', 'articles_region_category_idx', 'articles_search_idx', 'articles_story_idx', 'articles_url_hash_published_at_key',
      'stories_category_score_idx', 'stories_pkey',
    ]);
  });
});
