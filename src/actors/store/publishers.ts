import type { Sql } from '../../runtime/sql.js';

/** A publisher with its polling status, as the admin API lists it. */
export interface PublisherRow {
  id: string;
  name: string;
  feed_url: string;
  site_url: string | null;
  country: string | null;
  region: string | null;
  category: string | null;
  tier: number;
  last_polled_at: string | null;
  last_success_at: string | null;
  next_poll_at: string | null;
  not_modified_count: number;
  fetch_count: number;
  article_count: number;
  failures: number;
  circuit: string;
  circuit_reason: string | null;
  websub_hub: string | null;
  /** new entries left out on purpose (older than retention, past the document limit), from the actor's state */
  entries_skipped: number;
  /** polled faster for breaking news until then (ISO-8601), from the actor's state; null when not (or no longer) */
  accelerated_until: string | null;
}

const COLS = `id, name, feed_url, site_url, country, region, category, tier,
  to_char(last_polled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_polled_at,
  to_char(last_success_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_success_at,
  to_char(next_poll_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS next_poll_at,
  not_modified_count::int AS not_modified_count, fetch_count::int AS fetch_count, article_count::int AS article_count,
  consecutive_failures AS failures, circuit, circuit_reason, websub_hub,
  CASE WHEN jsonb_typeof(state->'skipped') = 'number' THEN (state->>'skipped')::numeric::int ELSE 0 END AS entries_skipped,
  CASE WHEN jsonb_typeof(state->'accelUntil') = 'number' AND (state->>'accelUntil')::float8 > extract(epoch from now()) * 1000
    THEN to_char(to_timestamp((state->>'accelUntil')::float8 / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS accelerated_until`;

export interface NewPublisher {
  id: string;
  name: string;
  feed_url: string;
  site_url?: string | null;
  country?: string | null;
  region?: string | null;
  category?: string | null;
  tier?: number;
}

