import type { Spike } from './detect.js';

/**
 * The set of stories breaking now, as pure transitions over an injected time: a spike starts a
 * story breaking or refreshes it; a story cools down `cooldownMs` after its last spike.
 */

export interface ActiveBreaking {
  story: string;
  since: number;
  lastSpikeAt: number;
  /** editions the story is carried in */
  regions: string[];
  /** the strongest spike seen last */
  spike: Spike;
}

export interface SpikeOutcome {
  /** stories that just became breaking */
  started: ActiveBreaking[];
  /** breaking stories with a new spike (their cool-down starts again) */
  refreshed: ActiveBreaking[];
}

/** Applies one evaluation's spikes to the active set (mutated) at `now`. */
export function applySpikes(active: Map<string, ActiveBreaking>, spikes: readonly Spike[], now: number, regionsOf: (story: string) => readonly string[]): SpikeOutcome {
  const out: SpikeOutcome = { started: [], refreshed: [] };
  for (const spike of spikes) {
    const prev = active.get(spike.story);
    if (prev) {
      prev.lastSpikeAt = now;
      prev.spike = spike;
      const regions = regionsOf(spike.story);
      if (regions.length > 0) prev.regions = [...regions];
      out.refreshed.push(prev);
      continue;
    }
    const entry: ActiveBreaking = { story: spike.story, since: now, lastSpikeAt: now, regions: [...regionsOf(spike.story)], spike };
    active.set(spike.story, entry);
    out.started.push(entry);
  }
  return out;
}

/** Removes and returns the stories whose last spike is `cooldownMs` or more before `now`. */
export function coolDown(active: Map<string, ActiveBreaking>, now: number, cooldownMs: number): ActiveBreaking[] {
  const ended: ActiveBreaking[] = [];
  for (const [id, b] of active) {
    if (now - b.lastSpikeAt < cooldownMs) continue;
    active.delete(id);
    ended.push(b);
  }
  return ended;
}

/**
 * The editions whose publishers are polled faster: where the story happens (the regions of
 * the places at least a quarter of its articles name), else the editions that carry it.
 */
export function affectedRegions(placeCounts: ReadonlyMap<string, number>, articles: number, regionOfPlace: (place: string) => string, carriedIn: readonly string[]): string[] {
  const out = new Set<string>();
  for (const [place, n] of placeCounts) {
    if (n * 4 < articles) continue;
    const r = regionOfPlace(place);
    if (r !== 'global') out.add(r);
  }
  return out.size > 0 ? [...out].sort() : [...carriedIn].sort();
}
