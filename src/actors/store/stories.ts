import type { Sql } from '../../runtime/sql.js';
import { HOME_BONUS } from './feed-items.js';

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

/** Batched idempotent upsert; the newest version of a story wins. */
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
       article_count = GREATEST(stories.article_count, EXCLUDED.article_count),
       publisher_count = GREATEST(stories.publisher_count, EXCLUDED.publisher_count),
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
