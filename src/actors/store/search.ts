import { describeError, isOutage } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';

/** matches ranked per query at most (the newest ones) */
export const MAX_CANDIDATES = 2_000;

export interface SearchHit {
  id: string;
  story_id: string | null;
  rank: number;
}

/** A hit with the article fields a search page shows (no url hash, simhash or entities). */
export interface SearchResult extends SearchHit {
  title: string;
  snippet: string | null;
  thumbnail_url: string | null;
  publisher_id: string;
  publisher_name: string;
  url: string;
  published_at: string;
  category: string | null;
  /** the article's secondary category (migration 31) */
  secondary_category: string | null;
  region: string | null;
  language: string | null;
  duplicate_of: string | null;
  /** how many of the ranked candidates belong to this hit's story (1 for an article in no story) */
  matches: number;
  /** the story's article count (1 for an article in no story) */
  coverage_count: number;
}

/**
 * Postgres full-text search over title (weight A) and snippet (B) with websearch syntax,
 * blended with recency: rank = ts_rank_cd * 1 / (1 + age_days / halfLifeDays), among the
 * MAX_CANDIDATES newest matches, folded to one hit per story: its best-ranked article, with how
 * many of the candidates the story had (migration 25). Keyset paging on (rank, id) of that article
 * keeps pages disjoint; duplicates of an original are left out. One statement (the
 * `search_articles` function), which also returns the articles' fields and publisher names. Queries whose words are in many articles
 * (see refreshCommonLexemes, migration 5) are planned for their own text, so they walk the newest
 * articles instead of fetching every match.
 */
export async function searchArticles(
  sql: Sql,
  opts: { q: string; category?: string | null; region?: string | null; limit: number; after?: { rank: number; id: string } | null; now: number; halfLifeDays?: number; /** only articles in this language (ISO 639-1), the query parsed with its configuration */ lang?: string | null },
): Promise<SearchResult[]> {
  const { rows } = await sql.query<SearchResult>('SELECT * FROM search_articles($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
    opts.q,
    new Date(opts.now).toISOString(),
    opts.halfLifeDays ?? 3,
    opts.category || null,
    opts.region && opts.region !== 'global' ? opts.region : null,
    opts.after ? opts.after.rank : null,
    opts.after ? opts.after.id : null,
    opts.limit,
    MAX_CANDIDATES,
    opts.lang || null,
  ]);
  return rows;
}

/** minutes between two refreshes of the common-lexeme table (autovacuum's ANALYZE moves slowly) */
export const COMMON_LEXEMES_REFRESH_MS = 10 * 60_000;

/**
 * Rebuilds the table of lexemes found in at least 1 % of the articles from PostgreSQL's column
 * statistics (`refresh_search_common_lexemes`, migration 5); returns how many there are. Cheap (it
 * reads pg_stats only); call it after bulk loads and ANALYZE, and now and then.
 */
export async function refreshCommonLexemes(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT refresh_search_common_lexemes() AS n');
  return rows[0]!.n;
}

/** Refreshes the common lexemes now and every `everyMs`; returns the function that stops it. */
export function keepCommonLexemesFresh(sql: Sql, log: Logger, everyMs = COMMON_LEXEMES_REFRESH_MS): () => void {
  const refresh = () => {
    refreshCommonLexemes(sql).then(
      (n) => log.debug({ common_lexemes: n }, 'search common lexemes refreshed'),
      (err: unknown) => log[isOutage(err) ? 'debug' : 'warn']({ err: describeError(err) }, 'search common lexemes refresh failed'),
    );
  };
  refresh();
  const timer = setInterval(refresh, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
