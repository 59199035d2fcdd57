import type { Sql } from '../../runtime/sql.js';
import type { StorySummary } from '../stories/clusterer.js';
import { HOME_BONUS, storyScore } from './feed-items.js';

/** A story as stored (DESIGN §4): one event, many articles, one lead. */
export interface StoryRow {
  id: string;
  title: string;
  lead_article_id: string | null;
  article_count: number;
  publisher_count: number;
  first_seen: string;
  updated_at: string;
  category: string | null;
  /** editions the story is filed in (besides global) */
  regions: string[];
  /** of those, where it happened: its feeds there rank it first (absent in rows written before migration 27) */
  home_regions?: string[];
  entities: string[];
  score: number;
}

/** A story as the clusterer describes it, as a row (its counts are recounted from the stored articles when written). */
export function storyRowOf(v: StorySummary): StoryRow {
  const row = {
    id: v.id,
    title: v.title,
    lead_article_id: v.lead_article_id,
    article_count: v.article_count,
    publisher_count: v.publisher_count,
    first_seen: new Date(v.first_seen).toISOString(),
    updated_at: new Date(v.updated).toISOString(),
    category: v.category,
    regions: v.regions,
    home_regions: v.home_regions,
    entities: v.entities,
    score: 0,
  };
  return { ...row, score: storyScore(row) };
}

/**
 * Serialises the batches that write to the same stories (several process nodes write at once):
 * a transaction-scoped advisory lock per story, taken in one global order, before the counts
 * are read, so a batch counts the rows another batch committed instead of both writing a count
 * that misses the other's article. Released at commit.
 */
export async function lockStories(sql: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql.query(
    `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(id, 7346) AS k FROM unnest($1::text[]) AS id ORDER BY k) t`,
    [ids],
  );
}

/**
 * Articles and distinct publishers per story, counted from the stored rows (inside the batch's
 * transaction, after its articles are written): a story's counts are then exact whatever was
 * replayed, redelivered or refused on the way.
 */
