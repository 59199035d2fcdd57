import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One line of a collected metric. */
export interface CollectedSample {
  /** defaults to the metric's name */
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * One Prometheus registry per node. Metric names are stable contracts
 * (`newsagg_actor_mailbox_length{kind}` ...); modules register through these helpers so a
 * second registration of the same name returns the existing metric instead of throwing.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(options: { defaults?: boolean } = {}) {
    if (options.defaults) collectDefaultMetrics({ register: this.registry, prefix: 'newsagg_' });
  }

  counter(name: string, help: string, labelNames: readonly string[] = [], collect?: (c: Counter<string>) => void): Counter<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Counter<string>;
    return new Counter({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      ...(collect ? { collect(this: Counter<string>) { collect(this); } } : {}),
    });
  }

  gauge(name: string, help: string, labelNames: readonly string[] = [], collect?: (g: Gauge<string>) => void): Gauge<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Gauge<string>;
    return new Gauge({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      ...(collect ? { collect(this: Gauge<string>) { collect(this); } } : {}),
    });
  }

  histogram(name: string, help: string, labelNames: readonly string[] = [], buckets?: number[]): Histogram<string> {
    const existing = this.registry.getSingleMetric(name);
    if (existing) return existing as Histogram<string>;
    return new Histogram({ name, help, labelNames: [...labelNames], registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }

  /**
   * The current total of a counter (or a histogram's count) over the series whose labels match
   * `where`; 0 when no such metric is registered. For summaries such as a periodic log line.
   */
  async sum(name: string, where: Readonly<Record<string, string>> = {}): Promise<number> {
    const m = this.registry.getSingleMetric(name);
    if (!m) return 0;
    const { values } = await m.get();
    let total = 0;
    for (const v of values) {
      const metricName = (v as { metricName?: string }).metricName;
      if (metricName !== undefined && metricName !== name && metricName !== `${name}_count`) continue;
      let match = true;
      for (const k in where) if (String(v.labels[k]) !== where[k]) match = false;
      if (match) total += v.value;
    }
    return total;
  }

  /**
   * A metric whose samples are produced when scraped, for hot paths that keep their own counts in
   * plain arrays instead of paying prom-client's label lookup per event. `samples` returns every
   * line: for a histogram the `_bucket` (with `le`), `_sum` and `_count` lines by `metricName`.
   */
  collected(name: string, help: string, type: 'counter' | 'gauge' | 'histogram', samples: () => CollectedSample[]): void {
    if (this.registry.getSingleMetric(name)) return;
    const metric = { name, help, type, aggregator: 'sum', get: () => ({ name, help, type, aggregator: 'sum', values: samples() }) };
    this.registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** Prometheus text exposition format. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
