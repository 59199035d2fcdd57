import type { ActorCell } from './cell.js';
import type { Metrics } from './metrics.js';

/**
 * Per-kind counters kept as plain numbers on the hot path and exported to Prometheus only when
 * scraped, so counting costs an increment, not a label lookup, per message.
 */
export class KindStats {
  processed = 0;
  failures = 0;
  restarts = 0;
  deadLetters = 0;
  dropped = 0;
  spawned = 0;
  stopped = 0;

  static register(metrics: Metrics, stats: Map<string, KindStats>, cells: () => Iterable<ActorCell>): void {
    const counters: [keyof KindStats, string, string][] = [
      ['processed', 'newsagg_actor_messages_processed_total', 'Messages handled successfully'],
      ['failures', 'newsagg_actor_failures_total', 'Messages or inits that threw'],
      ['restarts', 'newsagg_actor_restarts_total', 'Actor restarts by supervision'],
      ['deadLetters', 'newsagg_actor_dead_letters_total', 'Messages given up and sent to the dead-letter log'],
      ['dropped', 'newsagg_actor_dropped_total', 'Messages dropped or coalesced by a bounded mailbox'],
    ];
    for (const [field, name, help] of counters) {
      metrics.counter(name, help, ['kind'], (c) => {
        c.reset();
        for (const [kind, s] of stats) c.inc({ kind }, s[field] as number);
      });
    }
    metrics.gauge('newsagg_actor_mailbox_length', 'Queued messages per actor kind', ['kind'], (g) => {
      g.reset();
      const sums = new Map<string, number>();
      for (const c of cells()) sums.set(c.kind, (sums.get(c.kind) ?? 0) + c.mailbox.length);
      for (const kind of stats.keys()) g.set({ kind }, sums.get(kind) ?? 0);
    });
    metrics.gauge('newsagg_actors', 'Live actors per kind', ['kind'], (g) => {
      g.reset();
      for (const [kind, s] of stats) g.set({ kind }, s.spawned - s.stopped);
    });
  }
}
