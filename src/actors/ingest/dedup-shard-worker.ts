import { workerData } from 'node:worker_threads';
import pg from 'pg';
import { dedupShardBehaviour } from '../dedup/dedup-shard.js';
import type { QueryResult, Sql } from '../../runtime/sql.js';
import { SqlFingerprints } from './fingerprints-sql.js';

/**
 * The DedupShard behaviour as a worker-hosted module: the worker group passes the shard layout
 * and the database URL in `workerData`; a replacement worker rebuilds its shards from the
 * stored fingerprints through the behaviour's `init`.
 */
interface DedupWorkerData {
  databaseUrl: string | null;
  partitions: number;
  windowMs: number;
}

const data = (workerData ?? {}) as Partial<DedupWorkerData>;

function workerSql(url: string): Sql {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  const sql: Sql = {
    mode: 'postgres',
    url,
    query: async <T>(text: string, params?: readonly unknown[]) => {
      const r = await pool.query(text, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 } satisfies QueryResult<T>;
    },
    tx: (fn) => fn(sql),
    ping: async () => void (await pool.query('SELECT 1')),
    close: () => pool.end(),
  };
  return sql;
}

export default dedupShardBehaviour({
  partitions: data.partitions ?? 4,
  windowMs: data.windowMs ?? 72 * 3_600_000,
  ...(data.databaseUrl ? { store: new SqlFingerprints(workerSql(data.databaseUrl)) } : {}),
});
