import type { Sql } from '../../runtime/sql.js';
import { recountMarked } from './story-counts.js';

/** What one retention pass removed. */
export interface RetentionResult {
  /** article partitions dropped whole */
  partitions: string[];
  /** old rows deleted from the default partition (articles whose month had no partition) */
  articles: number;
  clicks: number;
  /** stories left without any article */
  stories: number;
  /** stories that kept articles of other months, recounted */
  recounted: number;
  deadLetters: number;
  snapshots: number;
}

/** the lock ensure_articles_partition takes: no partition is created while another is dropped */
const PARTITION_LOCK = 7324112001;
const PARTITION_NAME = /^articles_(\d{4})_(\d{2})$/;
/** stories recounted per transaction after a drop */
const RECOUNT_SLICE = 1_000;

/**
 * Retention (`--retention-days`): article month partitions that lie wholly before `cutoff` are
 * dropped (a month with a single newer article stays until that article is old too), older rows
 * of the default partition are deleted, and so are clicks, dead letters and expired feed
 * snapshots before the cutoff, and stories last updated before it that no article names any more.
 * Idempotent; several nodes may run it (each step is one statement or one locked drop).
 */
export async function applyRetention(
  sql: Sql,
  cutoff: number,
  now: number,
  opts: { /** told which stories' counts the recount changed (their feed cache entries) */ onRecounted?: (ids: string[]) => void | Promise<void> } = {},
): Promise<RetentionResult> {
  const cut = new Date(cutoff).toISOString();
  const partitions = await dropOldPartitions(sql, cutoff);
  // (their stories marked for a recount in the same statement)
  const articles = (await sql.query<{ n: number }>(
    `WITH gone AS (DELETE FROM articles_default WHERE published_at < $1 RETURNING story_id),
          marked AS (INSERT INTO story_recounts (story_id) SELECT DISTINCT story_id FROM gone WHERE story_id IS NOT NULL ON CONFLICT DO NOTHING)
     SELECT count(*)::int AS n FROM gone`,
    [cut],
  )).rows[0]!.n;
  const clicks = (await sql.query('DELETE FROM clicks WHERE at < $1', [cut])).rowCount;
  const stories = (await sql.query(
    'DELETE FROM stories s WHERE s.updated_at < $1 AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.story_id = s.id)',
    [cut],
  )).rowCount;
  // the stories that lost articles and kept others: counted again from what is left
  let recounted = 0;
  for (;;) {
    const { taken, fixes } = await recountMarked(sql, RECOUNT_SLICE);
    recounted += taken;
    if (fixes.length > 0) await opts.onRecounted?.(fixes.map((f) => f.id));
    if (taken < RECOUNT_SLICE) break;
  }
  const deadLetters = (await sql.query('DELETE FROM dead_letters WHERE at < $1', [cut])).rowCount;
  const snapshots = (await sql.query('DELETE FROM feed_snapshots WHERE expires_at < $1', [new Date(now).toISOString()])).rowCount;
  return { partitions, articles, clicks, stories, recounted, deadLetters, snapshots };
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
    const m = PARTITION_NAME.exec(name)!;
    const monthEnd = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1)).toISOString();
    await sql.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      // quote_ident in SQL: the name came from the catalogue, but a statement is no place for trust
      const { rows: ident } = await q.query<{ q: string }>('SELECT quote_ident($1) AS q', [name]);
      // stories with articles of this month and of later ones lose some and keep others: marked for
      // a recount with the drop (a story's updated_at is its newest article's time; the stories
      // wholly of this month or before are deleted once emptied, below)
      await q.query(
        `INSERT INTO story_recounts (story_id)
         SELECT DISTINCT p.story_id FROM ${ident[0]!.q} p JOIN stories s ON s.id = p.story_id
          WHERE s.updated_at >= $1 ON CONFLICT DO NOTHING`,
        [monthEnd],
      );
      await q.query(`DROP TABLE IF EXISTS ${ident[0]!.q}`);
    });
    dropped.push(name);
  }
  return dropped;
}
