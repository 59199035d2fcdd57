import pg from 'pg';
import { DependencyUnavailableError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';

/**
 * The SQL adapter. One `pg` code path serves both modes: server mode talks to PostgreSQL, embedded
 * mode to PGlite served on a loopback port (see sql-pglite.ts), so every query is real Postgres.
 * Note `pg` returns int8 (bigint) columns as strings; cast in SQL or convert at the edge.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** runs `fn` in one transaction on one connection; nested calls become savepoints */
  tx<T>(fn: (q: Sql) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  readonly mode: 'postgres' | 'embedded';
  /** a URL other threads or processes can connect to (embedded: the loopback socket); may carry credentials */
  readonly url: string;
}

export interface OpenSqlOptions {
  /** PostgreSQL URL; absent = embedded PGlite in `<dataDir>/pg` */
  databaseUrl?: string | undefined;
  dataDir: string;
  log?: Logger;
  /** pool size for PostgreSQL (default 10); embedded always uses one connection */
  poolSize?: number;
  connectTimeoutMs?: number;
}

/** Opens the database for the mode the options select; throws DependencyUnavailableError when unreachable. */
export async function openSql(opts: OpenSqlOptions): Promise<Sql> {
  const log = opts.log ?? silentLogger;
  if (opts.databaseUrl !== undefined) {
    return connectPool(opts.databaseUrl, 'postgres', opts.poolSize ?? 10, opts.connectTimeoutMs ?? 5000, log, async () => {});
  }
  // loaded lazily: PGlite is a large WASM module that server mode never needs
  const { startEmbeddedPostgres } = await import('./sql-pglite.js');
  const embedded = await startEmbeddedPostgres(opts.dataDir, { log });
  try {
    // One connection: PGlite is a single session, and pglite-socket interleaves the extended-query
    // messages of concurrent connections (a Bind of one lands on another's Parse). Queries queue
    // in the pool instead, which costs nothing since PGlite runs one statement at a time anyway.
    return await connectPool(embedded.url, 'embedded', 1, opts.connectTimeoutMs ?? 60_000, log, () => embedded.stop());
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}

/** A URL safe to log: host, port and database, never the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}

async function connectPool(
  url: string,
  mode: Sql['mode'],
  max: number,
  connectTimeoutMs: number,
  log: Logger,
  afterClose: () => Promise<void>,
): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: connectTimeoutMs, idleTimeoutMillis: 30_000 });
  // an idle client losing its server emits on the pool; unhandled, that would crash the node
  pool.on('error', (err) => log.warn({ err: describeError(err) }, 'idle database connection failed'));
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    const what = mode === 'embedded' ? 'embedded database' : `PostgreSQL at ${describeDatabaseUrl(url)}`;
    throw new DependencyUnavailableError(what, describeError(err).replace(/^Error: /, ''), err);
  }
  let closed = false;
  return {
    ...poolSql(pool, mode, url),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
      await afterClose();
    },
  };
}

type Queryable = pg.Pool | pg.PoolClient;

async function run<T>(db: Queryable, text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
  const r = await db.query(text, params as unknown[] | undefined);
  return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
}

function poolSql(pool: pg.Pool, mode: Sql['mode'], url: string): Omit<Sql, 'close'> {
  return {
    mode,
    url,
    query: (text, params) => run(pool, text, params),
    async tx(fn) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await fn(clientSql(client, mode, url, 0));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: unknown) => {
          broken = e;
        });
        throw err;
      } finally {
        // a connection that could not roll back is destroyed rather than reused mid-transaction
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
  };
}

function clientSql(client: pg.PoolClient, mode: Sql['mode'], url: string, depth: number): Sql {
  return {
    mode,
    url,
    query: (text, params) => run(client, text, params),
    async tx(fn) {
      const sp = `sp_${depth + 1}`;
      await client.query(`SAVEPOINT ${sp}`);
      try {
        const result = await fn(clientSql(client, mode, url, depth + 1));
        await client.query(`RELEASE SAVEPOINT ${sp}`);
        return result;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${sp}`);
        throw err;
      }
    },
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      throw new TypeError('close() is not available inside a transaction');
    },
  };
}
