import { randomBytes } from 'node:crypto';
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

  async put(s: Snapshot): Promise<string> {
    const id = randomBytes(9).toString('base64url');
    const body = JSON.stringify(s);
    try {
      await this.cache.set(`snap:${id}`, body, this.ttlMs);
    } catch {
      await this.sql.query('DELETE FROM feed_snapshots WHERE expires_at < $1', [new Date(this.now()).toISOString()]);
      await this.sql.query('INSERT INTO feed_snapshots (id, body, expires_at) VALUES ($1, $2::jsonb, $3)', [
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
