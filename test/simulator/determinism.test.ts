import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { T0 } from './helpers.js';

/** Everything a seed should fix, with the (port-dependent) base URL taken out. */
function fingerprint(sim: Simulator): string {
  const ids = sim.publishers.map((p) => p.id);
  const feeds = ids.slice(0, 15).map((id) => sim.feedBody(id));
  const text = JSON.stringify({ publishers: sim.publishers, truth: sim.truth(), feeds }).replaceAll(sim.url, 'BASE');
  // a digest keeps a failure readable; the inputs are large
  return `${text.length}:${createHash('sha256').update(text).digest('hex')}`;
}

async function run(seed: string | number, steps: number[]): Promise<string> {
  const sim = await startSimulator({ publishers: 40, seed, now: () => T0, misbehaving: { error500: 2, slow: 0.05 } });
  try {
    for (const ms of steps) sim.tick(ms);
    sim.burst({ publishers: 6, withinMs: 10 * 60_000 });
    sim.tick(10 * 60_000);
    sim.publish(3);
    return fingerprint(sim);
  } finally {
    await sim.close();
  }
}

describe('determinism', () => {
  it('the same seed and calls give the same publishers, items, truth and feed bodies', async () => {
    const a = await run('seed-a', [3_600_000, 1_800_000]);
    const b = await run('seed-a', [3_600_000, 1_800_000]);
    expect(a).toBe(b);
  });

  it('splitting a tick does not change the world', async () => {
    expect(await run(42, [5_400_000])).toBe(await run(42, [1_000_000, 4_400_000]));
  });

  it('another seed gives another world', async () => {
    expect(await run('seed-a', [60_000])).not.toBe(await run('seed-b', [60_000]));
  });
});
