import { randomBytes } from 'node:crypto';
import { DeadLetterWriter } from './actors/store/dead-letters.js';
import { ensureArticlePartitions, newsMigrations } from './actors/store/migrations.js';
import { addHealthRoutes, type ReadinessCheck } from './api/health.js';
import { HttpMetrics } from './api/http-metrics.js';
import { Router } from './api/router.js';
import { HttpServer } from './api/server.js';
import type { Config } from './config.js';
import { NatsBroadcast, withNatsPubSub } from './runtime/broadcast-nats.js';
import { openCache, type Cache } from './runtime/cache.js';
import { ConfigError, describeError } from './runtime/errors.js';
import { createLogger, type Logger } from './runtime/log.js';
import { Metrics } from './runtime/metrics.js';
import { migrate } from './runtime/migrate.js';
import { connectNats, safeNatsUrl, type NatsLink } from './runtime/nats-connect.js';
import { eventLoopDelayMetric } from './runtime/event-loop-metric.js';
import { OwnedShardsGauge } from './runtime/owned-shards-metric.js';
import { checkDataDir, checkPortFree } from './runtime/preflight.js';
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

/** The kinds of sharded state a cluster spreads over its nodes (`newsagg_owned_shards{kind}`). */
export const SHARD_KINDS = ['publisher', 'dedup', 'story', 'breaking'] as const;

export interface Node {
  readonly config: Config;
  /** `--node-id`: this node's name in a cluster */
  readonly nodeId: string;
  /** the NATS connection when `--nats-url` is given (server mode between nodes), else null */
  readonly nats: NatsLink | null;
  /** fan-out to every node over NATS (live events), null without `--nats-url`; the cache's pub/sub rides it too */
  readonly broadcast: NatsBroadcast | null;
  /** `newsagg_owned_shards{kind}`; the roles that own shards point it at their ownership */
  readonly ownedShards: OwnedShardsGauge;
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
  /** the port of the `--metrics-listen` server, or null when /metrics is served on `port` */
  readonly metricsPort: number | null;
  /** true once stop() began */
  readonly stopping: boolean;
  /**
   * milliseconds left of the shutdown budget (`--shutdown-timeout-ms`) once stop() began (the
   * whole budget before): each step of a shutdown takes its time from what is left, so the
   * steps together finish within the budget
   */
  stopBudgetLeftMs(): number;
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
  let stopping = false;
  let stopDeadline = 0;
  const stopBudgetLeftMs = () => (stopping ? Math.max(0, stopDeadline - Date.now()) : config.shutdownTimeoutMs);
  // what start opened, closed in reverse order; when stopping, each step's time is logged (a
  // shutdown that runs late says where the time went)
  const cleanups: { step: string; run: () => Promise<void> }[] = [];
  const undo = async (shutdown = false) => {
    for (const c of cleanups.reverse()) {
      const started = Date.now();
      await c.run().catch((err: unknown) => log.warn({ step: c.step, err: describeError(err) }, shutdown ? 'shutdown step failed' : 'cleanup after failed start'));
      if (shutdown) log.info({ step: c.step, ms: Date.now() - started }, 'shutdown step done');
    }
  };

