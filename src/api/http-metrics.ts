import type { CollectedSample, Metrics } from '../runtime/metrics.js';

/** Upper bounds of the request-duration buckets, seconds. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** the route label of a request no route matched (404, 405) */
export const UNMATCHED = '(unmatched)';
/** the status label of a request whose client went away before the reply */
export const ABORTED = 0;

interface RouteStats {
  /** requests by status code (index = status; 0 = aborted) */
  byStatus: Float64Array;
  /** cumulative counts are built at scrape time; here each request counts in one bucket (last = +Inf) */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * `newsagg_http_requests_total{route,status}` and `newsagg_http_request_duration_seconds{route}`
 * (histogram), by route pattern (`/v1/stories/:id`), never by raw path, so label sets stay
 * bounded. Every request passes here, so recording is two array increments and a short bucket
 * scan; prom-client only sees the numbers when `/metrics` is scraped.
 */
export class HttpMetrics {
  private readonly ids = new Map<string, number>();
  private readonly routes: string[] = [];
  private readonly stats: RouteStats[] = [];

  constructor(metrics: Metrics) {
    metrics.collected('newsagg_http_requests_total', 'HTTP requests answered, by route pattern and status (0 = client went away)', 'counter', () => this.requestSamples());
    metrics.collected('newsagg_http_request_duration_seconds', 'HTTP request duration from arrival to reply written, by route pattern', 'histogram', () => this.durationSamples());
  }

  /** A small integer for a route pattern, stable for the process (taken once per request). */
  routeId(pattern: string): number {
    let id = this.ids.get(pattern);
    if (id === undefined) {
      id = this.routes.length;
      this.ids.set(pattern, id);
      this.routes.push(pattern);
      this.stats.push({ byStatus: new Float64Array(600), buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 });
    }
    return id;
  }

  observe(route: number, status: number, seconds: number): void {
    const s = this.stats[route]!;
    s.byStatus[status >= 0 && status < 600 ? status : ABORTED]!++;
    let b = 0;
    while (b < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[b]!) b++;
    s.buckets[b]!++;
    s.sum += seconds;
    s.count++;
  }

  private requestSamples(): CollectedSample[] {
    const out: CollectedSample[] = [];
    this.stats.forEach((s, i) => {
      for (let status = 0; status < s.byStatus.length; status++) {
        const n = s.byStatus[status]!;
        if (n > 0) out.push({ labels: { route: this.routes[i]!, status: status === ABORTED ? 'aborted' : String(status) }, value: n });
      }
    });
    return out;
  }

  private durationSamples(): CollectedSample[] {
    const out: CollectedSample[] = [];
    const name = 'newsagg_http_request_duration_seconds';
    this.stats.forEach((s, i) => {
      const route = this.routes[i]!;
      let cumulative = 0;
      for (let b = 0; b < DURATION_BUCKETS.length; b++) {
        cumulative += s.buckets[b]!;
        out.push({ metricName: `${name}_bucket`, labels: { route, le: DURATION_BUCKETS[b]! }, value: cumulative });
      }
      out.push({ metricName: `${name}_bucket`, labels: { route, le: '+Inf' }, value: s.count });
      out.push({ metricName: `${name}_sum`, labels: { route }, value: s.sum });
      out.push({ metricName: `${name}_count`, labels: { route }, value: s.count });
    });
    return out;
  }
}
