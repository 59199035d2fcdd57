import { publisherRow } from '../actors/publisher/import.js';
import { addPublishers } from '../actors/store/publishers.js';
import type { Component, Node } from '../node.js';
import { startSimulator, type Simulator } from '../simulator/index.js';

/**
 * `newsagg start --demo`: an in-process simulator of a few hundred publishers (RSS, Atom, JSON
 * Feed, a WebSub hub, wire copies and breaking bursts) registered as the node's sources, so a
 * fresh machine shows a living front page without touching the network.
 */
export function demoComponent(opts: { publishers?: number; seed?: string } = {}): Component & { readonly url: string | null } {
  let sim: Simulator | null = null;
  let burst: NodeJS.Timeout | null = null;
  return {
    name: 'demo',
    get url() {
      return sim?.url ?? null;
    },
    async start(node: Node) {
      sim = await startSimulator({ publishers: opts.publishers ?? 300, seed: opts.seed ?? 'demo', host: '127.0.0.1', port: 0, rateScale: 4 });
      const rows = sim.publishers.map((p) => publisherRow({ ...p, category: p.section }));
      await addPublishers(node.sql, rows);
      // now and then a breaking story: many outlets on one event within minutes
      burst = setInterval(() => sim?.burst({ publishers: 25, withinMs: 5 * 60_000 }), 15 * 60_000);
      burst.unref();
      node.log.info({ simulator: sim.url, publishers: rows.length }, 'demo publishers ready');
    },
    async stop() {
      if (burst) clearInterval(burst);
      await sim?.close();
    },
  };
}
