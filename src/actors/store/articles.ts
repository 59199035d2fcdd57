import type { Sql } from '../../runtime/sql.js';

/** An article as stored: metadata and a snippet only (DESIGN §5), never full text. */
export interface ArticleRow {
  id: string;
  url: string;
  url_hash: string;
  /** 64-bit SimHash as 16 hex digits */
  simhash: string | null;
  title: string;
  snippet: string | null;
  thumbnail_url: string | null;
  publisher_id: string;
  published_at: string;
  category: string | null;
  /** a second category the article is likely about too (migration 30; absent = none); a wire copy carries its original's */
  secondary_category?: string | null;
  region: string | null;
  language: string | null;
  story_id: string | null;
  duplicate_of: string | null;
  entities: unknown[];
  places: string[];
}

export const SNIPPET_MAX = 300;

/** Cut a snippet to the stored maximum on a word boundary where one is near. */
export function clampSnippet(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = s.replace(/\s+/g, ' ').trim();
  if (t.length <= SNIPPET_MAX) return t || null;
  const cut = t.slice(0, SNIPPET_MAX - 1);
  const sp = cut.lastIndexOf(' ');
  return `${sp > SNIPPET_MAX * 0.7 ? cut.slice(0, sp) : cut}…`;
}

/** hex SimHash -> signed int8 text for Postgres bigint (and back). */
export function simhashToSql(hex: string | null): string | null {
  if (!hex) return null;
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}

export function simhashFromSql(v: string | null): string | null {
  if (v === null || v === undefined) return null;
  return BigInt.asUintN(64, BigInt(v)).toString(16).padStart(16, '0');
}

const monthsByDb = new WeakMap<Sql, Set<string>>();

/**
 * Make sure the month partitions for these instants exist (memoised per database handle). Call
 * it on the pool rather than inside a transaction where one is coming: a partition created in a
 * transaction that rolls back would be remembered but gone.
 */
export async function ensurePartitionsFor(sql: Sql, isoDates: readonly string[]): Promise<void> {
  let knownMonths = monthsByDb.get(sql);
  if (!knownMonths) monthsByDb.set(sql, (knownMonths = new Set()));
  const months = new Map<string, string>();
  for (const d of isoDates) {
    const m = d.slice(0, 7);
    if (!knownMonths.has(m) && !months.has(m)) months.set(m, `${m}-01T00:00:00Z`);
  }
  for (const [m, first] of months) {
    await sql.query('SELECT ensure_articles_partition($1::timestamptz)', [first]);
    knownMonths.add(m);
  }
}

/**
 * Idempotent batched upsert: one statement over the rows as one JSON document, keyed by
 * (url_hash, published_at), so a replayed ingest log or a republished entry updates instead of
 * duplicating. One JSON parameter instead of sixteen arrays: the client serialises it natively
 * (the arrays' escaping cost the ingest thread ~40 % more per batch). Each row is a JSON array in
 * the column order below, not an object: PostgreSQL parses no key names and sorts no keys, and reads
 * each field by position (the statement cost ~7 % less backend CPU than with jsonb_to_recordset).
 * An article stays in the story it was first stored in (as the story actor's replay files it):
 * two batches storing one article at once (a redelivery during a shard move) never move it from
 * a story that counted it to one that did not.
 */