  try {
    // before anything opens: a port in use or an unusable data dir is one line, not a full boot
    await checkDataDir(config.dataDir);
    await checkPortFree(config.host, config.port);
    const ml = config.metricsListen;
    if (ml && ml.port !== 0 && ml.port === config.port) throw new ConfigError(`--metrics-listen ${ml.host}:${ml.port}: the same port as --port`);
    if (ml) await checkPortFree(ml.host, ml.port, '--metrics-listen');

    const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log });
    // (a failed start waits for nothing; a shutdown, for what is left of its budget)
    cleanups.push({ step: 'database', run: () => sql.close(stopping ? stopBudgetLeftMs() : undefined) });
    // (closed just before SQL: letters held through an outage get a last try)
    const letters = new DeadLetterWriter(sql, log);
    cleanups.push({ step: 'dead letters', run: async () => {
      await letters.flush();
      letters.stop();
    } });
    const { applied, current } = await migrate(sql, newsMigrations, { log });
    await ensureArticlePartitions(sql, now, 1);
    log.info({ mode: sql.mode, schema_version: current, applied }, 'database ready');

    const stored = await openCache({ redisUrl: config.redisUrl, log, now, prefix: config.redisPrefix });
    cleanups.push({ step: 'cache', run: () => stored.close() });
    log.info({ mode: stored.mode }, 'cache ready');
    let cache: Cache = stored;

    let nats: NatsLink | null = null;
    let broadcast: NatsBroadcast | null = null;
    if (config.natsUrl !== undefined) {
      const link = await connectNats({ url: config.natsUrl, name: config.nodeId, log, requireJetStream: true, prefix: config.natsPrefix });
      nats = link;
      cleanups.push({ step: 'nats', run: () => link.close() });
      // invalidation events, reader-profile changes and live events reach every node over NATS;
      // keys and values stay in the cache (Redis, shared by the API nodes)
      broadcast = new NatsBroadcast(link, log);
      cache = withNatsPubSub(stored, broadcast, log);
      log.info({ node_id: config.nodeId, server: safeNatsUrl(config.natsUrl), prefix: link.prefix }, 'NATS ready');
    }

    let tasks: TaskPool | undefined;
    cleanups.push({ step: 'worker pool', run: async () => tasks?.close() });

    const system = new ActorSystem({ log, metrics });
    // what is left of the budget but a second for closing pools, cache and database
    cleanups.push({ step: 'actors', run: () => system.shutdown(Math.max(0, stopBudgetLeftMs() - 1_000)) });
    // dead letters go to the `dead_letters` table too, so they outlive the process's ring buffer
    system.deadLetters.onDeadLetter((d) => letters.write(d));

    const router = new Router();
    const http = new HttpServer({ host: config.host, port: config.port, router, log, bodyLimitBytes: config.bodyLimitBytes, metrics: new HttpMetrics(metrics) });
    // components add checks of their own (the ingest role: progress) through node.readiness
    const readiness: Record<string, ReadinessCheck> = { sql: () => sql.ping(), cache: () => cache.ping(), ...(nats ? { nats: () => nats.ping() } : {}) };
    const ownedShards = new OwnedShardsGauge(metrics, SHARD_KINDS);
    // how late timers ran (heartbeats, lease renewals): a shard rebuild must not hold the loop
    eventLoopDelayMetric(metrics);
    addHealthRoutes(router, {
      checks: readiness,
      metrics,
      draining: () => stopping,
      log,
      metricsAccess: ml ? 'elsewhere' : { adminToken: config.adminToken ?? null },
      metricsRateLimit: { rps: config.rateLimitRps, burst: config.rateLimitBurst },
    });
    // /metrics on an address of its own (a private interface), open to whoever reaches it there
    let metricsHttp: HttpServer | null = null;
    if (ml) {
      const metricsRouter = new Router();
      addHealthRoutes(metricsRouter, { checks: readiness, metrics, draining: () => stopping, log });
      metricsHttp = new HttpServer({ host: ml.host, port: ml.port, router: metricsRouter, log, bodyLimitBytes: 1024 });
    }

    const components: Component[] = [];
    cleanups.push({ step: 'components', run: async () => {
      for (const c of components.splice(0).reverse()) {
        const started = Date.now();
        await Promise.resolve(c.stop?.()).catch((err: unknown) => log.warn({ component: c.name, err: describeError(err) }, 'component stop failed'));
        if (stopping) log.info({ component: c.name, ms: Date.now() - started }, 'component stopped');
      }
    } });
    const node: Node = {
      config,
      nodeId: config.nodeId,
      nats,
      broadcast,
      ownedShards,
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
      get metricsPort() {
        return metricsHttp?.port ?? null;
      },
      get stopping() {
        return stopping;
      },
      stopBudgetLeftMs,
      readiness,
      async add(component) {
        await component.start?.(node);
        components.push(component);
        log.debug({ component: component.name }, 'component started');
      },
      async stop() {
        if (stopping) return;
        stopping = true;
        stopDeadline = Date.now() + config.shutdownTimeoutMs;
        log.info('stopping: intake first');
        const started = Date.now();
        await http.close(Math.min(5000, config.shutdownTimeoutMs / 3));
        log.info({ step: 'http intake', ms: Date.now() - started }, 'shutdown step done');
        // then, in reverse order of opening: components, actor system (drains), CPU pool, cache, SQL
        await undo(true);
        log.info('stopped');
      },
    };
    for (const c of opts.components ?? []) await node.add(c);
    await http.listen();
    cleanups.push({ step: 'http', run: () => http.close(0) });
    if (metricsHttp) {
      const m = metricsHttp;
      await m.listen();
      cleanups.push({ step: 'metrics http', run: () => m.close(0) });
    }
    log.info({ url: node.url, node_id: config.nodeId, roles: config.roles, sql: sql.mode, cache: cache.mode, bus: nats ? 'nats' : 'in-process' }, 'node listening');
    return node;
  } catch (err) {
    await undo();
    throw err;
  }
}
