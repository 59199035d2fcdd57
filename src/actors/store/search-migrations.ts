/**
 * The search migrations' SQL (migrations 4, 5 and 25): `search_articles` returning one page, the
 * common-lexeme table that decides which queries are planned for their literal, and the fold of
 * the page to one result per story.
 */

// Search as one function, so the whole request is one statement: PL/pgSQL keeps its plan per
// connection (planning the query over every month partition cost nearly as much as running it), and
// the page comes back with its article fields and publisher names (no second query by id).
// The tsquery sits in a CTE, so the planner never saw its text anyway and a generic plan is the
// same plan. Semantics as before: title weight A over snippet B, websearch syntax, the newest
// p_candidates matches ranked by ts_rank_cd x 1 / (1 + age_days / half_life), keyset on (rank, id).
export const searchFunction = `
CREATE FUNCTION search_articles(p_q text, p_at timestamptz, p_half_life_days numeric, p_category text, p_region text,
                                p_after_rank float8, p_after_id text, p_limit integer, p_candidates integer)
RETURNS TABLE (rank float8, id text, story_id text, title text, snippet text, thumbnail_url text, publisher_id text,
               publisher_name text, url text, published_at text, category text, region text, language text, duplicate_of text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH q AS (SELECT websearch_to_tsquery('english', p_q) AS tsq),
  recent AS (
    SELECT a.id, a.story_id, a.title, a.snippet, a.thumbnail_url, a.publisher_id, a.url, a.published_at, a.category,
           a.region, a.language, a.duplicate_of, a.search
      FROM articles a, q
     WHERE a.search @@ q.tsq AND a.duplicate_of IS NULL
       AND (p_category IS NULL OR a.category = p_category) AND (p_region IS NULL OR a.region = p_region)
     ORDER BY a.published_at DESC LIMIT p_candidates
  ),
  hits AS (
    SELECT r.*, round((ts_rank_cd(r.search, q.tsq) /
             (1 + GREATEST(0, extract(epoch FROM (p_at - r.published_at)) / 86400.0) / p_half_life_days))::numeric, 9)::float8 AS rank
      FROM recent r, q
  ),
  page AS (
    SELECT * FROM hits h
     WHERE p_after_id IS NULL OR h.rank < p_after_rank OR (h.rank = p_after_rank AND h.id < p_after_id)
     ORDER BY h.rank DESC, h.id DESC LIMIT p_limit
  )
  SELECT t.rank, t.id, t.story_id, t.title, t.snippet::text, t.thumbnail_url, t.publisher_id, COALESCE(p.name, t.publisher_id),
         t.url, to_char(t.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), t.category, t.region, t.language, t.duplicate_of
    FROM page t LEFT JOIN publishers p ON p.id = t.publisher_id
   ORDER BY t.rank DESC, t.id DESC;
END
$fn$;
`;

// Common words. search_articles' plan is generic: it always takes the GIN bitmap, which for a word in
// half the articles fetches and sorts every match (seconds on a million rows). Seeing the literal,
// the planner walks the recency index instead and stops after p_candidates matches, but planning
// every query halves the rate of ordinary (rare-word) queries. So a small table of the lexemes in
// at least 1 % of the articles, filled from PostgreSQL's own statistics by
// refresh_search_common_lexemes() (at this migration, when an API role starts and every few
// minutes), tells the function which queries may match that many rows: those are planned with
// their literal (EXECUTE ... USING), the others keep the cached generic plan. Both branches run the
// same statement; candidates are now ordered by (published_at, id) so ties at the p_candidates
// boundary no longer depend on the plan.
export interface SearchSqlParts {
  cte: string;
  from: string;
  tsq: string;
  at: string;
  halfLife: string;
  category: string;
  region: string;
  afterRank: string;
  afterId: string;
  limit: string;
  candidates: string;
  /** the language filter's parameter (migration 46); absent: no filter (earlier migrations' text unchanged) */
  lang?: string;
  /**
   * (migration 46) the query as parsed in a row's own language, given the row's alias: a hit must
   * match it too (`tsq` only finds candidates in the index), and it is what ranks the row
   */
  own?: (alias: string) => string;
}

