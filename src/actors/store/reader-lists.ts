import { createHash } from 'node:crypto';
import type { Sql } from '../../runtime/sql.js';

/**
 * A reader's saved stories, stories read, private feed key and settings (tables of migration 45).
 * Every function takes the stable reader id; nothing here knows tokens or cookies.
 */

/** Saved stories a reader may keep (the oldest go past this). */
export const SAVED_MAX = 1_000;
/** Stories read kept per reader (the oldest go past this): hiding read stories needs only recent ones. */
export const READS_MAX = 2_000;

/** Saves a story (again: keeps its first saved_at). Returns when it was saved. */
export async function saveStory(sql: Sql, reader: string, story: string): Promise<string> {
  return sql.tx(async (q) => {
    const { rows } = await q.query<{ saved_at: Date | string }>(
      `INSERT INTO reader_saved (reader_id, story_id) VALUES ($1, $2)
       ON CONFLICT (reader_id, story_id) DO UPDATE SET saved_at = reader_saved.saved_at
       RETURNING saved_at`,
      [reader, story],
    );
    await q.query(
      `DELETE FROM reader_saved WHERE reader_id = $1 AND story_id IN (
         SELECT story_id FROM reader_saved WHERE reader_id = $1 ORDER BY saved_at DESC, story_id OFFSET $2)`,
      [reader, SAVED_MAX],
    );
    return new Date(rows[0]!.saved_at).toISOString();
  });
}

/** Removes a saved story; whether it was saved. */
export async function unsaveStory(sql: Sql, reader: string, story: string): Promise<boolean> {
  const r = await sql.query('DELETE FROM reader_saved WHERE reader_id = $1 AND story_id = $2', [reader, story]);
  return r.rowCount > 0;
}

/** The reader's saved stories, newest saved first. */
export async function savedStories(sql: Sql, reader: string, limit = SAVED_MAX): Promise<{ story_id: string; saved_at: string }[]> {
  const { rows } = await sql.query<{ story_id: string; saved_at: Date | string }>(
    'SELECT story_id, saved_at FROM reader_saved WHERE reader_id = $1 ORDER BY saved_at DESC, story_id LIMIT $2',
    [reader, limit],
  );
  return rows.map((r) => ({ story_id: r.story_id, saved_at: new Date(r.saved_at).toISOString() }));
}

/** Marks stories read (now); keeps at most READS_MAX per reader. */
export async function markRead(sql: Sql, reader: string, stories: readonly string[]): Promise<void> {
  if (stories.length === 0) return;
  await sql.tx(async (q) => {
    await q.query(
      `INSERT INTO reader_reads (reader_id, story_id) SELECT $1, s FROM unnest($2::text[]) AS u(s)
       ON CONFLICT (reader_id, story_id) DO UPDATE SET read_at = now()`,
      [reader, [...new Set(stories)]],
    );
    await q.query(
      `DELETE FROM reader_reads WHERE reader_id = $1 AND story_id IN (
         SELECT story_id FROM reader_reads WHERE reader_id = $1 ORDER BY read_at DESC, story_id OFFSET $2)`,
      [reader, READS_MAX],
    );
  });
}

/** Marks a story unread; whether it was read. */
export async function markUnread(sql: Sql, reader: string, story: string): Promise<boolean> {
  const r = await sql.query('DELETE FROM reader_reads WHERE reader_id = $1 AND story_id = $2', [reader, story]);
  return r.rowCount > 0;
}

/** The stories each reader read most recently (at most `limit` each), by reader id. */
export async function readStories(sql: Sql, readers: readonly string[], limit = 300): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (readers.length === 0) return out;
  const { rows } = await sql.query<{ id: string; stories: string[] }>(
    `SELECT u.id, ARRAY(SELECT story_id FROM reader_reads r WHERE r.reader_id = u.id ORDER BY read_at DESC LIMIT $2) AS stories
       FROM unnest($1::text[]) AS u(id)`,
    [readers, limit],
  );
  for (const r of rows) out.set(r.id, r.stories ?? []);
  return out;
}

function keyHash(key: string): string {
  return createHash('sha256').update(`newsagg-feed-key\0${key}`).digest('base64url');
}

/** Makes `key` the reader's private feed key, revoking any earlier one. */
export async function setFeedKey(sql: Sql, reader: string, key: string): Promise<void> {
  await sql.query(
    `INSERT INTO reader_feed_keys (key_hash, reader_id) VALUES ($1, $2)
     ON CONFLICT (reader_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, created_at = now()`,
    [keyHash(key), reader],
  );
}

/** Revokes the reader's private feed key; whether there was one. */
export async function revokeFeedKey(sql: Sql, reader: string): Promise<boolean> {
  const r = await sql.query('DELETE FROM reader_feed_keys WHERE reader_id = $1', [reader]);
  return r.rowCount > 0;
}

/** The reader a private feed key belongs to, or null (never issued, or revoked). */
export async function readerOfFeedKey(sql: Sql, key: string): Promise<string | null> {
  const { rows } = await sql.query<{ reader_id: string }>('SELECT reader_id FROM reader_feed_keys WHERE key_hash = $1', [keyHash(key)]);
  return rows[0]?.reader_id ?? null;
}

/** When the reader's private feed key was issued, or null when it has none. */
export async function feedKeyIssued(sql: Sql, reader: string): Promise<string | null> {
  const { rows } = await sql.query<{ created_at: Date | string }>('SELECT created_at FROM reader_feed_keys WHERE reader_id = $1', [reader]);
  return rows[0] ? new Date(rows[0].created_at).toISOString() : null;
}

/** The reader's Local city id, or null. */
export async function readerCity(sql: Sql, reader: string): Promise<string | null> {
  const { rows } = await sql.query<{ city: string | null }>('SELECT city FROM reader_settings WHERE reader_id = $1', [reader]);
  return rows[0]?.city ?? null;
}

/** Sets (or, with null, clears) the reader's Local city. */
export async function setReaderCity(sql: Sql, reader: string, city: string | null): Promise<void> {
  await sql.query(
    `INSERT INTO reader_settings (reader_id, city) VALUES ($1, $2)
     ON CONFLICT (reader_id) DO UPDATE SET city = EXCLUDED.city, updated_at = now()`,
    [reader, city],
  );
}

/** Forgets everything of this file about a reader (inside forgetReader's transaction). */
export async function forgetReaderLists(q: Pick<Sql, 'query'>, reader: string): Promise<number> {
  let n = 0;
  for (const t of ['reader_saved', 'reader_reads', 'reader_feed_keys', 'reader_settings']) {
    n += (await q.query(`DELETE FROM ${t} WHERE reader_id = $1`, [reader])).rowCount;
  }
  return n;
}
