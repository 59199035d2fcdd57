import type { Sql } from '../../runtime/sql.js';
import type { PushPrefs } from './push-subscriptions.js';

/**
 * The push delivery queue: a PostgreSQL table (push-migrations.ts). Enqueueing goes through
 * `push_marks`, so the same live event evaluated by every API node enqueues one alert per
 * subscription; delivery claims due rows with `FOR UPDATE SKIP LOCKED` and a lease, so nodes
 * share the work, a node that dies mid-send leaves its rows to the others once the lease ends,
 * and rows wait in the table across restarts.
 */

/** What a notification shows of a story (kept small: it travels in an encrypted 4 KB payload). */
export interface AlertItem {
  title: string;
  publisher_name: string;
  coverage_count: number;
  category: string | null;
}

/** A story of a live event that may alert: its size now and the keys it matches. */
export interface AlertCandidate {
  story: string;
  count: number;
  item: AlertItem;
  /** `s:<story>` (followers) and, when the story may pass a topic threshold, its `c:`, `e:`, `l:` keys */
  keys: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Enqueues a breaking alert for every subscription that wants breaking news and has not had this story. Returns how many. */
export async function enqueueBreaking(sql: Sql, story: string, item: AlertItem, at: number): Promise<number> {
  const { rowCount } = await sql.query(
    `WITH hit AS (SELECT id FROM push_subscriptions WHERE keys @> ARRAY['b']),
     marked AS (
       INSERT INTO push_marks (subscription_id, key, count, at, again_at)
       SELECT id, 'b:' || $1, $2, $3, 'infinity' FROM hit
       ON CONFLICT (subscription_id, key) DO NOTHING
       RETURNING subscription_id
     )
     INSERT INTO push_queue (subscription_id, kind, alert_key, story_id, item, not_before, created_at)
     SELECT subscription_id, 'breaking', 'b:' || $1, $1, $4::jsonb, $3, $3 FROM marked`,
    [story, item.coverage_count, iso(at), JSON.stringify(item)],
  );
  return rowCount;
}

/**
 * Enqueues story alerts: a followed story that grew since its last alert (at most once per
 * `throttleMs` per subscription), and a story of a followed topic or place that reached the
 * subscription's threshold (once per story). One alert per subscription and story; following
 * wins over a topic. Returns how many were enqueued.
 */
export async function enqueueStories(sql: Sql, candidates: readonly AlertCandidate[], at: number, throttleMs: number): Promise<number> {
  if (candidates.length === 0) return 0;
  const { rowCount } = await sql.query(
    `WITH c AS (
       SELECT x.story, x.n, x.item, k.key
         FROM jsonb_to_recordset($1::jsonb) AS x(story text, n int, item jsonb, keys text[])
         CROSS JOIN LATERAL unnest(x.keys) AS k(key)
     ), hit AS (
       SELECT DISTINCT ON (s.id, c.story) s.id AS sub, c.story, c.n, c.item, (c.key = 's:' || c.story) AS followed
         FROM c JOIN push_subscriptions s ON s.keys @> ARRAY[c.key]
        WHERE c.key = 's:' || c.story OR c.n >= s.threshold
        ORDER BY s.id, c.story, (c.key = 's:' || c.story) DESC
     ), marked AS (
       INSERT INTO push_marks AS m (subscription_id, key, count, at, again_at)
       SELECT sub, CASE WHEN followed THEN 's:' ELSE 't:' END || story, n, $2::timestamptz,
              CASE WHEN followed THEN $2::timestamptz + make_interval(secs => $3) ELSE 'infinity'::timestamptz END
         FROM hit
       ON CONFLICT (subscription_id, key) DO UPDATE SET count = EXCLUDED.count, at = EXCLUDED.at, again_at = EXCLUDED.again_at
        WHERE m.again_at <= EXCLUDED.at AND m.count < EXCLUDED.count
       RETURNING subscription_id, key
     )
     INSERT INTO push_queue (subscription_id, kind, alert_key, story_id, item, not_before, created_at)
     SELECT h.sub, CASE WHEN h.followed THEN 'story' ELSE 'topic' END, m.key || ':' || h.n, h.story, h.item, $2, $2
       FROM marked m JOIN hit h ON h.sub = m.subscription_id AND m.key = (CASE WHEN h.followed THEN 's:' ELSE 't:' END) || h.story`,
    [JSON.stringify(candidates.map((c) => ({ story: c.story, n: c.count, item: c.item, keys: c.keys }))), iso(at), throttleMs / 1000],
  );
  return rowCount;
}

/** A claimed queue row with what delivery needs of its subscription. */
export interface ClaimedAlert {
  id: string;
  kind: 'breaking' | 'story' | 'topic';
  alert_key: string;
  story_id: string;
  item: AlertItem;
  /** delivery attempts, this one included */
  attempts: number;
  created_ms: number;
  subscription_id: string;
  reader_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  stop_token: string;
  prefs: PushPrefs;
}

/** Claims up to `limit` due rows for `leaseMs`; rows claimed by another node are skipped. */
export async function claimAlerts(sql: Sql, at: number, limit: number, leaseMs: number): Promise<ClaimedAlert[]> {
  const { rows } = await sql.query<ClaimedAlert>(
    `UPDATE push_queue q SET locked_until = $1::timestamptz + make_interval(secs => $3), attempts = q.attempts + 1
       FROM push_subscriptions s
      WHERE q.id IN (SELECT id FROM push_queue
                      WHERE not_before <= $1 AND (locked_until IS NULL OR locked_until <= $1)
                      ORDER BY not_before, id LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND s.id = q.subscription_id
     RETURNING q.id::text, q.kind, q.alert_key, q.story_id, q.item, q.attempts, (extract(epoch FROM q.created_at) * 1000)::float8 AS created_ms,
               s.id AS subscription_id, s.reader_id, s.endpoint, s.p256dh, s.auth, s.stop_token, s.prefs`,
    [iso(at), limit, leaseMs / 1000],
  );
  return rows;
}

/** Rows delivered or given up: gone from the queue. */
export async function removeAlerts(sql: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await sql.query('DELETE FROM push_queue WHERE id = ANY($1::bigint[])', [ids]);
}

/** A row to try again at `notBefore`. */
export async function retryAlert(sql: Sql, id: string, notBefore: number): Promise<void> {
  await sql.query('UPDATE push_queue SET not_before = $2, locked_until = NULL WHERE id = $1', [id, iso(notBefore)]);
}

/** Claimed rows not attempted (the node is stopping): free for any node at once, their attempt not counted. */
export async function releaseAlerts(sql: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await sql.query('UPDATE push_queue SET locked_until = NULL, attempts = greatest(attempts - 1, 0) WHERE id = ANY($1::bigint[])', [ids]);
}

/**
 * Counts an alert against a reader's daily cap: true when it may go (the same alert already went
 * to another of the reader's devices today, or the reader had fewer than `cap` alerts on its
 * local `day`). Serialised per reader, so concurrent deliveries never pass the cap.
 */
export async function takeDailySlot(sql: Sql, readerId: string, day: number, alertKey: string, cap: number): Promise<boolean> {
  return sql.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext('newsagg:push:' || $1))", [readerId]);
    // a statement after the lock: its snapshot sees every slot taken by the lock's earlier holders
    const { rows } = await q.query<{ ok: boolean }>(
      `WITH s AS (SELECT count(*)::int AS n, coalesce(bool_or(alert_key = $3), false) AS has FROM push_sent WHERE reader_id = $1 AND day = $2),
       ins AS (INSERT INTO push_sent (reader_id, day, alert_key) SELECT $1, $2, $3 FROM s WHERE NOT s.has AND s.n < $4 ON CONFLICT DO NOTHING RETURNING 1)
       SELECT s.has OR EXISTS (SELECT 1 FROM ins) AS ok FROM s`,
      [readerId, day, alertKey, cap],
    );
    return rows[0]!.ok;
  });
}

/** Forgets marks older than `marksBefore` and daily counts of days before `dayBefore` (UTC days; local days differ by at most one). */
export async function prunePush(sql: Sql, marksBefore: number, dayBefore: number): Promise<void> {
  await sql.query('DELETE FROM push_marks WHERE at < $1', [iso(marksBefore)]);
  await sql.query('DELETE FROM push_sent WHERE day < $1', [dayBefore]);
}

/** Rows waiting in the queue (for tests and the readiness picture). */
export async function queuedAlerts(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM push_queue');
  return rows[0]!.n;
}
