import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Metrics } from './metrics.js';

/**
 * `newsagg_event_loop_delay_max_seconds`: the longest the node's event loop was held up (timers
 * late, heartbeats and lease renewals with them) since the previous scrape, and
 * `newsagg_event_loop_delay_p99_seconds` over the same span. Each scrape starts a new span.
 */
export function eventLoopDelayMetric(metrics: Metrics): { stop(): void } {
  const h = monitorEventLoopDelay({ resolution: 20 });
  h.enable();
  let p99 = 0;
  metrics.gauge('newsagg_event_loop_delay_max_seconds', 'longest event-loop delay since the previous scrape (s)', [], (g) => {
    g.set(h.count > 0 ? h.max / 1e9 : 0);
    p99 = h.count > 0 ? h.percentile(99) / 1e9 : 0;
    h.reset();
  });
  metrics.gauge('newsagg_event_loop_delay_p99_seconds', '99th percentile of the event-loop delay since the previous scrape (s)', [], (g) => g.set(p99));
  return { stop: () => h.disable() };
}
