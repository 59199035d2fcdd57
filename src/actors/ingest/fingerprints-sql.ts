import type { StoredFingerprint } from '../dedup/coordinator.js';
import type { DedupItem, FingerprintStore } from '../dedup/dedup-shard.js';
import { block } from '../dedup/simhash.js';
import type { Sql } from '../../runtime/sql.js';

interface Row {
  handle: string;
  article_id: string;
  root: string;
  hi: number;
  lo: number;
  published_ms: string;
  sketch: Buffer | null;
  has_text: boolean;
}

const SELECT = `SELECT handle::text, article_id, root::text, hi, lo, (extract(epoch FROM published_at) * 1000)::bigint::text AS published_ms, sketch, has_text
  FROM fingerprints WHERE published_at >= $1`;

/** Fingerprints per page of a shard worker's rebuild read. */
const LOAD_PAGE = 20_000;

function toItem(r: Row): StoredFingerprint {
  return {
    handle: Number(r.handle),
    id: r.article_id,
    root: Number(r.root),
    hi: r.hi >>> 0,
    lo: r.lo >>> 0,
    publishedAt: Number(r.published_ms),
    sketch: r.sketch ? new Uint8Array(r.sketch) : null,
    hasText: r.has_text,
  };
}

/**
 * Fingerprints in PostgreSQL. The dedup coordinator's decisions carry the records to keep; the
 * storage stage writes them in the transaction of the batch that produced them, so what is
 * stored is exactly what was decided for stored articles. Shards load their partition from here
 * when they (re)start, the coordinator its handles.
 */
export class SqlFingerprints implements FingerprintStore {
  constructor(private readonly sql: Sql) {}

  /** Write these fingerprints (idempotent: a handle already stored is kept). */
  async write(q: Sql, rows: readonly StoredFingerprint[]): Promise<void> {
    if (rows.length === 0) return;
    await q.query(
      `INSERT INTO fingerprints (handle, article_id, root, hi, lo, published_at, sketch, has_text)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::int[], $5::int[], $6::timestamptz[], $7::bytea[], $8::bool[])
       ON CONFLICT (handle) DO NOTHING`,
      [
        rows.map((r) => r.handle), rows.map((r) => r.id), rows.map((r) => r.root), rows.map((r) => r.hi | 0), rows.map((r) => r.lo | 0),
        rows.map((r) => new Date(r.publishedAt).toISOString()), rows.map((r) => (r.sketch ? Buffer.from(r.sketch) : null)),
        rows.map((r) => r.hasText ?? false),
      ],
    );
  }

  /** Everything inside the window, for the coordinator's handle bookkeeping. */
  async loadAll(sinceMs: number): Promise<StoredFingerprint[]> {
    const { rows } = await this.sql.query<Row>(`${SELECT} ORDER BY handle`, [new Date(sinceMs).toISOString()]);
    return rows.map(toItem);
  }

  /**
   * What the coordinator keeps of each fingerprint inside the window (handle, article, root,
   * time; no sketch), a page at a time in handle order (keyset on the primary key): the caller
   * restores a page and lets the event loop run before the next is read.
   */
  async pageHandles(sinceMs: number, pageSize: number, onPage: (page: StoredFingerprint[]) => Promise<void> | void): Promise<number> {
    let after = -1;
    let total = 0;
    for (;;) {
      const { rows } = await this.sql.query<Pick<Row, 'handle' | 'article_id' | 'root' | 'published_ms'>>(
        `SELECT handle::text, article_id, root::text, (extract(epoch FROM published_at) * 1000)::bigint::text AS published_ms
           FROM fingerprints WHERE handle > $2 AND published_at >= $1 ORDER BY handle LIMIT $3`,
        [new Date(sinceMs).toISOString(), after, pageSize],
      );
      if (rows.length === 0) return total;
      total += rows.length;
      after = Number(rows[rows.length - 1]!.handle);
      await onPage(rows.map((r) => ({ handle: Number(r.handle), id: r.article_id, root: Number(r.root), hi: 0, lo: 0, publishedAt: Number(r.published_ms), sketch: null })));
      if (rows.length < pageSize) return total;
    }
  }

  /**
   * Those inside the window whose article's transaction began at or after `storedSince` (the
   * database's clock): what a new dedup owner catches up with after its rebuild.
   */
  async loadStoredSince(sinceMs: number, storedSince: number): Promise<StoredFingerprint[]> {
    const { rows } = await this.sql.query<Row>(
      `SELECT f.handle::text, f.article_id, f.root::text, f.hi, f.lo, (extract(epoch FROM f.published_at) * 1000)::bigint::text AS published_ms, f.sketch, f.has_text
         FROM fingerprints f JOIN articles a ON a.id = f.article_id AND a.published_at >= $1
        WHERE f.published_at >= $1 AND a.ingested_at >= $2
        ORDER BY f.handle`,
      [new Date(sinceMs).toISOString(), new Date(storedSince).toISOString()],
    );
    return rows.map(toItem);
  }

  async load(blockIndex: number, partition: number, partitions: number, sinceMs: number): Promise<DedupItem[]> {
    // the shards of a worker start together: one read of the window, in pages, split into all
    // their partitions at once (not one full read per shard); a shard asking again later (or for
    // another window) starts a read of its own
    const slot = blockIndex * partitions + partition;
    let s = this.shared;
    if (!s || s.partitions !== partitions || s.taken.has(slot) || Math.abs(s.sinceMs - sinceMs) > 60_000) {
      s = this.shared = { sinceMs, partitions, taken: new Set(), buckets: this.loadBuckets(sinceMs, partitions) };
    }
    s.taken.add(slot);
    const buckets = await s.buckets;
    const mine = buckets[slot]!;
    buckets[slot] = [];
    if (s.taken.size >= 4 * partitions && this.shared === s) this.shared = null;
    return mine;
  }

  private shared: { sinceMs: number; partitions: number; taken: Set<number>; buckets: Promise<DedupItem[][]> } | null = null;

  /** Every fingerprint inside the window into its partition of each of the 4 block tables (an item shared by its 4), read a page at a time. */
  private async loadBuckets(sinceMs: number, partitions: number): Promise<DedupItem[][]> {
    const buckets: DedupItem[][] = Array.from({ length: 4 * partitions }, () => []);
    for (let after = -1; ; ) {
      const { rows } = await this.sql.query<Row>(`${SELECT} AND handle > $2 ORDER BY handle LIMIT ${LOAD_PAGE}`, [new Date(sinceMs).toISOString(), after]);
      for (const r of rows) {
        const it = toItem(r);
        for (let t = 0; t < 4; t++) buckets[t * partitions + (block(it.hi, it.lo, t) % partitions)]!.push(it);
      }
      if (rows.length < LOAD_PAGE) return buckets;
      after = Number(rows[rows.length - 1]!.handle);
    }
  }

  /** Drop fingerprints older than the window (retention). */
  async prune(beforeMs: number): Promise<number> {
    const { rowCount } = await this.sql.query('DELETE FROM fingerprints WHERE published_at < $1', [new Date(beforeMs).toISOString()]);
    return rowCount;
  }
}