export async function countStoryArticles(sql: Sql, ids: readonly string[]): Promise<Map<string, { articles: number; publishers: number }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query<{ id: string; n: number; p: number }>(
    `SELECT story_id AS id, count(*)::int AS n, count(DISTINCT publisher_id)::int AS p
       FROM articles WHERE story_id = ANY($1::text[]) GROUP BY story_id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { articles: r.n, publishers: r.p }]));
}

/** Batched idempotent upsert; the newest version of a story wins, counts as given (see `countStoryArticles`). */
export async function upsertStories(sql: Sql, rows: readonly StoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const cols: unknown[][] = Array.from({ length: 12 }, () => []);
  const pgArray = (xs: readonly string[]): string => `{${xs.map((x) => `"${x.replace(/["\\]/g, '')}"`).join(',')}}`;
  for (const r of rows) {
    const v = [r.id, r.title, r.lead_article_id, r.article_count, r.publisher_count, r.first_seen, r.updated_at, r.category,
      pgArray(r.regions), JSON.stringify(r.entities ?? []), r.score, pgArray(r.home_regions ?? [])];
    for (let i = 0; i < v.length; i++) cols[i]!.push(v[i]);
  }
  await sql.query(
    `INSERT INTO stories (id, title, lead_article_id, article_count, publisher_count, first_seen, updated_at, category, regions, entities, score, home_regions)
     SELECT s.id, s.title, s.lead, s.ac, s.pc, s.fs, s.up, s.cat, s.regions::text[], s.ent::jsonb, s.score, s.home::text[]
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::text[],
                   $9::text[], $10::text[], $11::float8[], $12::text[]) AS s(id, title, lead, ac, pc, fs, up, cat, regions, ent, score, home)
     ON CONFLICT (id) DO UPDATE SET
       title = EXCLUDED.title, lead_article_id = EXCLUDED.lead_article_id,
       article_count = EXCLUDED.article_count, publisher_count = EXCLUDED.publisher_count,
       first_seen = LEAST(stories.first_seen, EXCLUDED.first_seen),
       updated_at = GREATEST(stories.updated_at, EXCLUDED.updated_at),
       category = EXCLUDED.category, regions = EXCLUDED.regions, entities = EXCLUDED.entities, score = EXCLUDED.score,
       home_regions = EXCLUDED.home_regions`,
    cols,
  );
}

const STORY_COLS = `id, title, lead_article_id, article_count, publisher_count,
  to_char(first_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS first_seen,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at,
  category, regions, home_regions, entities, score`;

export async function getStories(sql: Sql, ids: readonly string[]): Promise<StoryRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<StoryRow>(`SELECT ${STORY_COLS} FROM stories WHERE id = ANY($1::text[])`, [ids]);
  return rows;
}

/**
 * Ranked story ids for a feed straight from SQL (used to rebuild the cache and when the cache is
 * down): `top` ranks by score, a category by score within it; a region filter keeps stories
 * carried by that edition (global shows all), those that happened there `HOME_BONUS` higher
 * (the feed score, as the cache ranks them).
 */
export async function rankedStories(
  sql: Sql,
  opts: { region: string; category: string; limit: number; sinceIso?: string; after?: { score: number; id: string } | null },
): Promise<{ id: string; score: number }[]> {
  const params: unknown[] = [opts.limit];
  const where: string[] = ['lead_article_id IS NOT NULL'];
  let rank = 'score';
  if (opts.category !== 'top') {
    params.push(opts.category);
    where.push(`category = $${params.length}`);
  }
  if (opts.region !== 'global') {
    params.push(opts.region);
    where.push(`$${params.length} = ANY(regions)`);
    rank = `(score + CASE WHEN $${params.length} = ANY(home_regions) THEN ${HOME_BONUS} ELSE 0 END)`;
  }
  if (opts.after) {
    params.push(opts.after.score, opts.after.id);
    where.push(`(${rank} < $${params.length - 1} OR (${rank} = $${params.length - 1} AND id < $${params.length}))`);
  }
  if (opts.sinceIso) {
    params.push(opts.sinceIso);
    where.push(`updated_at >= $${params.length}`);
  }
  const { rows } = await sql.query<{ id: string; score: number }>(
    `SELECT id, ${rank} AS score FROM stories WHERE ${where.join(' AND ')} ORDER BY ${rank} DESC, id DESC LIMIT $1`,
    params,
  );
  return rows;
}

/**
 * `rankedStories` for many feeds in one statement (one round trip, one wait for a connection):
 * the top `limit` story ids and scores of each (region, category), in rank order per feed.
 */
export async function rankedStoriesByFeed(
  sql: Sql,
  feeds: readonly { region: string; category: string }[],
  limit: number,
): Promise<Map<string, { id: string; score: number }[]>> {
  const out = new Map<string, { id: string; score: number }[]>();
  if (feeds.length === 0) return out;
  const { rows } = await sql.query<{ k: number; id: string; score: number }>(
    `SELECT f.k, s.id, s.score
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS f(region, category, k)
       CROSS JOIN LATERAL (
         SELECT id, score FROM stories
          WHERE lead_article_id IS NOT NULL
            AND (f.category = 'top' OR category = f.category)
            AND (f.region = 'global' OR f.region = ANY(regions))
          ORDER BY score DESC, id DESC
          LIMIT $3
       ) s
      ORDER BY f.k, s.score DESC, s.id DESC`,
    [feeds.map((f) => f.region), feeds.map((f) => f.category), limit],
  );
  for (const r of rows) {
    const f = feeds[Number(r.k) - 1]!;
    const key = `${f.region}:${f.category}`;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push({ id: r.id, score: r.score });
  }
  return out;
}

/** What ranking reads of a story beyond its feed entry: coverage, last update, and what it is about. */
export interface StorySignals {
  id: string;
  publisher_count: number;
  article_count: number;
  updated_ms: number;
  /** the story's entity names (lower case) */
  entities: string[];
  /** the lead article's places (ISO codes or areas) and its named entities (people, organisations, places) */
  lead_places: string[];
  lead_entities: { name: string; type: string }[];
}

export async function storySignals(sql: Sql, ids: readonly string[]): Promise<StorySignals[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<StorySignals>(
    `SELECT s.id, s.publisher_count, s.article_count, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_ms, s.entities,
            COALESCE(a.places, '[]'::jsonb) AS lead_places, COALESCE(a.entities, '[]'::jsonb) AS lead_entities
       FROM stories s LEFT JOIN articles a ON a.id = s.lead_article_id
      WHERE s.id = ANY($1::text[])`,
    [ids],
  );
  return rows;
}

/** A stored article as the story actor replays it after a restart. */
export interface ReplayedArticle {
  article: { id: string; url: string; title: string; summary: string | null; publisher: string; published_at: number; language: string | null; duplicate_of: string | null };
  hints: { entities: unknown[]; places: string[]; category?: string; region?: string };
  story_id: string;
}

/**
 * The clustered articles published since `since`, in the order they were decided (batches by
 * the time they were stored, then dedup handle), for the story actor to rebuild its window. A
 * wordless article has no fingerprint and comes after its batch's others. With `storedSince`
 * (the database's clock, as `databaseNow` reads it), only the articles whose transaction began
 * at or after it (the story actor's catch-up after its replay).
 */
export async function clusteredArticlesSince(sql: Sql, since: number, storedSince?: number): Promise<ReplayedArticle[]> {
  const { rows } = await sql.query<{
    id: string; url: string; title: string; snippet: string | null; publisher_id: string; published_ms: string; language: string | null;
    duplicate_of: string | null; story_id: string; category: string | null; region: string | null; entities: unknown[]; places: string[];
  }>(
    `SELECT a.id, a.url, a.title, a.snippet, a.publisher_id, (extract(epoch FROM a.published_at) * 1000)::bigint::text AS published_ms,
            a.language, a.duplicate_of, a.story_id, a.category, a.region, a.entities, a.places
       FROM articles a LEFT JOIN fingerprints f ON f.article_id = a.id
      WHERE a.published_at >= $1 AND a.story_id IS NOT NULL AND ($2::timestamptz IS NULL OR a.ingested_at >= $2)
      ORDER BY a.ingested_at, f.handle NULLS LAST, a.id`,
    [new Date(since).toISOString(), storedSince === undefined ? null : new Date(storedSince).toISOString()],
  );
  return rows.map((r) => ({
    article: {
      id: r.id, url: r.url, title: r.title, summary: r.snippet, publisher: r.publisher_id, published_at: Number(r.published_ms),
      language: r.language, duplicate_of: r.duplicate_of,
    },
    hints: {
      entities: Array.isArray(r.entities) ? r.entities : [],
      places: Array.isArray(r.places) ? r.places : [],
      ...(r.category ? { category: r.category } : {}),
      ...(r.region ? { region: r.region } : {}),
    },
    story_id: r.story_id,
  }));
}

/** The database's clock (ms): the instant `ingested_at` of a transaction beginning now would carry, or later. */
export async function databaseNow(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ ms: string }>(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint::text AS ms`);
  return Number(rows[0]!.ms);
}