const searchStatement = (p: SearchSqlParts) => `
  WITH ${p.cte}recent AS (
    SELECT a.id, a.story_id, a.title, a.snippet, a.thumbnail_url, a.publisher_id, a.url, a.published_at, a.category,
           a.region, a.language, a.duplicate_of, a.search
      FROM articles a${p.from}
     WHERE a.search @@ ${p.tsq} AND a.duplicate_of IS NULL
       AND (${p.category} IS NULL OR a.category = ${p.category}) AND (${p.region} IS NULL OR a.region = ${p.region})${p.lang ? `
       AND (${p.lang} IS NULL OR a.language = ${p.lang})` : ''}
     ORDER BY a.published_at DESC, a.id DESC LIMIT ${p.candidates}
  ),
  hits AS (
    SELECT r.*, round((ts_rank_cd(r.search, ${p.tsq}) /
             (1 + GREATEST(0, extract(epoch FROM (${p.at} - r.published_at)) / 86400.0) / ${p.halfLife}))::numeric, 9)::float8 AS rank
      FROM recent r${p.from}
  ),
  page AS (
    SELECT * FROM hits h
     WHERE ${p.afterId} IS NULL OR h.rank < ${p.afterRank} OR (h.rank = ${p.afterRank} AND h.id < ${p.afterId})
     ORDER BY h.rank DESC, h.id DESC LIMIT ${p.limit}
  )
  SELECT t.rank, t.id, t.story_id, t.title, t.snippet::text, t.thumbnail_url, t.publisher_id, COALESCE(p.name, t.publisher_id),
         t.url, to_char(t.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), t.category, t.region, t.language, t.duplicate_of
    FROM page t LEFT JOIN publishers p ON p.id = t.publisher_id
   ORDER BY t.rank DESC, t.id DESC`;

/** Share of the articles from which a query counts as common and is planned for its literal. */
export const COMMON_QUERY_FREQ = 0.01;

