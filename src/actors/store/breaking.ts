import type { CoverageCandidate } from '../breaking/acceleration.js';
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
 * The articles (with a story) stored since `since` (ms), newest first, at most `limit`: what a
 * detector that starts counts again. Through the BRIN index on `ingested_at`.
 */
export async function recentArticles(sql: Sql, since: number, limit: number): Promise<RecentArticle[]> {
  const { rows } = await sql.query<RecentArticle>(
    `SELECT id, story_id, publisher_id, ${ms('published_at')}, ${ms('ingested_at')}, entities, places
       FROM articles WHERE ingested_at >= to_timestamp($1 / 1000.0) AND story_id IS NOT NULL
      ORDER BY ingested_at DESC LIMIT $2`,
    [since, limit],
  );
  return rows;
}

/**
 * The publishers that wrote about these editions or this category since `since` (ms), with how
 * many articles of each and their feed's health: the candidates for accelerated polling while a
 * story breaks (acceleration.ts picks among them). `global` stands for articles without an edition.
 * Reads the day's articles through the BRIN index on `ingested_at`; once per story that starts breaking.
 */
export async function coverageCandidates(sql: Sql, regions: readonly string[], category: string | null, since: number): Promise<CoverageCandidate[]> {
  if (regions.length === 0 && category === null) return [];
  const { rows } = await sql.query<{ id: string; feed_url: string; circuit: string; circuit_reason: string | null; region_n: number; topic_n: number }>(
    `SELECT p.id, p.feed_url, p.circuit, p.circuit_reason, c.region_n, c.topic_n
       FROM (SELECT publisher_id,
                    count(*) FILTER (WHERE region = ANY($1::text[]) OR ($2 AND region IS NULL))::int AS region_n,
                    count(*) FILTER (WHERE category = $3)::int AS topic_n
               FROM articles
              WHERE ingested_at >= to_timestamp($4 / 1000.0)
                AND (region = ANY($1::text[]) OR ($2 AND region IS NULL) OR category = $3)
              GROUP BY publisher_id) c
       JOIN publishers p ON p.id = c.publisher_id`,
    [regions, regions.includes('global'), category, since],
  );
  return rows.map((r) => ({ id: r.id, feedUrl: r.feed_url, circuit: r.circuit, lastError: r.circuit_reason, regionArticles: r.region_n, topicArticles: r.topic_n }));
}
