import type { Simulator } from './index.js';
import { Rng } from './prng.js';

/**
 * Staged breaking news (the demo's event scheduling): a first breaking burst soon after start,
 * then one every `everyMs`, each carried by `publishers` honest outlets with a WebSub hub (their
 * copies reach a subscribed node at once) within `withinMs`. Real-time timers; `stop()` ends it.
 */
export interface StagingOptions {
  firstAfterMs: number;
  everyMs: number;
  publishers: number;
  withinMs: number;
  seed?: string | number;
}

export function stageBreaking(sim: Simulator, o: StagingOptions): { stop(): void; readonly staged: string[] } {
  const rng = Rng.fork(o.seed ?? 'staging', 'breaking');
  const staged: string[] = [];
  const eligible = sim.publishers.filter((p) => p.kind === 'outlet' && p.behaviour === 'ok' && p.hub_url !== null).map((p) => p.id);
  const burst = () => {
    const r = sim.burst({ publishers: rng.sample(eligible, Math.min(o.publishers, eligible.length)), withinMs: o.withinMs });
    staged.push(r.event_id);
  };
  let every: NodeJS.Timeout | null = null;
  const first = setTimeout(() => {
    burst();
    every = setInterval(burst, o.everyMs);
    every.unref();
  }, o.firstAfterMs);
  first.unref();
  return {
    staged,
    stop() {
      clearTimeout(first);
      if (every) clearInterval(every);
    },
  };
}

/**
 * Source tiers for the demo's publishers: wire agencies and the busiest tenth of outlets are
 * tier 1 (the ones polled faster while news breaks), the rest tier 2.
 */
export function simulatedTiers(publishers: readonly { kind: string; items_per_hour: number }[]): (p: { kind: string; items_per_hour: number }) => 1 | 2 {
  const rates = publishers.filter((p) => p.kind === 'outlet').map((p) => p.items_per_hour).sort((a, b) => b - a);
  const busy = rates[Math.floor(rates.length / 10)] ?? Infinity;
  return (p) => (p.kind === 'wire' || p.items_per_hour > busy ? 1 : 2);
}
