import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { stageBreaking } from '../../src/simulator/staging.js';
import { T0 } from './helpers.js';

describe('staged breaking news (the demo)', () => {
  let sim: Simulator | null = null;
  afterEach(async () => {
    vi.useRealTimers();
    await sim?.close();
  });

  it('stages a first burst after firstAfterMs, then one every everyMs, by honest outlets with a hub, until stopped', async () => {
    sim = await startSimulator({ publishers: 120, seed: 'staging', now: () => T0, misbehaving: { error500: 5 } });
    vi.useFakeTimers();
    const staging = stageBreaking(sim, { firstAfterMs: 40_000, everyMs: 20 * 60_000, publishers: 30, withinMs: 60_000 });
    vi.advanceTimersByTime(39_999);
    expect(staging.staged).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(staging.staged).toHaveLength(1);
    sim.tick(60_000);
    const { items, events } = sim.truth();
    const event = events.find((e) => e.id === staging.staged[0]);
    expect(event?.breaking).toBe(true);
    const outlets = new Set(items.filter((i) => i.event_id === staging.staged[0] && i.role !== 'wire').map((i) => i.publisher_id));
    expect(outlets.size).toBeGreaterThanOrEqual(30);
    const byId = new Map(sim.publishers.map((p) => [p.id, p]));
    const scheduled = [...outlets].filter((id) => byId.get(id)!.hub_url !== null && byId.get(id)!.behaviour === 'ok');
    expect(scheduled.length).toBeGreaterThanOrEqual(30);
    vi.advanceTimersByTime(20 * 60_000);
    expect(staging.staged).toHaveLength(2);
    staging.stop();
    vi.advanceTimersByTime(60 * 60_000);
    expect(staging.staged).toHaveLength(2);
  });
});
