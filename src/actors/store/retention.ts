import type { Sql } from '../../runtime/sql.js';

/** What one retention pass removed. */
export interface RetentionResult {
  /** article partitions dropped whole */
  partitions: string[];
  /** old rows deleted from the default partition (articles whose month had no partition) */
  articles: number;
  clicks: number;
  /** stories left without any article */
  stories: number;
  deadLetters: number;
  snapshots: number;
}

/** the lock ensure_articles_partition takes: no partition is created while another is dropped */
const PARTITION_LOCK = 7324112001;
const PARTITION_NAME = /^articles_(\d{4})_(\d{2})$/;

/**
 * Retention (`--retention-days`): article month partitions that lie wholly before `cutoff` are
 * dropped (a month with a single newer article stays until that article is old too), older rows
 * of the default partition are deleted, and so are clicks, dead letters and expired feed
 * snapshots before the cutoff, and stories last updated before it that no article names any more.
 * Idempotent; several nodes may run it (each step is one statement or one locked drop).
 */
export async function applyRetention(sql: Sql, cutoff: number, now: number): Promise<RetentionResult> {
  const cut = new Date(cutoff).toISOString();
  const partitions = await dropOldPartitions(sql, cutoff);
  const articles = (await sql.query('DELETE FROM articles_default WHERE published_at < $1', [cut])).rowCount;
  const clicks = (await sql.query('DELETE FROM clicks WHERE at < $1', [cut])).rowCount;
  const stories = (await sql.query(
    'DELETE FROM stories s WHERE s.updated_at < $1 AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.story_id = s.id)',
    [cut],
  )).rowCount;
  const deadLetters = (await sql.query('DELETE FROM dead_letters WHERE at < $1', [cut])).rowCount;
  const snapshots = (await sql.query('DELETE FROM feed_snapshots WHERE expires_at < $1', [new Date(now).toISOString()])).rowCount;
  return { partitions, articles, clicks, stories, deadLetters, snapshots };
}

/** Drops the month partitions whose whole month ends at or before `cutoff`; returns their names. */
async function dropOldPartitions(sql: Sql, cutoff: number): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'articles'::regclass ORDER BY 1`,
  );
  const old = rows.map((r) => r.name).filter((name) => {
    const m = PARTITION_NAME.exec(name);
    if (!m) return false; // the default partition, or anything not ours
    const monthEnd = Date.UTC(Number(m[1]), Number(m[2]), 1); // Date.UTC months are 0-based: this is the next month's first day
    return monthEnd <= cutoff;
  });
  const dropped: string[] = [];
  for (const name of old) {
    await sql.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      // quote_ident in SQL: the name came from the catalogue, but a statement is no place for trust
      const { rows: ident } = await q.query<{ q: string }>('SELECT quote_ident($1) AS q', [name]);
      await q.query(`DROP TABLE IF EXISTS ${ident[0]!.q}`);
    });
    dropped.push(name);
  }
  return dropped;
}
