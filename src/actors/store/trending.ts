import type { Sql } from '../../runtime/sql.js';

/** What trending reads for the stories active in a window: who covered them when, who clicked when. */
export interface TrendingSignals {
  /** per story and publisher: when the publisher first covered the story in the window (epoch ms) */
  coverage: { story_id: string; publisher_id: string; t: number }[];
  /** per story and reader: the reader's last click on it in the window (anonymous clicks count as one reader) */
  clicks: { story_id: string; t: number }[];
  /** the stories named above: editions and last update */
  stories: { id: string; regions: string[]; updated_ms: number }[];
}

/**
 * Two aggregates over the window (articles by publish time, clicks by time, both on their time
 * indexes) and the stories they name; cost grows with the window's articles, not the table's.
 */
export async function trendingSignals(sql: Sql, since: number, until: number): Promise<TrendingSignals> {
  const lo = new Date(since).toISOString();
  const hi = new Date(until).toISOString();
  const [coverage, clicks] = await Promise.all([
    sql.query<{ story_id: string; publisher_id: string; t: number }>(
      `SELECT story_id, publisher_id, (extract(epoch FROM min(published_at)) * 1000)::float8 AS t
         FROM articles WHERE published_at >= $1 AND published_at <= $2 AND story_id IS NOT NULL
        GROUP BY story_id, publisher_id`,
      [lo, hi],
    ),
    sql.query<{ story_id: string; t: number }>(
      `SELECT story_id, (extract(epoch FROM max(at)) * 1000)::float8 AS t
         FROM clicks WHERE at >= $1 AND at <= $2 AND story_id IS NOT NULL
        GROUP BY story_id, reader`,
      [lo, hi],
    ),
  ]);
  const ids = [...new Set([...coverage.rows.map((r) => r.story_id), ...clicks.rows.map((r) => r.story_id)])];
  const stories = ids.length === 0 ? { rows: [] } : await sql.query<{ id: string; regions: string[]; updated_ms: number }>(
    `SELECT id, regions, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms
       FROM stories WHERE id = ANY($1::text[]) AND lead_article_id IS NOT NULL`,
    [ids],
  );
  return { coverage: coverage.rows, clicks: clicks.rows, stories: stories.rows };
}
