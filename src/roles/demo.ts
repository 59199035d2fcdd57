import { publisherRow } from '../actors/publisher/import.js';
import { addPublishers, type NewPublisher } from '../actors/store/publishers.js';
import type { Component, Node } from '../node.js';
import { ConfigError } from '../runtime/errors.js';
import { startSimulator, type PublisherInfo, type Simulator } from '../simulator/index.js';
import { simulatedTiers, stageBreaking } from '../simulator/staging.js';

/** The demo's world: how many publishers, which seed, how fast they publish. */
export const DEMO_WORLD = { publishers: 300, seed: 'demo', rateScale: 4 } as const;

/**
 * The demo's simulator with its staged breaking news: a breaking story soon after start (a
 * newcomer sees the banner fire), then now and then: many outlets on one event within a minute
 * (publishers poll first within 20 s, then subscribe). One per node with `--demo`, or one for a
 * whole cluster (`npm run cluster -- --demo` runs it and gives every node `--demo-url`).
 */
export async function startDemoSimulator(o: { host?: string; port?: number; seed?: string } = {}): Promise<{ sim: Simulator; close(): Promise<void> }> {
  const seed = o.seed ?? DEMO_WORLD.seed;
  const sim = await startSimulator({ publishers: DEMO_WORLD.publishers, seed, host: o.host ?? '127.0.0.1', port: o.port ?? 0, rateScale: DEMO_WORLD.rateScale });
  const staging = stageBreaking(sim, { firstAfterMs: 40_000, everyMs: 20 * 60_000, publishers: 50, withinMs: 60_000, seed });
  return {
    sim,
    async close() {
      staging.stop();
      await sim.close();
    },
  };
}

/** The simulator's publishers as rows of the publishers table (wires and the busiest outlets tier 1). */
export function demoPublisherRows(publishers: readonly PublisherInfo[]): NewPublisher[] {
  const tier = simulatedTiers(publishers);
  return publishers.map((p) => ({ ...publisherRow({ ...p, category: p.section }), tier: tier(p) }));
}

/** The publisher list of a running simulator (`/_sim/publishers.json`), retried while it starts. */
async function fetchPublishers(url: string, attempts = 20): Promise<PublisherInfo[]> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      const res = await fetch(new URL('/_sim/publishers.json', url), { signal: AbortSignal.timeout(5_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = (await res.json()) as { publishers?: unknown };
      if (!Array.isArray(doc.publishers) || doc.publishers.length === 0) throw new Error('no publishers listed');
      return doc.publishers as PublisherInfo[];
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new ConfigError(`--demo-url ${url}: no publisher simulator answers there (${last instanceof Error ? last.message : String(last)}); start one with newsagg simulate`);
}

/**
 * `newsagg start --demo`: simulated publishers (RSS, Atom, JSON Feed, a WebSub hub, wire copies
 * and breaking bursts) registered as the node's sources, so a fresh machine shows a living front
 * page without touching the network. Without `url` the node runs its own simulator; with one it
 * registers the publishers of the simulator running there (a cluster shares one: every node adds
 * the same rows, which the database keeps once).
 */
export function demoComponent(opts: { url?: string } = {}): Component & { readonly url: string | null } {
  let own: { sim: Simulator; close(): Promise<void> } | null = null;
  return {
    name: 'demo',
    get url() {
      return own?.sim.url ?? opts.url ?? null;
    },
    async start(node: Node) {
      let publishers: readonly PublisherInfo[];
      if (opts.url) publishers = await fetchPublishers(opts.url);
      else {
        own = await startDemoSimulator();
        publishers = own.sim.publishers;
      }
      const rows = demoPublisherRows(publishers);
      await addPublishers(node.sql, rows);
      node.log.info({ simulator: own?.sim.url ?? opts.url, shared: !own, publishers: rows.length }, 'demo publishers ready');
    },
    async stop() {
      await own?.close();
    },
  };
}
