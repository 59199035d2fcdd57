import { createHash } from 'node:crypto';
import type { Cache } from '../runtime/cache.js';
import type { Sql } from '../runtime/sql.js';

/** The ranked, diversified order a first page fixed, and where the ranking it came from ended. */
export interface Snapshot {
  ids: string[];
  /** (score, id) of the last ranked entry the snapshot was built from; null when the feed ended */
  end: { score: number; id: string } | null;
}

/**
 * Snapshots live in the cache (shared by all API nodes) and, when the cache fails, in
 * PostgreSQL, so cursors handed out during an outage keep working on any node.
 */
export class SnapshotStore {
  constructor(
    private readonly cache: Cache,
    private readonly sql: Sql,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Store a snapshot under an id derived from its content, so an unchanged ranking yields the
   * same id, the same first page and the same ETag (a CDN and `If-None-Match` keep working).
   */
  async put(s: Snapshot): Promise<string> {
    const body = JSON.stringify(s);
    const id = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    try {
      await this.cache.set(`snap:${id}`, body, this.ttlMs);
    } catch {
      await this.sql.query('DELETE FROM feed_snapshots WHERE expires_at < $1', [new Date(this.now()).toISOString()]);
      await this.sql.query('INSERT INTO feed_snapshots (id, body, expires_at) VALUES ($1, $2::jsonb, $3) ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at', [
        id, body, new Date(this.now() + this.ttlMs).toISOString(),
      ]);
    }
    return id;
  }

  async get(id: string): Promise<Snapshot | null> {
    try {
      const raw = await this.cache.get(`snap:${id}`);
      if (raw) return JSON.parse(raw) as Snapshot;
    } catch {
      // fall through to the database copy
    }
    const { rows } = await this.sql.query<{ body: Snapshot }>('SELECT body FROM feed_snapshots WHERE id = $1 AND expires_at > $2', [
      id, new Date(this.now()).toISOString(),
    ]);
    return rows[0]?.body ?? null;
  }
}
