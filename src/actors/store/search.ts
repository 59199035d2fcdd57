import type { Sql } from '../../runtime/sql.js';

/** matches ranked per query at most (the newest ones) */
export const MAX_CANDIDATES = 2_000;

export interface SearchHit {
  id: string;
  story_id: string | null;
  rank: number;
}

/**
 * Postgres full-text search over title (weight A) and snippet (B) with websearch syntax,
 * blended with recency: rank = ts_rank_cd * 1 / (1 + age_days / halfLifeDays). Keyset paging
 * on (rank, id) keeps pages disjoint; duplicates of an original are left out.
 */
export async function searchArticles(
  sql: Sql,
  opts: { q: string; category?: string | null; region?: string | null; limit: number; after?: { rank: number; id: string } | null; now: number; halfLifeDays?: number },
): Promise<SearchHit[]> {
  const params: unknown[] = [opts.q, new Date(opts.now).toISOString(), opts.halfLifeDays ?? 3, opts.limit];
  const where = ['a.search @@ q.tsq', 'a.duplicate_of IS NULL'];
  if (opts.category) {
    params.push(opts.category);
    where.push(`a.category = $${params.length}`);
  }
  if (opts.region && opts.region !== 'global') {
    params.push(opts.region);
    where.push(`a.region = $${params.length}`);
  }
  let after = '';
  if (opts.after) {
    params.push(opts.after.rank, opts.after.id);
    after = `WHERE (rank < $${params.length - 1} OR (rank = $${params.length - 1} AND id < $${params.length}))`;
  }
  const { rows } = await sql.query<SearchHit>(
    `WITH q AS (SELECT websearch_to_tsquery('english', $1) AS tsq),
     -- rank only the most recent matches: a common word can match a large share of the archive,
     -- and the recency blend makes old matches unlikely to rank anyway
     recent AS (
       SELECT a.id, a.story_id, a.search, a.published_at FROM articles a, q
        WHERE ${where.join(' AND ')} ORDER BY a.published_at DESC LIMIT ${MAX_CANDIDATES}
     ),
     hits AS (
       SELECT r.id, r.story_id,
              round((ts_rank_cd(r.search, q.tsq) /
                (1 + GREATEST(0, extract(epoch FROM ($2::timestamptz - r.published_at)) / 86400.0) / $3))::numeric, 9)::float8 AS rank
         FROM recent r, q
     )
     SELECT id, story_id, rank FROM hits ${after} ORDER BY rank DESC, id DESC LIMIT $4`,
    params,
  );
  return rows;
}