export async function upsertArticles(sql: Sql, rows: readonly ArticleRow[], opts: { partitionsReady?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  if (!opts.partitionsReady) await ensurePartitionsFor(sql, rows.map((r) => r.published_at));
  const list = rows.map((r) => [
    r.id, r.url, r.url_hash, simhashToSql(r.simhash), r.title, clampSnippet(r.snippet), r.thumbnail_url, r.publisher_id, r.published_at,
    r.category, r.region, r.language, r.story_id, r.duplicate_of, r.entities ?? [], r.places ?? [], r.secondary_category ?? null,
  ]);
  await sql.query(
    `INSERT INTO articles (id, url, url_hash, simhash, title, snippet, thumbnail_url, publisher_id, published_at,
                           category, region, language, story_id, duplicate_of, entities, places, secondary_category)
     SELECT a->>0, a->>1, a->>2, (a->>3)::bigint, a->>4, a->>5, a->>6, a->>7, (a->>8)::timestamptz,
            a->>9, a->>10, a->>11, a->>12, a->>13, a->14, a->15, a->>16
       FROM jsonb_array_elements($1::jsonb) AS a
     ON CONFLICT (url_hash, published_at) DO UPDATE SET
       title = EXCLUDED.title, snippet = EXCLUDED.snippet,
       thumbnail_url = COALESCE(EXCLUDED.thumbnail_url, articles.thumbnail_url),
       category = EXCLUDED.category, secondary_category = EXCLUDED.secondary_category, region = EXCLUDED.region, language = EXCLUDED.language,
       story_id = COALESCE(articles.story_id, EXCLUDED.story_id),
       duplicate_of = COALESCE(articles.duplicate_of, EXCLUDED.duplicate_of),
       entities = EXCLUDED.entities, places = EXCLUDED.places`,
    [JSON.stringify(list)],
  );
}

const ARTICLE_COLS = `a.id, a.url, a.url_hash, a.simhash::text AS simhash, a.title, a.snippet, a.thumbnail_url, a.publisher_id,
  to_char(a.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at, a.category, a.secondary_category, a.region, a.language,
  a.story_id, a.duplicate_of, a.entities, a.places`;

function toArticle(r: Record<string, unknown>): ArticleRow & { publisher_name?: string } {
  return { ...(r as unknown as ArticleRow), simhash: simhashFromSql(r.simhash as string | null) };
}

/**
 * Articles by id (one query), with their publisher's name. One index probe per id (a lateral
 * lookup): with `id = ANY(...)` the planner scanned whole month partitions whenever their
 * statistics were stale, as they are while ingest fills them.
 */
export async function getArticles(sql: Sql, ids: readonly string[]): Promise<(ArticleRow & { publisher_name: string })[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT ${ARTICLE_COLS}, COALESCE(p.name, a.publisher_id) AS publisher_name
       FROM unnest($1::text[]) AS k(id)
       -- OFFSET 0 keeps the planner from flattening the probe back into a hash join over a scan
       CROSS JOIN LATERAL (SELECT * FROM articles WHERE id = k.id OFFSET 0) a
       LEFT JOIN publishers p ON p.id = a.publisher_id`,
    [[...new Set(ids)]],
  );
  return rows.map((r) => toArticle(r) as ArticleRow & { publisher_name: string });
}

/** Every article of a story, newest first (Full Coverage), with its publisher's name and tier (null when unknown). */
export async function storyArticles(sql: Sql, storyId: string, limit = 500): Promise<(ArticleRow & { publisher_name: string; publisher_tier: number | null })[]> {
  const { rows } = await sql.query(
    `SELECT ${ARTICLE_COLS}, COALESCE(p.name, a.publisher_id) AS publisher_name, p.tier AS publisher_tier
       FROM articles a LEFT JOIN publishers p ON p.id = a.publisher_id
      WHERE a.story_id = $1 ORDER BY a.published_at DESC, a.id DESC LIMIT $2`,
    [storyId, limit],
  );
  return rows.map((r) => toArticle(r) as ArticleRow & { publisher_name: string; publisher_tier: number | null });
}

/** An already stored article, as exact dedup needs it. */
export interface StoredIdentity {
  id: string;
  published_at: string;
  story_id: string | null;
  duplicate_of: string | null;
}

/**
 * Exact dedup: the stored article (earliest) for each of these url hashes that exists. One
 * index probe per hash (lateral, newest partition rows never scanned): `url_hash = ANY(...)`
 * was planned as a scan of the whole month partition while its statistics were stale, a cost
 * that grew with every batch stored.
 */
export async function existingUrlHashes(sql: Sql, hashes: readonly string[]): Promise<Map<string, StoredIdentity>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await sql.query<StoredIdentity & { url_hash: string }>(
    `SELECT h.url_hash, a.id, a.published_at::text AS published_at, a.story_id, a.duplicate_of
       FROM unnest($1::text[]) AS h(url_hash)
       CROSS JOIN LATERAL (
         SELECT id, published_at, story_id, duplicate_of FROM articles WHERE url_hash = h.url_hash ORDER BY published_at LIMIT 1
       ) a`,
    [[...new Set(hashes)]],
  );
  return new Map(rows.map((r) => [r.url_hash, { id: r.id, published_at: r.published_at, story_id: r.story_id, duplicate_of: r.duplicate_of }]));
}

/** An article's categories: what a wire copy of it takes (`duplicate_of` names the article). */
export interface ArticleLabels {
  category: string | null;
  secondary_category: string | null;
}

/** What a wire copy takes from its original: its categories, and its story (null while not clustered). */
export interface OriginalInfo extends ArticleLabels {
  story_id: string | null;
}

/** The categories and stories of stored articles by id (one index probe per id, as in `getArticles`); unknown ids are absent. */
export async function originalsOf(sql: Sql, ids: readonly string[]): Promise<Map<string, OriginalInfo>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query<OriginalInfo & { id: string }>(
    `SELECT k.id, a.category, a.secondary_category, a.story_id
       FROM unnest($1::text[]) AS k(id)
       CROSS JOIN LATERAL (SELECT category, secondary_category, story_id FROM articles WHERE id = k.id ORDER BY published_at LIMIT 1) a`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, { category: r.category, secondary_category: r.secondary_category, story_id: r.story_id }]));
}

/** The fields a republished entry refreshes in its stored row. */
export interface RefreshRow {
  id: string;
  published_at: string;
  title: string;
  snippet: string | null;
  thumbnail_url: string | null;
}

/** A republished entry (same URL, new guid or headline): refresh its text fields in place. */
export async function refreshArticles(sql: Sql, rows: readonly RefreshRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `UPDATE articles a SET title = u.title, snippet = u.snippet, thumbnail_url = COALESCE(u.thumb, a.thumbnail_url)
       FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[]) AS u(id, published_at, title, snippet, thumb)
      WHERE a.id = u.id AND a.published_at = u.published_at`,
    [rows.map((r) => r.id), rows.map((r) => r.published_at), rows.map((r) => r.title), rows.map((r) => clampSnippet(r.snippet)), rows.map((r) => r.thumbnail_url)],
  );
}

/** Fingerprints inside the dedup window, oldest first, for rebuilding shard tables. */
export async function fingerprintsSince(sql: Sql, sinceIso: string, afterId = '', limit = 10_000): Promise<{ id: string; simhash: string; published_at: string }[]> {
  const { rows } = await sql.query<{ id: string; simhash: string; published_at: string }>(
    `SELECT id, simhash::text AS simhash, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS published_at
       FROM articles WHERE published_at >= $1 AND simhash IS NOT NULL AND duplicate_of IS NULL AND id > $2
      ORDER BY id LIMIT $3`,
    [sinceIso, afterId, limit],
  );
  return rows.map((r) => ({ ...r, simhash: simhashFromSql(r.simhash)! }));
}
