import pg from 'pg';
import { DependencyUnavailableError, NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { OutageLog } from './outage.js';

/**
 * The SQL adapter. One `pg` code path serves both modes: server mode talks to PostgreSQL, embedded
 * mode to PGlite served on a loopback port (see sql-pglite.ts), so every query is real Postgres.
 * Note `pg` returns int8 (bigint) columns as strings; cast in SQL or convert at the edge.
 * A query that fails because the database cannot be reached (refused, reset, shut down, timed
 * out connecting) rejects with DependencyUnavailableError (`DEPENDENCY_UNAVAILABLE`, so the API
 * answers 503), and the outage is logged once when it starts and once when it ends.
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
  /**
   * closes the pool once the queries in flight are done; PostgreSQL: waits at most `waitMs` for
   * them (a transaction cut short is rolled back by the server when the process exits); embedded
   * always waits, since the database must be shut down cleanly
   */
  close(waitMs?: number): Promise<void>;
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

/** Socket-level failures: the server is not there (or went away mid-query). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);
/** pg's own messages for a connection that broke or could not be made */
const CONNECTION_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|is not queryable|Client was closed|Connection closed/i;

/**
 * True when `err` means the database cannot be reached rather than that it refused a statement:
 * network errors, SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crashed,
 * starting up) and 53300 (too many connections).
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof NewsaggError) return err.code === 'DEPENDENCY_UNAVAILABLE';
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  if (err instanceof AggregateError) return err.errors.some(isUnreachable);
  return typeof e?.message === 'string' && CONNECTION_MESSAGES.test(e.message);
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
  const what = mode === 'embedded' ? 'embedded database' : `PostgreSQL at ${describeDatabaseUrl(url)}`;
  const health = new Health(what, log);
  // an idle client losing its server emits on the pool; unhandled, that would crash the node
  pool.on('error', (err) => {
    if (isUnreachable(err)) health.outage.failed(err);
    else log.warn({ err: describeError(err) }, 'idle database connection failed');
  });
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    throw new DependencyUnavailableError(what, describeError(err).replace(/^Error: /, ''), err);
  }
  let closed = false;
  return {
    ...poolSql(pool, mode, url, health),
    async close(waitMs?: number) {
      if (closed) return;
      closed = true;
      const ended = pool.end();
      if (mode === 'postgres' && waitMs !== undefined) {
        let timer: NodeJS.Timeout | undefined;
        const done = await Promise.race([ended.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), waitMs)))]);
        clearTimeout(timer);
        if (!done) log.warn({ wait_ms: waitMs }, 'database queries still running at close: left to be rolled back');
      } else await ended;
      await afterClose();
    },
  };
}

type Queryable = pg.Pool | pg.PoolClient;

/** The database's reachability as this adapter sees it: classifies failures and logs outages. */
class Health {
  readonly outage: OutageLog;

  constructor(
    private readonly what: string,
    log: Logger,
  ) {
    this.outage = new OutageLog(what, log);
  }

  /** `err` as thrown to callers: unreachable → DependencyUnavailableError (once wrapped, kept). */
  fail(err: unknown): unknown {
    if (!isUnreachable(err)) return err;
    this.outage.failed(err);
    if (err instanceof DependencyUnavailableError) return err;
    return new DependencyUnavailableError(this.what, describeError(err).replace(/^Error: /, ''), err);
  }
}

async function run<T>(db: Queryable, health: Health, text: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
  const generation = health.outage.generation;
  let r;
  try {
    r = await db.query(text, params as unknown[] | undefined);
  } catch (err) {
    throw health.fail(err);
  }
  if (health.outage.down) health.outage.ok(generation);
  return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
}

function poolSql(pool: pg.Pool, mode: Sql['mode'], url: string, health: Health): Omit<Sql, 'close'> {
  return {
    mode,
    url,
    query: (text, params) => run(pool, health, text, params),
    async tx(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw health.fail(err);
      }
      // A checked-out client has no listener of the pool's: the server going away (a fast
      // shutdown's 57P01, a reset) between two statements or mid-statement makes it emit `error`,
      // which unheard would crash the node. Heard here, the transaction fails with the query.
      let broken: unknown;
      const lost = (err: unknown) => {
        broken ??= err;
        if (isUnreachable(err)) health.outage.failed(err);
      };
      client.on('error', lost);
      try {
        await run(client, health, 'BEGIN');
        const result = await fn(clientSql(client, mode, url, 0, health));
        await run(client, health, 'COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: unknown) => {
          broken = e;
        });
        throw health.fail(err);
      } finally {
        client.removeListener('error', lost);
        // a connection that failed or could not roll back is destroyed rather than reused
        client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
      }
    },
    async ping() {
      await run(pool, health, 'SELECT 1');
    },
  };
}

function clientSql(client: pg.PoolClient, mode: Sql['mode'], url: string, depth: number, health: Health): Sql {
  return {
    mode,
    url,
    query: (text, params) => run(client, health, text, params),
    async tx(fn) {
      const sp = `sp_${depth + 1}`;
      await client.query(`SAVEPOINT ${sp}`);
      try {
        const result = await fn(clientSql(client, mode, url, depth + 1, health));
        await client.query(`RELEASE SAVEPOINT ${sp}`);
        return result;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${sp}`);
        throw err;
      }
    },
    async ping() {
      await run(client, health, 'SELECT 1');
    },
    async close() {
      throw new TypeError('close() is not available inside a transaction');
    },
  };
}
