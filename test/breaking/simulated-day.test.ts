import { describe, expect, it } from 'vitest';
import { SpikeDetector, type Spike } from '../../src/actors/breaking/detect.js';
import { startSimulator } from '../../src/simulator/index.js';
import type { TruthItem } from '../../src/simulator/index.js';

const T0 = Date.parse('2025-03-01T00:00:00Z');
const MIN = 60_000;

/**
 * The detector with its default settings over a simulated day of the demo's world (300
 * publishers at four times their rates), with every event its own story and the event's people,
 * organisations, city and country as its keys: a normal day raises nothing (no alert, and no
 * story rising far enough to poll its publishers early), a staged burst becomes breaking within
 * minutes. (The node test runs the real pipeline; this one runs a day.)
 */
async function day(seed: string, opts: { burstAtMin?: number; publishers?: number; rateScale?: number; minutes?: number } = {}) {
  const sim = await startSimulator({ publishers: opts.publishers ?? 300, seed, now: () => T0, rateScale: opts.rateScale ?? 4, websub: false });
  try {
    const minutes: TruthItem[][] = [];
    let burstEvent: string | null = null;
    for (let m = 0; m < (opts.minutes ?? 24 * 60); m++) {
      if (m === opts.burstAtMin) burstEvent = sim.burst({ publishers: 50, withinMs: 2 * MIN }).event_id;
      minutes.push(sim.tick(MIN));
    }
    const { items, events } = sim.truth();
    const byId = new Map(events.map((e) => [e.id, e]));
    const det = new SpikeDetector();
    const observe = (it: TruthItem, now: number) => {
      const e = byId.get(it.event_id)!;
      const keys = [...e.entities.people, ...e.entities.orgs, e.city].map((x) => `e:${x.toLowerCase()}`).concat([`p:${e.country}`]);
      det.observe({ id: it.id, story: it.event_id, publisher: it.publisher_id, at: it.published_at, keys }, now);
    };
    for (const it of items) if (it.published_at <= T0) observe(it, T0);
    const spikes: (Spike & { minute: number })[] = [];
    const rising: { story: string; minute: number }[] = [];
    for (let m = 0; m < minutes.length; m++) {
      const now = T0 + (m + 1) * MIN;
      for (const it of minutes[m]!) observe(it, now);
      const r = det.evaluateAll(now);
      for (const s of r.spikes) spikes.push({ ...s, minute: m });
      for (const story of r.rising) rising.push({ story, minute: m });
      if (m % 10 === 0) det.prune(now);
    }
    return { spikes, rising, burstEvent, articles: items.length };
  } finally {
    await sim.close();
  }
}

describe('breaking detection over a simulated day', { timeout: 180_000 }, () => {
  it.each(['day-1', 'day-2'])('a normal day (seed %s) raises no alert, and accelerates no publisher early', async (seed) => {
    const { spikes, rising, articles } = await day(seed);
    expect(articles).toBeGreaterThan(40_000);
    expect(spikes).toEqual([]);
    expect(rising).toEqual([]);
  });

  it('a burst of 50 outlets on one event within two minutes is breaking within those minutes, and nothing else is', async () => {
    const { spikes, rising, burstEvent } = await day('day-3', { burstAtMin: 360, minutes: 480 });
    expect(new Set(rising.map((r) => r.story)).size).toBeLessThanOrEqual(1);
    for (const r of rising) expect(r.story).toBe(burstEvent);
    expect(spikes.length).toBeGreaterThan(0);
    expect(new Set(spikes.map((s) => s.story))).toEqual(new Set([burstEvent]));
    expect(spikes[0]!.minute).toBeGreaterThanOrEqual(360);
    expect(spikes[0]!.minute).toBeLessThanOrEqual(362);
  });
});
