import { describe, expect, it } from 'vitest';
import { affectedRegions, applySpikes, coolDown, type ActiveBreaking } from '../../src/actors/breaking/breaking-set.js';
import type { Spike } from '../../src/actors/breaking/detect.js';

const MIN = 60_000;
const T0 = Date.parse('2025-03-01T12:00:00Z');
const spike = (story: string, publishers = 30): Spike => ({ story, key: `s:${story}`, articles: publishers, publishers, baseline: 8 });
const regions = (id: string) => (id === 'a' ? ['eu', 'uk'] : []);

describe('the breaking set', () => {
  it('starts a story at its first spike and refreshes it at the next', () => {
    const active = new Map<string, ActiveBreaking>();
    const first = applySpikes(active, [spike('a'), spike('b')], T0, regions);
    expect(first.started.map((b) => [b.story, b.since, b.regions])).toEqual([['a', T0, ['eu', 'uk']], ['b', T0, []]]);
    expect(first.refreshed).toEqual([]);
    const again = applySpikes(active, [spike('a', 50)], T0 + 30 * MIN, regions);
    expect(again.started).toEqual([]);
    expect(again.refreshed).toHaveLength(1);
    expect(active.get('a')).toMatchObject({ since: T0, lastSpikeAt: T0 + 30 * MIN, spike: { publishers: 50 } });
  });

  it.each([
    // minutes since the last spike -> still breaking
    [119, true],
    [120, false],
    [300, false],
  ])('cools down %i min after the last spike: breaking %s', (minutes, stays) => {
    const active = new Map<string, ActiveBreaking>();
    applySpikes(active, [spike('a')], T0, regions);
    applySpikes(active, [spike('a')], T0 + 60 * MIN, regions);
    const ended = coolDown(active, T0 + 60 * MIN + minutes * MIN, 120 * MIN);
    expect(active.has('a')).toBe(stays);
    expect(ended.map((b) => b.story)).toEqual(stays ? [] : ['a']);
  });
});

describe('affectedRegions', () => {
  const regionOf = (p: string) => ({ AU: 'apac', JP: 'apac', FR: 'eu', GB: 'uk' })[p] ?? 'global';
  it.each([
    // place counts, articles, carried in -> regions to accelerate
    [{ AU: 20 }, 24, ['us', 'uk', 'apac'], ['apac']],
    [{ AU: 10, FR: 8, GB: 2 }, 24, ['us'], ['apac', 'eu']],
    [{ GB: 2 }, 24, ['us', 'eu'], ['eu', 'us']],
    [{ Europe: 20 }, 24, ['eu'], ['eu']],
    [{}, 0, ['mea'], ['mea']],
  ])('%j of %i articles, carried in %j -> %j', (counts, articles, carried, want) => {
    expect(affectedRegions(new Map(Object.entries(counts)), articles, regionOf, carried)).toEqual(want);
  });
});
