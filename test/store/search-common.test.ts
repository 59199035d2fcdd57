import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { COMMON_QUERY_FREQ } from '../../src/actors/store/migrations.js';
import { refreshCommonLexemes, searchArticles } from '../../src/actors/store/search.js';
import { databases, type TestDb } from '../helpers/db.js';

// 600 articles in two months: "kestrel" in 80 % of them, "plover" in 10 %, "heron" in three;
// three articles share each publication minute, so candidate lists end inside a tie; every third
// article belongs to one of 30 stories (the others to none), so results fold by story.
const N = 600;
const NOW = Date.parse('2026-11-30T12:00:00Z');
const FILLER = ['harbour', 'council', 'budget', 'river', 'market', 'school', 'bridge', 'festival', 'election', 'station'];

function article(i: number): ArticleRow {
  const words = [FILLER[i % 10]!, FILLER[(i * 7) % 10]!];
  if (i % 5 !== 0) words.push('kestrel');
  if (i % 10 === 3) words.push('plover');
  if (i === 17 || i === 250 || i === 401) words.push('heron');
  const title = words.slice(0, 2 + (i % 3)).join(' ');
  const snippet = words.reverse().join(' and ');
  return {
    id: `c${String(i).padStart(4, '0')}`, url: `https://news.example/c/${i}`, url_hash: `hc-${i}`, simhash: null, title, snippet, thumbnail_url: null,
    publisher_id: 'pub', published_at: new Date(NOW - Math.floor(i / 3) * 4 * 3_600_000).toISOString(), category: i % 2 ? 'world' : 'science',
    region: 'us', language: 'en', story_id: i % 3 === 0 ? `s${i % 30}` : null, duplicate_of: i % 97 === 5 ? 'c0000' : null, entities: [], places: [],
  };
}

interface Ranked {
  id: string;
  rank: number;
  matches: number;
}

/** One row per story (its first, i.e. best-ranked, row) with how many rows the story had. */
function foldByStory(rows: readonly (Ranked & { story_id: string | null })[]): Ranked[] {
  const count = new Map<string, number>();
  for (const r of rows) if (r.story_id !== null) count.set(r.story_id, (count.get(r.story_id) ?? 0) + 1);
  const seen = new Set<string>();
  const out: Ranked[] = [];
  for (const r of rows) {
    if (r.story_id !== null && seen.has(r.story_id)) continue;
    if (r.story_id !== null) seen.add(r.story_id);
    out.push({ id: r.id, rank: r.rank, matches: r.story_id === null ? 1 : count.get(r.story_id)! });
  }
  return out;
}

describe.each(databases)('search of common words on %s', (_name, open) => {
  let db: TestDb;
  /** the plain statement, with the query's text in it: the newest `candidates` matches, ranked, folded by story */
  const plain = async (q: string, category: string | null, candidates: number): Promise<Ranked[]> =>
    foldByStory(
      (
        await db.sql.query<Ranked & { story_id: string | null }>(
        `WITH recent AS (
           SELECT id, story_id, published_at, search FROM articles
            WHERE search @@ websearch_to_tsquery('english', $1) AND duplicate_of IS NULL AND ($2::text IS NULL OR category = $2)
            ORDER BY published_at DESC, id DESC LIMIT $3)
         SELECT id, story_id, round((ts_rank_cd(search, websearch_to_tsquery('english', $1)) /
                  (1 + GREATEST(0, extract(epoch FROM ($4::timestamptz - published_at)) / 86400.0) / 3))::numeric, 9)::float8 AS rank
           FROM recent ORDER BY rank DESC, id DESC`,
        [q, category, candidates, new Date(NOW).toISOString()],
        )
      ).rows,
    );
  /** every page of search_articles, `limit` at a time, following the keyset cursor */
  const paged = async (q: string, category: string | null, candidates: number, limit: number): Promise<Ranked[]> => {
    const out: Ranked[] = [];
    for (;;) {
      const after = out.at(-1);
      const { rows } = await db.sql.query<Ranked>('SELECT id, rank, matches FROM search_articles($1, $2, 3, $3, NULL, $4, $5, $6, $7, NULL)', [
        q, new Date(NOW).toISOString(), category, after?.rank ?? null, after?.id ?? null, limit, candidates,
      ]);
      out.push(...rows);
      if (rows.length < limit) return out;
    }
  };
  const freq = async (q: string) => Number((await db.sql.query<{ f: number }>('SELECT search_query_freq($1) AS f', [q])).rows[0]!.f);

  beforeAll(async () => {
    db = await open();
    await upsertArticles(db.sql, Array.from({ length: N }, (_, i) => article(i)));
    await db.sql.query('ANALYZE articles');
    await refreshCommonLexemes(db.sql);
  }, 120_000);
  afterAll(async () => db?.cleanup());

  it('learns the common lexemes from the statistics, and tells common queries from rare ones', async () => {
    const { rows } = await db.sql.query<{ lexeme: string; freq: number }>('SELECT lexeme, freq FROM search_common_lexemes');
    const common = new Map(rows.map((r) => [r.lexeme, Number(r.freq)]));
    expect(common.get('kestrel')).toBeGreaterThan(0.7);
    expect(common.get('kestrel')).toBeLessThan(0.9);
    expect(common.has('heron')).toBe(false);
    expect(await refreshCommonLexemes(db.sql)).toBe(common.size); // idempotent
    expect(await freq('kestrel')).toBeGreaterThanOrEqual(COMMON_QUERY_FREQ);
    expect(await freq('Kestrels')).toBeGreaterThanOrEqual(COMMON_QUERY_FREQ); // the same lexeme
    expect(await freq('kestrel -heron')).toBeGreaterThanOrEqual(COMMON_QUERY_FREQ);
    expect(await freq('heron or kestrel')).toBeGreaterThanOrEqual(COMMON_QUERY_FREQ);
    expect(await freq('-heron')).toBe(1); // negations alone match nearly everything
    expect(await freq('heron')).toBe(0);
    expect(await freq('kestrel heron')).toBe(0); // AND with a rare word stays rare
    expect(await freq('kestrel -"heron plover"')).toBeCloseTo(common.get('kestrel')!, 6);
    expect(await freq('the of')).toBe(0);
  });

  it.each([
    ['kestrel', null],
    ['kestrel', 'world'],
    ['kestrel -plover', null],
    ['-heron', 'science'],
    ['heron or kestrel', null],
    ['"bridge kestrel"', null],
    ['plover', null],
    ['heron', null],
    ['kestrel heron', null],
    ['nothing', null],
  ] as const)('%s (category %s) returns what the plain statement returns, page by page', async (q, category) => {
    const want = await plain(q, category, 50);
    if (['kestrel', '-heron', 'heron or kestrel'].includes(q)) expect(want.reduce((n, r) => n + r.matches, 0)).toBe(50); // the candidate cap applies
    if (['kestrel', 'plover'].includes(q)) expect(want.some((r) => r.matches > 1)).toBe(true); // stories were folded
    if (q !== 'nothing') expect(want.length).toBeGreaterThan(0);
    expect(await paged(q, category, 50, 7)).toEqual(want);
    expect(await paged(q, category, 50, 100)).toEqual(want);
  });

  it('answers the API call the same way for a common and a rare word', async () => {
    for (const q of ['kestrel', 'heron']) {
      const got = await searchArticles(db.sql, { q, limit: 20, now: NOW });
      expect(got.map((h) => ({ id: h.id, rank: h.rank, matches: h.matches }))).toEqual((await plain(q, null, 2_000)).slice(0, 20));
    }
  });
});
