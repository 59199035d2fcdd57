import type { Sql } from '../../runtime/sql.js';

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
  regions: string[];
  entities: string[];
  score: number;
}

/** Batched idempotent upsert; the newest version of a story wins. */
export async function upsertStories(sql: Sql, rows: readonly StoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const cols: unknown[][] = Array.from({ length: 11 }, () => []);
  for (const r of rows) {
    const v = [r.id, r.title, r.lead_article_id, r.article_count, r.publisher_count, r.first_seen, r.updated_at, r.category,
      `{${r.regions.map((x) => `"${x.replace(/["\\]/g, '')}"`).join(',')}}`, JSON.stringify(r.entities ?? []), r.score];
    for (let i = 0; i < v.length; i++) cols[i]!.push(v[i]);
  }
  await sql.query(
    `INSERT INTO stories (id, title, lead_article_id, article_count, publisher_count, first_seen, updated_at, category, regions, entities, score)
     SELECT s.id, s.title, s.lead, s.ac, s.pc, s.fs, s.up, s.cat, s.regions::text[], s.ent::jsonb, s.score
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::text[],
                   $9::text[], $10::text[], $11::float8[]) AS s(id, title, lead, ac, pc, fs, up, cat, regions, ent, score)
     ON CONFLICT (id) DO UPDATE SET
       title = EXCLUDED.title, lead_article_id = EXCLUDED.lead_article_id,
       article_count = GREATEST(stories.article_count, EXCLUDED.article_count),
       publisher_count = GREATEST(stories.publisher_count, EXCLUDED.publisher_count),
       first_seen = LEAST(stories.first_seen, EXCLUDED.first_seen),
       updated_at = GREATEST(stories.updated_at, EXCLUDED.updated_at),
       category = EXCLUDED.category, regions = EXCLUDED.regions, entities = EXCLUDED.entities, score = EXCLUDED.score`,
    cols,
  );
}

const STORY_COLS = `id, title, lead_article_id, article_count, publisher_count,
  to_char(first_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS first_seen,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at,
  category, regions, entities, score`;

export async function getStories(sql: Sql, ids: readonly string[]): Promise<StoryRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<StoryRow>(`SELECT ${STORY_COLS} FROM stories WHERE id = ANY($1::text[])`, [ids]);
  return rows;
}

/**
 * Ranked story ids for a feed straight from SQL (used to rebuild the cache and when the cache is
 * down): `top` ranks by score, a category by score within it; a region filter keeps stories
 * carried by that edition (global shows all).
 */
export async function rankedStories(
  sql: Sql,
  opts: { region: string; category: string; limit: number; sinceIso?: string; after?: { score: number; id: string } | null },
): Promise<{ id: string; score: number }[]> {
  const params: unknown[] = [opts.limit];
  const where: string[] = ['lead_article_id IS NOT NULL'];
  if (opts.category !== 'top') {
    params.push(opts.category);
    where.push(`category = $${params.length}`);
  }
  if (opts.region !== 'global') {
    params.push(opts.region);
    where.push(`$${params.length} = ANY(regions)`);
  }
  if (opts.after) {
    params.push(opts.after.score, opts.after.id);
    where.push(`(score < $${params.length - 1} OR (score = $${params.length - 1} AND id < $${params.length}))`);
  }
  if (opts.sinceIso) {
    params.push(opts.sinceIso);
    where.push(`updated_at >= $${params.length}`);
  }
  const { rows } = await sql.query<{ id: string; score: number }>(
    `SELECT id, score FROM stories WHERE ${where.join(' AND ')} ORDER BY score DESC, id DESC LIMIT $1`,
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