export const searchCommonLexemes = `
CREATE TABLE search_common_lexemes (
  lexeme text PRIMARY KEY,
  freq float8 NOT NULL            -- share of the analysed articles whose search vector holds it
);

-- Rebuilds search_common_lexemes from the partitions' statistics (most_common_elems of search, as
-- ANALYZE and autovacuum leave them), weighted by partition size. Partitions never analysed are
-- left out; with no statistics at all the table ends empty and every query keeps the generic plan.
CREATE FUNCTION refresh_search_common_lexemes(p_min_freq float8 DEFAULT ${COMMON_QUERY_FREQ}) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7324112002);  -- two nodes refreshing at once would collide on the key
  DELETE FROM search_common_lexemes;
  WITH parts AS (
    SELECT ns.nspname, c.relname, c.reltuples::float8 AS n_rows
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace
     WHERE i.inhparent = 'articles'::regclass AND c.reltuples > 0
  ),
  stats AS (
    SELECT p.n_rows, s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
      FROM parts p JOIN pg_stats s ON s.schemaname = p.nspname AND s.tablename = p.relname AND s.attname = 'search' AND NOT s.inherited
  ),
  total AS (SELECT sum(n_rows) AS n_rows FROM stats)
  INSERT INTO search_common_lexemes (lexeme, freq)
  SELECT e.lexeme, sum(e.freq * s.n_rows) / t.n_rows
    FROM stats s CROSS JOIN total t CROSS JOIN LATERAL unnest(s.elems, s.freqs) AS e(lexeme, freq)
   WHERE e.lexeme IS NOT NULL  -- freqs carries two more entries (min and max) than elems
   GROUP BY e.lexeme, t.n_rows
  HAVING sum(e.freq * s.n_rows) / t.n_rows >= p_min_freq;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;

-- An upper estimate of the share of articles a websearch query matches: the product of its
-- lexemes' shares for AND and phrases, their sum when it has an OR; lexemes missing from
-- search_common_lexemes count as 0, negated ones are ignored, and a query of negations only
-- counts as 1 (it matches nearly everything). An empty query counts as 0. Most queries hold no
-- common lexeme and no negation; they are answered by one index probe.
CREATE FUNCTION search_query_freq(p_q text) RETURNS float8 LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  t text;
  n integer;
  f float8;
BEGIN
  IF strpos(p_q, '-') = 0
     AND NOT EXISTS (SELECT 1 FROM search_common_lexemes WHERE lexeme = ANY (tsvector_to_array(to_tsvector('english', p_q)))) THEN
    RETURN 0;
  END IF;
  t := websearch_to_tsquery('english', p_q)::text;
  IF t = '' THEN
    RETURN 0;
  END IF;
  -- lexemes print as 'word' with quotes doubled; negations as !'word' or !( 'a' <-> 'b' )
  SELECT count(*), CASE WHEN strpos(t, '|') > 0 THEN least(1, sum(coalesce(c.freq, 0)))
                        WHEN bool_and(c.freq IS NOT NULL) THEN exp(sum(ln(c.freq))) ELSE 0 END
    INTO n, f
    FROM regexp_matches(regexp_replace(t, $re$!\\s*(\\([^()]*\\)|'([^']|'')*')$re$, '', 'g'), $re$'(([^']|'')*)'$re$, 'g') AS m
    LEFT JOIN search_common_lexemes c ON c.lexeme = replace(m[1], '''''', '''');
  RETURN CASE WHEN n = 0 THEN 1 ELSE f END;
END
$fn$;

CREATE OR REPLACE FUNCTION search_articles(p_q text, p_at timestamptz, p_half_life_days numeric, p_category text, p_region text,
                                           p_after_rank float8, p_after_id text, p_limit integer, p_candidates integer)
RETURNS TABLE (rank float8, id text, story_id text, title text, snippet text, thumbnail_url text, publisher_id text,
               publisher_name text, url text, published_at text, category text, region text, language text, duplicate_of text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  v_tsq tsquery := websearch_to_tsquery('english', p_q);
BEGIN
  IF search_query_freq(p_q) >= ${COMMON_QUERY_FREQ} THEN
    -- planned for this literal: for a common word, the recency index with a filter
    RETURN QUERY EXECUTE $q$${searchStatement({
      cte: '', from: '', tsq: '$1', at: '$2', halfLife: '$3', category: '$4', region: '$5', afterRank: '$6', afterId: '$7', limit: '$8', candidates: '$9',
    })}$q$
    USING v_tsq, p_at, p_half_life_days, p_category, p_region, p_after_rank, p_after_id, p_limit, p_candidates;
  ELSE
    -- the tsquery sits in a CTE, so the cached plan is the same for every query: the GIN bitmap
    RETURN QUERY${searchStatement({
      cte: 'q AS (SELECT v_tsq AS tsq),\n  ', from: ', q', tsq: 'q.tsq', at: 'p_at', halfLife: 'p_half_life_days', category: 'p_category', region: 'p_region',
      afterRank: 'p_after_rank', afterId: 'p_after_id', limit: 'p_limit', candidates: 'p_candidates',
    })};
  END IF;
END
$fn$;

SELECT refresh_search_common_lexemes();
`;

