import type { Sql } from '../../runtime/sql.js';
import { forgetReaderLists } from './reader-lists.js';

/**
 * Readers as stored: a row of explicit interests (`follow`, `hide` as JSON lists) and the
 * reader's clicks, which are its reading history. Nothing else about a reader is kept.
 */

/** One remembered click, as much of it as the history needs. */
export interface HistoryClick {
  publisher_id: string | null;
  category: string | null;
  /** the clicked story's entity names (lower case) */
  entities: string[];
}

export interface StoredReader {
  follow: unknown;
  hide: unknown;
  /** the newest clicks first, at most `historyLimit` */
  history: HistoryClick[];
  /** how many clicks are kept for the reader in all */
  history_size: number;
  /** the stories read most recently (ids), when loaded */
  read?: string[];
}

/**
 * A reader's interests and recent history in one round trip; a reader never seen has empty
 * interests and no history (the row is only written once interests are set).
 */
export async function loadReader(sql: Sql, id: string, historyLimit = 100): Promise<StoredReader> {
  const { rows } = await sql.query<{ r: { follow: unknown; hide: unknown; history: HistoryClick[] | null; n: number } | null }>(
    'SELECT reader_load($1, $2) AS r',
    [id, historyLimit],
  );
  const r = rows[0]?.r;
  return { follow: r?.follow ?? null, hide: r?.hide ?? null, history: r?.history ?? [], history_size: r?.n ?? 0 };
}

/** Many readers in one round trip (the same as `loadReader` for each), by id. */
export async function loadReaders(sql: Sql, ids: readonly string[], historyLimit = 100): Promise<Map<string, StoredReader>> {
  const out = new Map<string, StoredReader>();
  if (ids.length === 0) return out;
  const { rows } = await sql.query<{ id: string; r: { follow: unknown; hide: unknown; history: HistoryClick[] | null; n: number } | null }>(
    'SELECT u.id, reader_load(u.id, $2) AS r FROM unnest($1::text[]) AS u(id)',
    [ids, historyLimit],
  );
  for (const { id, r } of rows) out.set(id, { follow: r?.follow ?? null, hide: r?.hide ?? null, history: r?.history ?? [], history_size: r?.n ?? 0 });
  return out;
}

/**
 * Which of these entity keys (lower-case names, as stories keep them) the newest `recent` stories
 * name: one index walk by update time, and each row's names unnested only when it has one of
 * them (`?|`), so the cost is bounded whatever the table holds.
 */
export async function knownEntityKeys(sql: Sql, keys: readonly string[], recent: number): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await sql.query<{ k: string }>(
    `SELECT DISTINCT e.k FROM (SELECT entities FROM stories ORDER BY updated_at DESC, id DESC LIMIT $2) s
       CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(s.entities) = 'array' THEN s.entities ELSE '[]'::jsonb END) AS e(k)
      WHERE s.entities ?| $1::text[] AND e.k = ANY($1::text[])`,
    [keys, recent],
  );
  return new Set(rows.map((r) => r.k));
}

/** Replaces a reader's interests (creates the reader). */
export async function saveInterests(sql: Sql, id: string, follow: unknown, hide: unknown): Promise<void> {
  await sql.query(
    `INSERT INTO readers (id, follow, hide) VALUES ($1, $2::jsonb, $3::jsonb)
     ON CONFLICT (id) DO UPDATE SET follow = EXCLUDED.follow, hide = EXCLUDED.hide, updated_at = now()`,
    [id, JSON.stringify(follow), JSON.stringify(hide)],
  );
}

/** Forgets a reader: its interests, every click it made, its push subscriptions, saved and read stories, feed key and settings. Returns whether anything was there. */
export async function forgetReader(sql: Sql, id: string): Promise<boolean> {
  return sql.tx(async (q) => {
    const a = await q.query('DELETE FROM readers WHERE id = $1', [id]);
    const b = await q.query('DELETE FROM clicks WHERE reader = $1', [id]);
    // and its push subscriptions (their queued alerts and marks go with them)
    const c = await q.query('DELETE FROM push_subscriptions WHERE reader_id = $1', [id]);
    // and its saved stories, stories read, private feed key and settings
    const d = await forgetReaderLists(q, id);
    return a.rowCount + b.rowCount + c.rowCount + d > 0;
  });
}

/** Records one click at `at` (epoch ms; the reader is a reader id, or null when unknown). */
export async function recordClick(sql: Sql, c: { article_id: string; story_id: string | null; publisher_id: string; reader: string | null; at: number }): Promise<void> {
  await sql.query('INSERT INTO clicks (article_id, story_id, publisher_id, reader, at) VALUES ($1, $2, $3, $4, $5)', [
    c.article_id, c.story_id, c.publisher_id, c.reader, new Date(c.at).toISOString(),
  ]);
}
