import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DependencyUnavailableError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';

/**
 * Embedded PostgreSQL: PGlite (Postgres compiled to WASM) persisted in `<dataDir>/pg` and served
 * on a loopback port by pglite-socket, so the node reaches it through the same `pg` pool as a real
 * server. `maxConnections` must exceed the pool size: with the default of 1 a second concurrent
 * client is reset (ECONNRESET). The socket server queues queries and keeps a transaction's
 * statements together, so pooled connections behave like separate sessions.
 */
export interface EmbeddedPostgres {
  /** `postgres://` URL of the loopback server */
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts PGlite in `<dataDir>/pg`, locks the directory against a second process, serves it. */
export async function startEmbeddedPostgres(dataDir: string, opts: { log?: Logger; maxConnections?: number } = {}): Promise<EmbeddedPostgres> {
  const log = opts.log ?? silentLogger;
  const dir = resolve(dataDir, 'pg');
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new DependencyUnavailableError('embedded database', `cannot create ${dir}: ${describeError(err)}`, err);
  }
  const releaseLock = await lockDir(resolve(dataDir, 'pg.lock'));
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    db = await PGlite.create(dir);
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: opts.maxConnections ?? 16 });
    await server.start();
  } catch (err) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    await releaseLock();
    throw new DependencyUnavailableError('embedded database', `cannot open ${dir}: ${describeError(err)}`, err);
  }
  const conn = server.getServerConn(); // "127.0.0.1:PORT"
  log.info({ dir, conn }, 'embedded database ready');
  let stopped = false;
  const srv = server;
  const pglite = db;
  return {
    url: `postgres://postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await srv.stop();
        await pglite.close();
      } finally {
        await releaseLock();
      }
    },
  };
}

/**
 * An exclusive lock file holding our pid. Two processes writing one PGlite directory would corrupt
 * it, so a second node on the same data dir fails at start; a lock left by a dead process is taken over.
 */
async function lockDir(path: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        await rm(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DependencyUnavailableError('embedded database', `cannot lock ${path}: ${describeError(err)}`, err);
      }
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new DependencyUnavailableError('embedded database', `data dir is in use by process ${pid} (${path})`);
      }
      await rm(path, { force: true });
    }
  }
  throw new DependencyUnavailableError('embedded database', `cannot lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
