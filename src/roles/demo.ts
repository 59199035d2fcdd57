import { publisherRow } from '../actors/publisher/import.js';
import { addPublishers } from '../actors/store/publishers.js';
import type { Component, Node } from '../node.js';
import { startSimulator, type Simulator } from '../simulator/index.js';
import { simulatedTiers, stageBreaking } from '../simulator/staging.js';

/**
 * `newsagg start --demo`: an in-process simulator of a few hundred publishers (RSS, Atom, JSON
 * Feed, a WebSub hub, wire copies and breaking bursts) registered as the node's sources, so a
 * fresh machine shows a living front page without touching the network.
 */
export function demoComponent(opts: { publishers?: number; seed?: string } = {}): Component & { readonly url: string | null } {
  let sim: Simulator | null = null;
  let staging: { stop(): void } | null = null;
  return {
    name: 'demo',
    get url() {
      return sim?.url ?? null;
    },
    async start(node: Node) {
      sim = await startSimulator({ publishers: opts.publishers ?? 300, seed: opts.seed ?? 'demo', host: '127.0.0.1', port: 0, rateScale: 4 });
      const tier = simulatedTiers(sim.publishers);
      const rows = sim.publishers.map((p) => ({ ...publisherRow({ ...p, category: p.section }), tier: tier(p) }));
      await addPublishers(node.sql, rows);
      // a breaking story soon after start (a newcomer sees the banner fire), then now and then:
      // many outlets on one event within a minute; publishers poll first within 20 s, then subscribe
      staging = stageBreaking(sim, { firstAfterMs: 40_000, everyMs: 20 * 60_000, publishers: 50, withinMs: 60_000, seed: opts.seed ?? 'demo' });
      node.log.info({ simulator: sim.url, publishers: rows.length }, 'demo publishers ready');
    },
    async stop() {
      staging?.stop();
      await sim?.close();
    },
  };
}
