import { describeError, isOutage } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Metrics } from '../runtime/metrics.js';
import { RateLimiter } from './rate-limit.js';
import { HttpError, json, type Request } from './reply.js';
import type { Router } from './router.js';
import { bearerToken, sameSecret } from './routes/common.js';

/**
 * A readiness check: resolves when the dependency answers, rejects when it does not; resolves
 * with `{degraded}` when the node works but something it depends on for its purpose fails (every
 * news source failing): the node stays ready (200), the body says why.
 */
export type ReadinessCheck = () => Promise<void | { degraded: string }>;

export interface HealthDeps {
  /** named checks, e.g. `{ sql: () => sql.ping(), cache: () => cache.ping() }` */
  checks: Readonly<Record<string, ReadinessCheck>>;
  metrics: Metrics;
  /** true while the node shuts down, so load balancers stop sending before sockets close */
  draining?: () => boolean;
  log?: Logger;
  /** a check slower than this counts as failed */
  timeoutMs?: number;
  /**
   * who may read `/metrics` here: everyone ('open', the default; a private metrics listener),
   * the bearer of this admin token, or nobody ('elsewhere': served on another address)
   */
  metricsAccess?: 'open' | 'elsewhere' | { adminToken: string | null };
  /** per client address on `/metrics` when it is behind the token (tokens are not guessed at speed) */
  metricsRateLimit?: { rps: number; burst: number };
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `/healthz` (the process answers), `/readyz` (every dependency answers: 200, else 503 naming
 * which failed; details go to the log, not to the client; 200 with status `degraded` and the
 * reason when a check reports its dependency degraded) and `/metrics` (Prometheus text, open or
 * behind the admin token: see `metricsAccess`). Health routes are never rate limited.
 *
 * Degraded is not unready on purpose: a node whose news sources all fail (the machine is
 * off-line, DNS is down) still serves what it has, and a restart or a move to another machine
 * changes nothing an orchestrator could fix, so load balancers keep sending to it while the
 * body, the log and monitoring say why.
 */
export function addHealthRoutes(router: Router, deps: HealthDeps): void {
  const log = deps.log ?? silentLogger;
  const timeoutMs = deps.timeoutMs ?? 2000;

  router.get('/healthz', () => json({ status: 'ok' }, 200, NO_STORE));

  router.get('/readyz', async () => {
    const names = Object.keys(deps.checks);
    const degraded: Record<string, string> = {};
    const results = await Promise.all(names.map((n) => withTimeout(deps.checks[n]!(), timeoutMs).then(
      (r) => {
        if (r && typeof r === 'object' && typeof r.degraded === 'string') {
          degraded[n] = r.degraded;
          return 'degraded' as const;
        }
        return 'ok' as const;
      },
      (err: unknown) => {
        // a dependency that is away is logged by its adapter once per outage, not per probe
        log[isOutage(err) ? 'debug' : 'warn']({ check: n, err: describeError(err) }, 'readiness check failed');
        return 'failed' as const;
      },
    )));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
    const failed = names.filter((_, i) => results[i] === 'failed');
    if (deps.draining?.()) return json({ status: 'draining', checks }, 503, NO_STORE);
    if (failed.length > 0) return json({ status: 'unavailable', failed, checks }, 503, NO_STORE);
    if (Object.keys(degraded).length > 0) return json({ status: 'degraded', degraded, checks }, 200, NO_STORE);
    return json({ status: 'ready', checks }, 200, NO_STORE);
  });

  const access = deps.metricsAccess ?? 'open';
  if (access === 'elsewhere') return;
  const limiter = deps.metricsRateLimit ? new RateLimiter(deps.metricsRateLimit.rps, deps.metricsRateLimit.burst) : null;
  const allowed = (req: Request): void => {
    if (access === 'open') return;
    const wait = limiter?.take(req.ip) ?? 0;
    if (wait > 0) throw new HttpError(429, 'rate_limited', 'too many requests; slow down', { headers: { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))), ...NO_STORE } });
    const token = access.adminToken;
    if (!token) throw new HttpError(404, 'not_found', 'metrics are served on --metrics-listen, or here with --admin-token set', { headers: NO_STORE });
    const given = bearerToken(req);
    if (given === null || !sameSecret(given, token)) {
      throw new HttpError(401, 'unauthorized', 'metrics need the admin bearer token', { headers: { 'www-authenticate': 'Bearer realm="newsagg-metrics"', ...NO_STORE } });
    }
  };
  router.get('/metrics', async (req) => {
    allowed(req);
    return { status: 200, headers: { 'content-type': deps.metrics.contentType, ...NO_STORE }, body: await deps.metrics.text() };
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