/** Insert publishers; an existing feed URL is left as it is. Returns the ids actually added. */
export async function addPublishers(sql: Sql, list: readonly NewPublisher[]): Promise<string[]> {
  if (list.length === 0) return [];
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO publishers (id, name, feed_url, site_url, country, region, category, tier)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[])
     ON CONFLICT DO NOTHING RETURNING id`,
    [
      list.map((p) => p.id), list.map((p) => p.name), list.map((p) => p.feed_url), list.map((p) => p.site_url ?? null),
      list.map((p) => p.country ?? null), list.map((p) => p.region ?? null), list.map((p) => p.category ?? null),
      list.map((p) => p.tier ?? 2),
    ],
  );
  return rows.map((r) => r.id);
}

export async function removePublisher(sql: Sql, id: string): Promise<boolean> {
  const { rowCount } = await sql.query('DELETE FROM publishers WHERE id = $1', [id]);
  return rowCount > 0;
}

/** Keyset page over publishers by id. */
export async function listPublishers(sql: Sql, opts: { after?: string | null; limit: number }): Promise<PublisherRow[]> {
  const { rows } = await sql.query<PublisherRow>(`SELECT ${COLS} FROM publishers WHERE id > $1 ORDER BY id LIMIT $2`, [opts.after ?? '', opts.limit]);
  return rows;
}

/** Keyset page of publisher ids alone (starting one actor per publisher needs no more). */
export async function publisherIds(sql: Sql, opts: { after?: string | null; limit: number }): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>('SELECT id FROM publishers WHERE id > $1 ORDER BY id LIMIT $2', [opts.after ?? '', opts.limit]);
  return rows.map((r) => r.id);
}

/**
 * Publishers no actor has saved yet (no next poll recorded): rows added behind a running node's
 * back, e.g. by `import-opml` against its database. Served by the next-poll index (NULLs included).
 */
export async function unscheduledPublisherIds(sql: Sql, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>('SELECT id FROM publishers WHERE next_poll_at IS NULL ORDER BY id LIMIT $1', [limit]);
  return rows.map((r) => r.id);
}

export async function publisherExists(sql: Sql, id: string): Promise<boolean> {
  const { rows } = await sql.query('SELECT 1 FROM publishers WHERE id = $1', [id]);
  return rows.length > 0;
}

export async function getPublishers(sql: Sql, ids: readonly string[]): Promise<PublisherRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<PublisherRow>(`SELECT ${COLS} FROM publishers WHERE id = ANY($1::text[])`, [ids]);
  return rows;
}

/** The publisher actor's persisted state (plain JSON) and the status columns derived from it. */
export async function loadPublisherState(sql: Sql, id: string): Promise<Record<string, unknown> | null> {
  const { rows } = await sql.query<{ state: Record<string, unknown> }>('SELECT state FROM publishers WHERE id = $1', [id]);
  return rows[0]?.state ?? null;
}

export interface PublisherStatusColumns {
  /** the actor's name for the publisher (a feed title replaces a host placeholder); absent or empty = keep the row's */
  name?: string;
  etag: string | null;
  last_modified: string | null;
  next_poll_at: number | null;
  last_polled_at: number | null;
  last_success_at: number | null;
  consecutive_failures: number;
  circuit: 'closed' | 'open' | 'half_open';
  circuit_reason: string | null;
  fetch_count: number;
  not_modified_count: number;
  error_count: number;
  article_count: number;
  poll_interval_seconds: number;
  websub_hub: string | null;
  websub_lease_expires_at: number | null;
}

export async function savePublisherState(sql: Sql, id: string, state: Record<string, unknown>, s: PublisherStatusColumns): Promise<void> {
  const ts = (v: number | null) => (v === null ? null : new Date(v).toISOString());
  await sql.query(
    `UPDATE publishers SET state = $2::jsonb, etag = $3, last_modified = $4, next_poll_at = $5, last_polled_at = $6,
       last_success_at = $7, consecutive_failures = $8, circuit = $9, circuit_reason = $10, fetch_count = $11,
       not_modified_count = $12, error_count = $13, article_count = $14, poll_interval_seconds = $15,
       websub_hub = $16, websub_lease_expires_at = $17, name = COALESCE(NULLIF($18, ''), name), updated_at = now()
     WHERE id = $1`,
    [id, JSON.stringify(state), s.etag, s.last_modified, ts(s.next_poll_at), ts(s.last_polled_at), ts(s.last_success_at),
      s.consecutive_failures, s.circuit, s.circuit_reason, s.fetch_count, s.not_modified_count, s.error_count,
      s.article_count, Math.round(s.poll_interval_seconds), s.websub_hub, ts(s.websub_lease_expires_at), s.name ?? ''],
  );
}

/** How the stored publishers fare: how many, polled, answering, failing; failing ones by reason. */
export interface PublisherHealthCounts {
  total: number;
  polled: number;
  /** last poll answered (consecutive_failures = 0 after a success) */
  ok: number;
  failing: number;
  /** failing publishers by the first pattern their last error matches (`other` when none) */
  byReason: Map<string, number>;
}

/**
 * One pass over the publishers table: its polling counts, and the failing publishers grouped by
 * the first of `patterns` (case-insensitive regular expressions) their last error matches.
 */
export async function publisherHealth(sql: Sql, patterns: readonly { reason: string; pattern: string }[]): Promise<PublisherHealthCounts> {
  const { rows } = await sql.query<{ reason: string | null; total: number; polled: number; ok: number; failing: number }>(
    `SELECT CASE WHEN consecutive_failures = 0 THEN NULL
                 ELSE COALESCE((SELECT p.reason FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS p(reason, pattern, i)
                                 WHERE COALESCE(circuit_reason, '') ~* p.pattern ORDER BY p.i LIMIT 1), 'other') END AS reason,
            count(*)::int AS total, count(last_polled_at)::int AS polled,
            count(*) FILTER (WHERE consecutive_failures = 0 AND last_success_at IS NOT NULL)::int AS ok,
            count(*) FILTER (WHERE consecutive_failures > 0)::int AS failing
       FROM publishers GROUP BY 1`,
    [patterns.map((p) => p.reason), patterns.map((p) => p.pattern)],
  );
  const out: PublisherHealthCounts = { total: 0, polled: 0, ok: 0, failing: 0, byReason: new Map() };
  for (const r of rows) {
    out.total += r.total;
    out.polled += r.polled;
    out.ok += r.ok;
    out.failing += r.failing;
    if (r.reason !== null) out.byReason.set(r.reason, r.failing);
  }
  return out;
}

/** Names of these publishers by id (those that exist). */
export async function publisherNames(sql: Sql, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query<{ id: string; name: string }>('SELECT id, name FROM publishers WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.name]));
}
