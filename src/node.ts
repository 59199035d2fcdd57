import { randomBytes } from 'node:crypto';
import { ensureArticlePartitions, newsMigrations } from './actors/store/migrations.js';
import { addHealthRoutes, type ReadinessCheck } from './api/health.js';
import { Router } from './api/router.js';
import { HttpServer } from './api/server.js';
import type { Config } from './config.js';
import { openCache, type Cache } from './runtime/cache.js';
import { describeError } from './runtime/errors.js';
import { createLogger, type Logger } from './runtime/log.js';
import { Metrics } from './runtime/metrics.js';
import { migrate } from './runtime/migrate.js';
import { openSql, type Sql } from './runtime/sql.js';
import { ActorSystem } from './runtime/system.js';
import { TaskPool } from './runtime/task-pool.js';

/**
 * A node: one process with its adapters (SQL, cache), its actor system, and its HTTP server.
 * Later features plug in as components: started in order after storage is ready and before the
 * server opens, stopped in reverse order after intake stops and before the system drains.
 */
export interface Component {
  readonly name: string;
  start?(node: Node): void | Promise<void>;
  /** stop producing work (timers, subscriptions); the system drains what is queued afterwards */
  stop?(): void | Promise<void>;
}

export interface Node {
  readonly config: Config;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly sql: Sql;
  readonly cache: Cache;
  readonly system: ActorSystem;
  readonly router: Router;
  readonly http: HttpServer;
  /** the shared CPU pool (`--workers` threads), created on first use */
  readonly tasks: TaskPool;
  /** `--cursor-secret`, or a random one for this process */
  readonly cursorSecret: string;
  /** the bound port and a URL to reach it */
  readonly port: number;
  readonly url: string;
  /** true once stop() began */
  readonly stopping: boolean;
  /** `/readyz` checks by name; a component may add its own (e.g. ingest progress) */
  readonly readiness: Record<string, ReadinessCheck>;
  /** starts a component now and stops it with the node */
  add(component: Component): Promise<void>;
  /** graceful shutdown: stop intake, stop components, drain actors, close pools, cache and SQL */
  stop(): Promise<void>;
}

export interface StartNodeOptions {
  log?: Logger;
  metrics?: Metrics;
  /** started in order before the HTTP server listens */
  components?: readonly Component[];
  now?: () => number;
}

/** Boots a node from a resolved config. Anything unreachable → DependencyUnavailableError, with nothing left open. */
export async function startNode(config: Config, opts: StartNodeOptions = {}): Promise<Node> {
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const metrics = opts.metrics ?? new Metrics({ defaults: true });
  const now = opts.now ?? Date.now;
  const cleanups: (() => Promise<void>)[] = [];
  const undo = async () => {
    for (const c of cleanups.reverse()) await c().catch((err: unknown) => log.warn({ err: describeError(err) }, 'cleanup after failed start'));
  };

  try {
    const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log });
    cleanups.push(() => sql.close());
    const { applied, current } = await migrate(sql, newsMigrations, { log });
    await ensureArticlePartitions(sql, now, 1);
    log.info({ mode: sql.mode, schema_version: current, applied }, 'database ready');

    const cache = await openCache({ redisUrl: config.redisUrl, log, now });
    cleanups.push(() => cache.close());
    log.info({ mode: cache.mode }, 'cache ready');

    let tasks: TaskPool | undefined;
    cleanups.push(async () => tasks?.close());

    const system = new ActorSystem({ log, metrics });
    cleanups.push(() => system.shutdown(config.shutdownTimeoutMs));
    persistDeadLetters(system, sql, log);

    const router = new Router();
    const http = new HttpServer({ host: config.host, port: config.port, router, log, bodyLimitBytes: config.bodyLimitBytes });
    let stopping = false;
    const readiness: Record<string, ReadinessCheck> = { sql: () => sql.ping(), cache: () => cache.ping() };
    addHealthRoutes(router, { checks: readiness, metrics, draining: () => stopping, log });

    const components: Component[] = [];
    cleanups.push(async () => {
      for (const c of components.splice(0).reverse()) {
        await Promise.resolve(c.stop?.()).catch((err: unknown) => log.warn({ component: c.name, err: describeError(err) }, 'component stop failed'));
      }
    });
    const node: Node = {
      config,
      log,
      metrics,
      sql,
      cache,
      system,
      router,
      http,
      get tasks() {
        return (tasks ??= new TaskPool({ threads: config.workers, typescript: import.meta.url.endsWith('.ts'), metrics }));
      },
      cursorSecret: config.cursorSecret ?? randomBytes(32).toString('base64url'),
      get port() {
        return http.port;
      },
      get url() {
        const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
        return `http://${host.includes(':') ? `[${host}]` : host}:${http.port}`;
      },
      get stopping() {
        return stopping;
      },
      readiness,
      async add(component) {
        await component.start?.(node);
        components.push(component);
        log.debug({ component: component.name }, 'component started');
      },
      async stop() {
        if (stopping) return;
        stopping = true;
        log.info('stopping: intake first');
        await http.close(Math.min(5000, config.shutdownTimeoutMs));
        // then, in reverse order of opening: components, actor system (drains), CPU pool, cache, SQL
        await undo();
        log.info('stopped');
      },
    };
    for (const c of opts.components ?? []) await node.add(c);
    await http.listen();
    cleanups.push(() => http.close(0));
    log.info({ url: node.url, roles: config.roles, sql: sql.mode, cache: cache.mode }, 'node listening');
    return node;
  } catch (err) {
    await undo();
    throw err;
  }
}

/** Dead letters go to the `dead_letters` table too, so they outlive the process's ring buffer. */
function persistDeadLetters(system: ActorSystem, sql: Sql, log: Logger): void {
  system.deadLetters.onDeadLetter((d) => {
    let payload: string | null;
    try {
      payload = JSON.stringify(d.msg);
    } catch {
      payload = null; // e.g. a bigint in the message: keep the letter, drop the payload
    }
    sql
      .query('INSERT INTO dead_letters (address, type, payload, error, attempts, at) VALUES ($1, $2, $3::jsonb, $4, $5, to_timestamp($6 / 1000.0))', [
        d.address, d.type, payload, d.error, d.attempts, d.at,
      ])
      .catch((err: unknown) => log.warn({ err: describeError(err), address: d.address }, 'dead letter not persisted'));
  });
}
