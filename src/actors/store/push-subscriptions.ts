import type { Sql } from '../../runtime/sql.js';

/**
 * Push subscriptions as stored (push-migrations.ts): one row per browser endpoint, owned by the
 * reader that posted it last, with the alert keys it matches and its preferences. Also the
 * deployment's VAPID key pair, which every node shares.
 */

/** A reader's preferences for one subscription, as stored and shown. */
export interface PushPrefs {
  breaking: boolean;
  stories: string[];
  topics: string[];
  places: string[];
  threshold: number;
  /** local quiet hours ('HH:MM'), or null for none */
  quiet_hours: { start: string; end: string } | null;
  /** minutes east of UTC */
  tz_offset_minutes: number;
  daily_cap: number;
}

export interface NewSubscription {
  id: string;
  reader_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  stop_token: string;
  keys: string[];
  prefs: PushPrefs;
}

export interface StoredSubscription {
  id: string;
  reader_id: string;
  endpoint: string;
  prefs: PushPrefs;
  created_at: string;
}

/**
 * Saves a subscription: a new endpoint is added, a known one takes the new keys, owner and
 * preferences (its id and stop token stay). A followed story's current size is remembered, so
 * its first alert is for an article that came after the follow. Past `maxPerReader`, the
 * reader's oldest subscriptions go. Returns the stored row and whether it is new.
 */
export async function saveSubscription(sql: Sql, s: NewSubscription, at: number, maxPerReader: number): Promise<{ sub: StoredSubscription; created: boolean }> {
  return sql.tx(async (q) => {
    const { rows } = await q.query<StoredSubscription & { created: boolean }>(
      `INSERT INTO push_subscriptions (id, reader_id, endpoint, p256dh, auth, stop_token, keys, threshold, prefs, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9::jsonb, $10, $10)
       ON CONFLICT (endpoint) DO UPDATE SET reader_id = EXCLUDED.reader_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
         keys = EXCLUDED.keys, threshold = EXCLUDED.threshold, prefs = EXCLUDED.prefs, updated_at = EXCLUDED.updated_at
       RETURNING id, reader_id, endpoint, prefs, created_at::text, (xmax = 0) AS created`,
      [s.id, s.reader_id, s.endpoint, s.p256dh, s.auth, s.stop_token, s.keys, s.prefs.threshold, JSON.stringify(s.prefs), new Date(at).toISOString()],
    );
    const row = rows[0]!;
    const when = new Date(at).toISOString();
    if (s.prefs.stories.length > 0) {
      await q.query(
        `INSERT INTO push_marks (subscription_id, key, count, at, again_at)
         SELECT $1, 's:' || st.id, st.article_count, $3, $3 FROM stories st WHERE st.id = ANY($2::text[])
         ON CONFLICT (subscription_id, key) DO NOTHING`,
        [row.id, s.prefs.stories, when],
      );
    }
    await q.query(
      `DELETE FROM push_subscriptions WHERE id IN (
         SELECT id FROM push_subscriptions WHERE reader_id = $1 ORDER BY created_at DESC, id OFFSET $2)`,
      [s.reader_id, maxPerReader],
    );
    return { sub: { id: row.id, reader_id: row.reader_id, endpoint: row.endpoint, prefs: row.prefs, created_at: row.created_at }, created: row.created };
  });
}

/** A reader's subscriptions, newest first. */
export async function readerSubscriptions(sql: Sql, readerId: string): Promise<StoredSubscription[]> {
  const { rows } = await sql.query<StoredSubscription>(
    'SELECT id, reader_id, endpoint, prefs, created_at::text FROM push_subscriptions WHERE reader_id = $1 ORDER BY created_at DESC, id',
    [readerId],
  );
  return rows;
}

/** Deletes a reader's subscription by endpoint, or all of them (endpoint null). Returns how many. */
export async function deleteReaderSubscriptions(sql: Sql, readerId: string, endpoint: string | null): Promise<number> {
  const r = endpoint === null
    ? await sql.query('DELETE FROM push_subscriptions WHERE reader_id = $1', [readerId])
    : await sql.query('DELETE FROM push_subscriptions WHERE reader_id = $1 AND endpoint = $2', [readerId, endpoint]);
  return r.rowCount;
}

/** Deletes the subscription a stop URL names, if its token matches. Returns whether one went. */
export async function stopSubscription(sql: Sql, id: string, token: string): Promise<boolean> {
  const r = await sql.query('DELETE FROM push_subscriptions WHERE id = $1 AND stop_token = $2', [id, token]);
  return r.rowCount > 0;
}

/** Deletes a subscription (its push service said it is gone). */
export async function dropSubscription(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}

/** What any subscription listens for: every key in use, and the lowest topic threshold. */
export interface PushInterest {
  breaking: boolean;
  keys: Set<string>;
  /** some subscription follows a topic or place (`c:`, `e:`, `l:` keys) */
  topical: boolean;
  minThreshold: number;
}

export async function loadInterest(sql: Sql): Promise<PushInterest> {
  const { rows } = await sql.query<{ key: string | null; min: number | null }>(
    `SELECT k.key, NULL::int AS min FROM (SELECT DISTINCT unnest(keys) AS key FROM push_subscriptions) k
     UNION ALL SELECT NULL, min(threshold) FROM push_subscriptions`,
  );
  const keys = new Set<string>();
  let min = Infinity;
  for (const r of rows) {
    if (r.key !== null) keys.add(r.key);
    else if (r.min !== null) min = r.min;
  }
  const topical = [...keys].some((k) => k.startsWith('c:') || k.startsWith('e:') || k.startsWith('l:'));
  return { breaking: keys.has('b'), keys, topical, minThreshold: min };
}

/**
 * The deployment's VAPID key pair: the stored one, or `generated` stored first (the first node
 * to start wins; every other node reads the same pair).
 */
export async function vapidKeys(sql: Sql, generated: () => { publicKey: string; privateKey: string }): Promise<{ publicKey: string; privateKey: string }> {
  const read = async () =>
    (await sql.query<{ public_key: string; private_key: string }>('SELECT public_key, private_key FROM push_vapid WHERE id = 1')).rows[0];
  let row = await read();
  if (!row) {
    const g = generated();
    await sql.query('INSERT INTO push_vapid (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [g.publicKey, g.privateKey]);
    row = (await read())!;
  }
  return { publicKey: row.public_key, privateKey: row.private_key };
}
