import { describeError, isOutage } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Metrics } from '../runtime/metrics.js';
import { json } from './reply.js';
import type { Router } from './router.js';

/** A readiness check: resolves when the dependency answers. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthDeps {
  /** named checks, e.g. `{ sql: () => sql.ping(), cache: () => cache.ping() }` */
  checks: Readonly<Record<string, ReadinessCheck>>;
  metrics: Metrics;
  /** true while the node shuts down, so load balancers stop sending before sockets close */
  draining?: () => boolean;
  log?: Logger;
  /** a check slower than this counts as failed */
  timeoutMs?: number;
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `/healthz` (the process answers), `/readyz` (every dependency answers: 200, else 503 naming
 * which failed; details go to the log, not to the client) and `/metrics` (Prometheus text).
 */
export function addHealthRoutes(router: Router, deps: HealthDeps): void {
  const log = deps.log ?? silentLogger;
  const timeoutMs = deps.timeoutMs ?? 2000;

  router.get('/healthz', () => json({ status: 'ok' }, 200, NO_STORE));

  router.get('/readyz', async () => {
    const names = Object.keys(deps.checks);
    const results = await Promise.all(names.map((n) => withTimeout(deps.checks[n]!(), timeoutMs).then(
      () => 'ok' as const,
      (err: unknown) => {
        // a dependency that is away is logged by its adapter once per outage, not per probe
        log[isOutage(err) ? 'debug' : 'warn']({ check: n, err: describeError(err) }, 'readiness check failed');
        return 'failed' as const;
      },
    )));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
    const failed = names.filter((_, i) => results[i] !== 'ok');
    if (deps.draining?.()) return json({ status: 'draining', checks }, 503, NO_STORE);
    if (failed.length > 0) return json({ status: 'unavailable', failed, checks }, 503, NO_STORE);
    return json({ status: 'ready', checks }, 200, NO_STORE);
  });

  router.get('/metrics', async () => ({
    status: 200,
    headers: { 'content-type': deps.metrics.contentType, ...NO_STORE },
    body: await deps.metrics.text(),
  }));
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
