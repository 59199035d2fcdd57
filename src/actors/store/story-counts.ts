import type { Sql } from '../../runtime/sql.js';
import { storyScore } from './feed-items.js';
import { countStoryArticles, lockStories } from './stories.js';

/**
 * A story's `article_count` and `publisher_count` follow its rows in `articles`. The batch
 * writer recounts every story its rows touch inside its transaction; what else changes rows
 * (retention dropping a month, a batch that wrote an article under a story it did not recount)
 * goes through `recountStories`, and a periodic check (story-count-check.ts) finds and repairs
 * whatever drifted anyway.
 */

/** A story whose stored counts were corrected. */
export interface CountFix {
  id: string;
  before: { articles: number; publishers: number };
  after: { articles: number; publishers: number };
}

/**
 * Recounts `ids` from their rows and writes the counts (and the score, which weighs them) of the
 * stories whose stored counts differ; returns those. Runs inside the caller's transaction, under
 * the per-story locks batch writers take (`lockStories`), so a concurrent batch's article is
 * either counted here or counts itself after this commits; `locked` = the caller holds them.
 */
export async function recountStories(q: Sql, ids: readonly string[], opts: { locked?: boolean } = {}): Promise<CountFix[]> {
  if (ids.length === 0) return [];
  if (!opts.locked) await lockStories(q, ids);
  const counts = await countStoryArticles(q, ids);
  const { rows } = await q.query<{ id: string; n: number; p: number; updated_ms: number }>(
    `SELECT id, article_count AS n, publisher_count AS p, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms
       FROM stories WHERE id = ANY($1::text[])`,
    [ids],
  );
  const fixes: (CountFix & { score: number })[] = [];
  for (const r of rows) {
    const c = counts.get(r.id) ?? { articles: 0, publishers: 0 };
    if (c.articles === r.n && c.publishers === r.p) continue;
    const score = storyScore({ updated_at: new Date(r.updated_ms).toISOString(), article_count: c.articles, publisher_count: c.publishers });
    fixes.push({ id: r.id, before: { articles: r.n, publishers: r.p }, after: c, score });
  }
  if (fixes.length > 0) {
    await q.query(
      `UPDATE stories s SET article_count = f.n, publisher_count = f.p, score = f.score
         FROM unnest($1::text[], $2::int[], $3::int[], $4::float8[]) AS f(id, n, p, score) WHERE s.id = f.id`,
      [fixes.map((f) => f.id), fixes.map((f) => f.after.articles), fixes.map((f) => f.after.publishers), fixes.map((f) => f.score)],
    );
  }
  return fixes.map(({ score: _s, ...f }) => f);
}

/**
 * Of `ids`, the stories whose stored counts differ from their rows, read in one statement (one
 * snapshot, no locks: a batch commits its rows and its counts together, so any difference seen
 * is real drift), leaving out those marked for a recount (retention's work in progress). Cheap
 * enough to run over a slice before locking only the ones that drifted.
 */
export async function driftedStories(sql: Sql, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<{ id: string }>(
    `SELECT s.id FROM stories s
       LEFT JOIN (SELECT story_id, count(*)::int AS n, count(DISTINCT publisher_id)::int AS p
                    FROM articles WHERE story_id = ANY($1::text[]) GROUP BY story_id) c ON c.story_id = s.id
      WHERE s.id = ANY($1::text[]) AND (s.article_count <> COALESCE(c.n, 0) OR s.publisher_count <> COALESCE(c.p, 0))
        AND NOT EXISTS (SELECT 1 FROM story_recounts r WHERE r.story_id = s.id)
      ORDER BY s.id`,
    [ids],
  );
  return rows.map((r) => r.id);
}

/** The next `limit` story ids after `afterId` in id order (a slice of the rolling check); [] past the end. */
export async function storyIdsAfter(sql: Sql, afterId: string, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>('SELECT id FROM stories WHERE id > $1 ORDER BY id LIMIT $2', [afterId, limit]);
  return rows.map((r) => r.id);
}

/**
 * The stories of the articles written since `sinceMs` (the database's clock; through the BRIN
 * index on `ingested_at`: the newest pages of each partition), at most `limit`.
 */
export async function storiesWrittenSince(sql: Sql, sinceMs: number, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT DISTINCT story_id AS id FROM articles WHERE ingested_at >= $1 AND story_id IS NOT NULL LIMIT $2`,
    [new Date(sinceMs).toISOString(), limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Takes up to `limit` stories marked for a recount (`story_recounts`: retention's work left for
 * after a drop) and recounts them, in one transaction; two nodes draining at once take
 * different ones. Returns how many were taken and the fixes.
 */
export async function recountMarked(sql: Sql, limit: number): Promise<{ taken: number; fixes: CountFix[] }> {
  return sql.tx(async (q) => {
    const { rows } = await q.query<{ id: string }>(
      `DELETE FROM story_recounts WHERE story_id IN (SELECT story_id FROM story_recounts ORDER BY story_id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING story_id AS id`,
      [limit],
    );
    const ids = rows.map((r) => r.id);
    return { taken: ids.length, fixes: await recountStories(q, ids) };
  });
}
