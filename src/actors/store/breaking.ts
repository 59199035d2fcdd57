import type { Sql } from '../../runtime/sql.js';

/** A breaking story as stored (migration 18). Times are epoch ms. */
export interface BreakingRow {
  story_id: string;
  since: number;
  last_spike_at: number;
  ended_at: number | null;
  regions: string[];
  /** the key that spiked: `s:<story>`, `e:<entity>` or `p:<place>` */
  signal: string;
  articles: number;
  publishers: number;
  baseline: number;
}

const ms = (col: string) => `(extract(epoch from ${col}) * 1000)::float8 AS ${col}`;
const COLS = `story_id, ${ms('since')}, ${ms('last_spike_at')}, ${ms('ended_at')}, regions, signal, articles, publishers, baseline`;

/** Writes new or refreshed breaking stories (idempotent: the newest figures win, `since` stays the first). */
export async function upsertBreaking(sql: Sql, rows: readonly BreakingRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO breaking_stories (story_id, since, last_spike_at, ended_at, regions, signal, articles, publishers, baseline)
     SELECT b.id, to_timestamp(b.since / 1000.0), to_timestamp(b.spike / 1000.0), NULL, b.regions::text[], b.signal, b.articles, b.publishers, b.baseline
       FROM unnest($1::text[], $2::float8[], $3::float8[], $4::text[], $5::text[], $6::int[], $7::int[], $8::float8[])
         AS b(id, since, spike, regions, signal, articles, publishers, baseline)
     ON CONFLICT (story_id) DO UPDATE SET
       since = CASE WHEN breaking_stories.ended_at IS NULL THEN LEAST(breaking_stories.since, EXCLUDED.since) ELSE EXCLUDED.since END,
       last_spike_at = GREATEST(breaking_stories.last_spike_at, EXCLUDED.last_spike_at), ended_at = NULL,
       regions = EXCLUDED.regions, signal = EXCLUDED.signal, articles = EXCLUDED.articles,
       publishers = EXCLUDED.publishers, baseline = EXCLUDED.baseline`,
    [
      rows.map((r) => r.story_id), rows.map((r) => r.since), rows.map((r) => r.last_spike_at),
      rows.map((r) => `{${r.regions.map((x) => `"${x.replace(/["\\]/g, '')}"`).join(',')}}`),
      rows.map((r) => r.signal), rows.map((r) => r.articles), rows.map((r) => r.publishers), rows.map((r) => r.baseline),
    ],
  );
}

/** Marks stories as no longer breaking. */
export async function endBreaking(sql: Sql, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await sql.query('UPDATE breaking_stories SET ended_at = to_timestamp($2 / 1000.0) WHERE story_id = ANY($1::text[]) AND ended_at IS NULL', [ids, at]);
}

/** Stories breaking now, newest first. */
export async function activeBreaking(sql: Sql): Promise<BreakingRow[]> {
  const { rows } = await sql.query<BreakingRow>(`SELECT ${COLS} FROM breaking_stories WHERE ended_at IS NULL ORDER BY since DESC, story_id`);
  return rows;
}

/** Forgets stories that ended before `before` (ms). */
export async function pruneBreaking(sql: Sql, before: number): Promise<number> {
  const { rowCount } = await sql.query('DELETE FROM breaking_stories WHERE ended_at < to_timestamp($1 / 1000.0)', [before]);
  return rowCount;
}

/** What the detector reads of a stored article. */
export interface RecentArticle {
  id: string;
  story_id: string;
  publisher_id: string;
  /** publication time, ms */
  published_at: number;
  /** arrival time, ms */
  ingested_at: number;
  entities: { name: string; type: string }[];
  places: string[];
}

/**
 * Articles of these stories published since `since` (ms), through the (story_id, published_at)
 * index; duplicates included (a wire copy run by one more outlet is one more publisher carrying the story).
 */
export async function recentStoryArticles(sql: Sql, storyIds: readonly string[], since: number): Promise<RecentArticle[]> {
  if (storyIds.length === 0) return [];
  const { rows } = await sql.query<RecentArticle>(
    `SELECT id, story_id, publisher_id, ${ms('published_at')}, ${ms('ingested_at')}, entities, places
       FROM articles WHERE story_id = ANY($1::text[]) AND published_at >= to_timestamp($2 / 1000.0)`,
    [storyIds, since],
  );
  return rows;
}

/**
 * The highest-tier publishers (`tier` 1) of these editions, at most `limit`; `global` stands for
 * publishers without an edition. Their ids, for accelerated polling while a story breaks.
 */
export async function tierOnePublishers(sql: Sql, regions: readonly string[], limit: number): Promise<string[]> {
  if (regions.length === 0) return [];
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM publishers WHERE tier = 1 AND (region = ANY($1::text[]) OR ($2 AND (region IS NULL OR region = 'global')))
      ORDER BY id LIMIT $3`,
    [regions, regions.includes('global'), limit],
  );
  return rows.map((r) => r.id);
}
