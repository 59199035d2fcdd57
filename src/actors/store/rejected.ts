import { hash } from 'node:crypto';
import type { Sql } from '../../runtime/sql.js';
import { cutText, safeText } from './safe-text.js';

/**
 * Articles ingest set aside instead of storing (`rejected_articles`): refused by the CPU stage
 * (no title, a URL that is not http(s)), by the clusterer, or by the database itself (a batch
 * that failed was split until the failing article was found). One row per URL and reason, so a
 * redelivered batch counts an attempt instead of adding a row.
 */
export interface RejectedRecord {
  url: string;
  publisher_id: string | null;
  /** invalid_article, invalid_url, too_large, cluster_failed, storage_rejected */
  reason: string;
  /** machine code: INVALID_URL, a SQLSTATE such as 22P05, ... */
  code: string;
  message: string;
  /** the article as it reached the failing step, if known (kept as escaped JSON text) */
  article?: unknown;
}

export interface RejectedRow {
  id: number;
  url: string;
  publisher_id: string | null;
  reason: string;
  code: string;
  message: string;
  article: string | null;
  attempts: number;
  first_at: string;
  last_at: string;
}

/**
 * Text a refused article carries may be exactly what the database refused, so everything is
 * made safe here, and the article goes in as JSON *text*: JSON.stringify escapes NUL and lone
 * surrogates as plain ASCII `\uXXXX`, which a text column takes (a jsonb column would not).
 */
function row(r: RejectedRecord): unknown[] {
  const url = cutText(safeText(r.url), 4096);
  let article: string | null = null;
  if (r.article !== undefined) {
    try {
      article = cutText(JSON.stringify(r.article) ?? 'null', 20_000);
    } catch {
      article = null;
    }
  }
  return [
    hash('sha256', `${r.reason}\n${r.url}`, 'hex'),
    url,
    r.publisher_id === null ? null : cutText(safeText(r.publisher_id), 200),
    cutText(safeText(r.reason), 40),
    cutText(safeText(r.code), 40),
    cutText(safeText(r.message), 1_000),
    article === null ? null : safeText(article),
  ];
}

/** Record refused articles (idempotent per URL and reason: a repeat counts an attempt). */
export async function recordRejected(sql: Sql, list: readonly RejectedRecord[]): Promise<void> {
  if (list.length === 0) return;
  // one row per key within a statement (ON CONFLICT cannot touch a row twice)
  const byKey = new Map<string, unknown[]>();
  for (const r of list) {
    const v = row(r);
    byKey.set(v[0] as string, v);
  }
  const rows = [...byKey.values()];
  await sql.query(
    `INSERT INTO rejected_articles (url_key, url, publisher_id, reason, code, message, article)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
     ON CONFLICT (url_key) DO UPDATE SET attempts = rejected_articles.attempts + 1, last_at = now(),
       code = EXCLUDED.code, message = EXCLUDED.message, article = COALESCE(EXCLUDED.article, rejected_articles.article)`,
    Array.from({ length: 7 }, (_, i) => rows.map((r) => r[i])),
  );
}

/** Newest first, keyset-paged by id. */
export async function listRejected(sql: Sql, opts: { before?: number | null; limit: number; reason?: string | null }): Promise<RejectedRow[]> {
  const { rows } = await sql.query<RejectedRow>(
    `SELECT id::int AS id, url, publisher_id, reason, code, message, article, attempts,
            to_char(first_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS first_at,
            to_char(last_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_at
       FROM rejected_articles
      WHERE ($1::bigint IS NULL OR id < $1) AND ($3::text IS NULL OR reason = $3)
      ORDER BY id DESC LIMIT $2`,
    [opts.before ?? null, opts.limit, opts.reason ?? null],
  );
  return rows;
}

/** Drop records not seen again since `beforeMs` (retention). */
export async function pruneRejected(sql: Sql, beforeMs: number): Promise<number> {
  const { rowCount } = await sql.query('DELETE FROM rejected_articles WHERE last_at < $1', [new Date(beforeMs).toISOString()]);
  return rowCount;
}