// Grouped by story (migration 25). A reader searching "earthquake" wants each story once, not
// every outlet's copy of it: the ranked candidates are folded to the best-ranked article per story
// (an article not yet in a story is its own group), with the number of candidates the story had;
// keyset paging stays on the (rank, id) of that best article, so cursors work as before. Only the
// narrow (id, group, rank) rows are sorted for the fold; the page's fields are joined back from
// the candidates afterwards, and the story's article count comes with them.
export const groupedStatement = (p: SearchSqlParts, secondary = false) => `
  WITH ${p.cte}recent AS (
    SELECT a.id, a.story_id, a.title, a.snippet, a.thumbnail_url, a.publisher_id, a.url, a.published_at, a.category,
           a.region, a.language, a.duplicate_of, a.search${secondary ? ', a.secondary_category' : ''}
      FROM articles a${p.from}
     WHERE a.search @@ ${p.tsq}${p.own ? ` AND a.search @@ ${p.own('a')}` : ''} AND a.duplicate_of IS NULL
       AND (${p.category} IS NULL OR a.category = ${p.category}) AND (${p.region} IS NULL OR a.region = ${p.region})${p.lang ? `
       AND (${p.lang} IS NULL OR a.language = ${p.lang})` : ''}
     ORDER BY a.published_at DESC, a.id DESC LIMIT ${p.candidates}
  ),
  hits AS (
    SELECT r.id, COALESCE(r.story_id, ' ' || r.id) AS grp, round((ts_rank_cd(r.search, ${p.own ? p.own('r') : p.tsq}) /
             (1 + GREATEST(0, extract(epoch FROM (${p.at} - r.published_at)) / 86400.0) / ${p.halfLife}))::numeric, 9)::float8 AS rank
      FROM recent r${p.from}
  ),
  best AS (
    SELECT DISTINCT ON (h.grp) h.id, h.rank, count(*) OVER (PARTITION BY h.grp)::integer AS matches
      FROM hits h
     ORDER BY h.grp, h.rank DESC, h.id DESC
  ),
  page AS (
    SELECT * FROM best b
     WHERE ${p.afterId} IS NULL OR b.rank < ${p.afterRank} OR (b.rank = ${p.afterRank} AND b.id < ${p.afterId})
     ORDER BY b.rank DESC, b.id DESC LIMIT ${p.limit}
  )
  SELECT g.rank, t.id, t.story_id, t.title, t.snippet::text, t.thumbnail_url, t.publisher_id, COALESCE(p.name, t.publisher_id),
         t.url, to_char(t.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), t.category, t.region, t.language, t.duplicate_of,
         g.matches, COALESCE(s.article_count, 1)${secondary ? ', t.secondary_category' : ''}
    FROM page g JOIN recent t ON t.id = g.id
    LEFT JOIN publishers p ON p.id = t.publisher_id
    LEFT JOIN stories s ON s.id = t.story_id
   ORDER BY g.rank DESC, g.id DESC`;

const groupedFunction = (secondary: boolean): string => `
DROP FUNCTION search_articles(text, timestamptz, numeric, text, text, float8, text, integer, integer);
CREATE FUNCTION search_articles(p_q text, p_at timestamptz, p_half_life_days numeric, p_category text, p_region text,
                                p_after_rank float8, p_after_id text, p_limit integer, p_candidates integer)
RETURNS TABLE (rank float8, id text, story_id text, title text, snippet text, thumbnail_url text, publisher_id text,
               publisher_name text, url text, published_at text, category text, region text, language text, duplicate_of text,
               matches integer, coverage_count integer${secondary ? ', secondary_category text' : ''})
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  v_tsq tsquery := websearch_to_tsquery('english', p_q);
BEGIN
  IF search_query_freq(p_q) >= ${COMMON_QUERY_FREQ} THEN
    RETURN QUERY EXECUTE $q$${groupedStatement({
      cte: '', from: '', tsq: '$1', at: '$2', halfLife: '$3', category: '$4', region: '$5', afterRank: '$6', afterId: '$7', limit: '$8', candidates: '$9',
    }, secondary)}$q$
    USING v_tsq, p_at, p_half_life_days, p_category, p_region, p_after_rank, p_after_id, p_limit, p_candidates;
  ELSE
    RETURN QUERY${groupedStatement({
      cte: 'q AS (SELECT v_tsq AS tsq),\n  ', from: ', q', tsq: 'q.tsq', at: 'p_at', halfLife: 'p_half_life_days', category: 'p_category', region: 'p_region',
      afterRank: 'p_after_rank', afterId: 'p_after_id', limit: 'p_limit', candidates: 'p_candidates',
    }, secondary)};
  END IF;
END
$fn$;
`;

export const searchGroupedByStory = groupedFunction(false);

// Migration 31: the same search, its hits also carrying the article's secondary category (the
// column of migration 30), so search items show it like every other article view.
export const searchWithSecondaryCategory = groupedFunction(true);
