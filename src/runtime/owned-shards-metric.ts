import type { Metrics } from './metrics.js';

/**
 * `newsagg_owned_shards{kind}`: how many shards of each kind this node owns. Registered once at
 * start with every kind at 0, so the series exist before ownership runs (embedded mode, or a
 * node without the roles that own shards); `track` points it at the ownership that counts.
 */
export class OwnedShardsGauge {
  private source: ((kind: string) => number) | null = null;

  constructor(metrics: Metrics, readonly kinds: readonly string[]) {
    metrics.gauge('newsagg_owned_shards', 'shards this node owns (holds the lease of), by kind', ['kind'], (g) => {
      for (const kind of this.kinds) g.set({ kind }, this.source?.(kind) ?? 0);
    });
  }

  /** count from here on, e.g. `gauge.track((k) => ownership.count(k))` */
  track(source: ((kind: string) => number) | null): void {
    this.source = source;
  }
}
