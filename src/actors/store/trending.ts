import type { Sql } from '../../runtime/sql.js';

/** Per story active in a window: coverage velocity and clicks, each already decayed by age. */
export interface TrendingStory {
  id: string;
  regions: string[];
  updated_ms: number;
  /** Σ over distinct publishers of 0.5^(age of its first article in the story / half-life) */
  velocity: number;
  /** Σ over distinct readers of 0.5^(age of its last click on the story / half-life); anonymous clicks are one reader */
  clicks: number;
}

/**
 * The trending signals of every story some publisher covered in the window, aggregated in the
 * database (one row per story comes back, however many articles and clicks the window holds):
 * each distinct publisher counts by how recently it joined the story, each distinct reader by
 * how recently it clicked, with the given half-lives. Reads articles by publish time and clicks
 * by time, on their time indexes. (The decay is float8 maths: `extract(epoch ...)` is numeric, and
 * numeric `power` made the sum over 100,000 clicks take a second.)
 */
export async function trendingStories(
  sql: Sql,
  window: { since: number; until: number },
  halfLives: { velocityMs: number; clicksMs: number },
): Promise<TrendingStory[]> {
  const { rows } = await sql.query<TrendingStory>(
    `WITH cov AS (
       SELECT story_id, sum(power(0.5::float8, extract(epoch FROM ($2::timestamptz - first))::float8 * 1000 / $3::float8)) AS velocity
         FROM (SELECT story_id, publisher_id, min(published_at) AS first FROM articles
                WHERE published_at >= $1 AND published_at <= $2 AND story_id IS NOT NULL
                GROUP BY story_id, publisher_id) p
        GROUP BY story_id),
     clk AS (
       SELECT story_id, sum(power(0.5::float8, extract(epoch FROM ($2::timestamptz - last))::float8 * 1000 / $4::float8)) AS clicks
         FROM (SELECT story_id, reader, max(at) AS last FROM clicks
                WHERE at >= $1 AND at <= $2 AND story_id IS NOT NULL
                GROUP BY story_id, reader) r
        GROUP BY story_id)
     SELECT s.id, s.regions, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_ms,
            cov.velocity::float8 AS velocity, COALESCE(clk.clicks, 0)::float8 AS clicks
       FROM cov JOIN stories s ON s.id = cov.story_id LEFT JOIN clk ON clk.story_id = cov.story_id
      WHERE s.lead_article_id IS NOT NULL`,
    [new Date(window.since).toISOString(), new Date(window.until).toISOString(), halfLives.velocityMs, halfLives.clicksMs],
  );
  return rows;
}
