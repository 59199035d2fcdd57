import { COMMON_QUERY_FREQ, groupedStatement } from './search-migrations.js';

/**
 * Search in the article's own language (migration 46). Until now every article was indexed with
 * the English configuration, so French, German, Spanish, Italian, Portuguese and Dutch words were
 * neither stemmed nor stopped ("élections" never met "élection"). The search vector now uses the
 * PostgreSQL text-search configuration of the article's language (others keep English, as before);
 * a query is parsed with every one of those configurations; the index is asked for the distinct
 * parses ORed (one GIN probe), and each candidate must then match, and is ranked by, the parse of
 * its own language (so a negation or a stop word means in each language what it means there, and
 * English articles rank exactly as before). `p_lang` narrows to one language and parses the
 * query with its configuration alone.
 * Recreating the generated column rewrites the article partitions once.
 */

/** The languages with a configuration of their own, and the configuration's name. */
export const SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  en: 'english', fr: 'french', de: 'german', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch',
};

const configCase = (col: string): string =>
  `CASE ${col} ${Object.entries(SEARCH_CONFIGS).map(([l, c]) => `WHEN '${l}' THEN '${c}'::regconfig`).join(' ')} ELSE 'english'::regconfig END`;

/** The row's own language's parse from the array `qs` (languages without a configuration: English's, the first). */
const ownQuery = (qs: string) => (alias: string): string => `(${qs})[coalesce(array_position(search_langs(), ${alias}.language), 1)]`;

export const searchByLanguage = `
CREATE FUNCTION search_config(p_lang text) RETURNS regconfig LANGUAGE sql IMMUTABLE AS $$ SELECT ${configCase('p_lang')} $$;

-- the query parsed in each configuration, in the order of search_langs()
CREATE FUNCTION search_langs() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[${Object.keys(SEARCH_CONFIGS).map((l) => `'${l}'`).join(', ')}] $$;
CREATE FUNCTION search_queries(p_q text) RETURNS tsquery[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[${Object.values(SEARCH_CONFIGS).map((c) => `websearch_to_tsquery('${c}'::regconfig, p_q)`).join(', ')}]
$$;

-- the distinct non-empty queries of an array ORed: what the index is asked (rows are then checked against their own language's)
CREATE FUNCTION search_query_any(p_qs tsquery[]) RETURNS tsquery LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  out tsquery := NULL;
  seen text[] := '{}';
  t tsquery;
BEGIN
  FOREACH t IN ARRAY p_qs LOOP
    IF t::text <> '' AND NOT t::text = ANY (seen) THEN
      seen := seen || t::text;
      out := CASE WHEN out IS NULL THEN t ELSE out || t END;
    END IF;
  END LOOP;
  RETURN coalesce(out, p_qs[1]);
END
$fn$;

ALTER TABLE articles DROP COLUMN search;
ALTER TABLE articles ADD COLUMN search tsvector GENERATED ALWAYS AS (
  CASE WHEN duplicate_of IS NULL THEN
    setweight(to_tsvector(${configCase('language')}, coalesce(title, '')), 'A') ||
    setweight(to_tsvector(${configCase('language')}, coalesce(snippet, '')), 'B')
  END
) STORED;
CREATE INDEX articles_search_idx ON articles USING gin (search);

DROP FUNCTION search_articles(text, timestamptz, numeric, text, text, float8, text, integer, integer);
CREATE FUNCTION search_articles(p_q text, p_at timestamptz, p_half_life_days numeric, p_category text, p_region text,
                                p_after_rank float8, p_after_id text, p_limit integer, p_candidates integer, p_lang text)
RETURNS TABLE (rank float8, id text, story_id text, title text, snippet text, thumbnail_url text, publisher_id text,
               publisher_name text, url text, published_at text, category text, region text, language text, duplicate_of text,
               matches integer, coverage_count integer, secondary_category text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  -- each language's parse of the query (with lang=, that language's in every slot: only its articles pass)
  v_tsqs tsquery[] := CASE WHEN p_lang IS NULL THEN search_queries(p_q) ELSE array_fill(websearch_to_tsquery(search_config(p_lang), p_q), ARRAY[${Object.keys(SEARCH_CONFIGS).length}]) END;
  v_tsq tsquery := search_query_any(v_tsqs);
BEGIN
  IF search_query_freq(p_q) >= ${COMMON_QUERY_FREQ} THEN
    RETURN QUERY EXECUTE $q$${groupedStatement({
      cte: '', from: '', tsq: '$1', at: '$2', halfLife: '$3', category: '$4', region: '$5', afterRank: '$6', afterId: '$7', limit: '$8', candidates: '$9', lang: '$10', own: ownQuery('$11'),
    }, true)}$q$
    USING v_tsq, p_at, p_half_life_days, p_category, p_region, p_after_rank, p_after_id, p_limit, p_candidates, p_lang, v_tsqs;
  ELSE
    RETURN QUERY${groupedStatement({
      cte: 'q AS (SELECT v_tsq AS tsq, v_tsqs AS tsqs),\n  ', from: ', q', tsq: 'q.tsq', at: 'p_at', halfLife: 'p_half_life_days', category: 'p_category', region: 'p_region',
      afterRank: 'p_after_rank', afterId: 'p_after_id', limit: 'p_limit', candidates: 'p_candidates', lang: 'p_lang', own: ownQuery('q.tsqs'),
    }, true)};
  END IF;
END
$fn$;
`;
