import { describe, expect, it } from 'vitest';
import { DEFAULT_DETECTOR, isRising, isSpike, keysOf, SpikeDetector, type DetectorConfig, type Observation } from '../../src/actors/breaking/detect.js';

const MIN = 60_000;
const T0 = Date.parse('2025-03-01T12:00:00Z');

/** `n` articles on one story from `publishers` distinct outlets, spread over `spreadMs` before `at`. */
function burst(story: string, n: number, publishers: number, at: number, spreadMs: number, keys: string[] = [], prefix = story): Observation[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`, story, publisher: `pub${i % publishers}`, at: at - Math.floor((spreadMs * i) / Math.max(1, n)), keys,
  }));
}

/** Steady background: one article a minute per story over the two hours before `at`. */
function background(det: SpikeDetector, stories: number, at: number, perMinute = 1): void {
  for (let m = 120; m >= 1; m--) {
    for (let s = 0; s < stories; s++) {
      for (let k = 0; k < perMinute; k++) det.observe({ id: `bg-${s}-${m}-${k}`, story: `bg${s}`, publisher: `bgp${(s + m + k) % 40}`, at: at - m * MIN, keys: [] }, at - m * MIN);
    }
  }
}

describe('isSpike', () => {
  const cfg = DEFAULT_DETECTOR;
  it.each([
    // publishers, own rate, all articles per window -> spike, baseline
    [24, 0, 0, true, 8],
    [23, 0, 0, false, 8],
    [30, 12, 0, false, 12],
    [36, 12, 0, true, 12],
    [30, 0, 1000, false, 25],
    [75, 0, 1000, true, 25],
    [7, 0, 0, false, 8],
  ])('%i publishers, own %f, all %f -> %s (baseline %f)', (publishers, own, global, spike, baseline) => {
    expect(isSpike({ publishers, own, global }, cfg)).toEqual({ spike, baseline });
  });

  it('needs minPublishers even under a low floor', () => {
    const low: DetectorConfig = { ...cfg, minBaseline: 1, baselineShare: 0, minPublishers: 8 };
    expect(isSpike({ publishers: 7, own: 0, global: 0 }, low).spike).toBe(false);
    expect(isSpike({ publishers: 8, own: 0, global: 0 }, low).spike).toBe(true);
  });
});

describe('isRising', () => {
  const cfg = DEFAULT_DETECTOR;
  it.each([
    // publishers, own rate, all articles per window -> rising (halfway to a spike by both tests, not a spike)
    [12, 0, 0, true],
    [11, 0, 0, false],
    [23, 0, 0, true],
    [24, 0, 0, false],
    [18, 12, 0, true],
    [17, 12, 0, false],
    [37, 0, 1000, false],
    [38, 0, 1000, true],
  ])('%i publishers, own %f, all %f -> %s', (publishers, own, global, rising) => {
    expect(isRising({ publishers, own, global }, cfg)).toBe(rising);
  });

  it('is off at a share of 1, and never below two publishers', () => {
    expect(isRising({ publishers: 20, own: 0, global: 0 }, { ...cfg, earlyShare: 1 })).toBe(false);
    const low: DetectorConfig = { ...cfg, minBaseline: 0.1, baselineShare: 0, minPublishers: 1 };
    expect(isRising({ publishers: 1, own: 0, global: 0 }, { ...low, minPublishers: 3 })).toBe(false);
  });

  it('a detector reports a rising story apart from the spikes, by its own key only', () => {
    const det = new SpikeDetector(DEFAULT_DETECTOR);
    for (const o of burst('rise', 13, 13, T0, MIN, ['e:someone'])) det.observe(o, T0);
    for (const o of burst('big', 30, 30, T0, MIN)) det.observe(o, T0);
    const r = det.evaluateAll(T0);
    expect(r.spikes.map((s) => s.story)).toEqual(['big']);
    expect(r.rising).toEqual(['rise']);
  });
});

describe('keysOf', () => {
  it.each([
    [[{ name: 'Vancouver', type: 'place' }, { name: 'Explainer', type: 'other' }], ['CA'], ['e:vancouver', 'p:CA']],
    [[{ name: 'Ana Lima', type: 'person' }, { name: 'Acme Corp', type: 'org' }, { name: 'ana lima', type: 'person' }], [], ['e:ana lima', 'e:acme corp']],
    [[], ['US', 'GB', 'FR'], ['p:US', 'p:GB']],
    [[{ name: 'A', type: 'person' }, { name: 'B', type: 'person' }, { name: 'C', type: 'org' }, { name: 'D', type: 'org' }, { name: 'E', type: 'org' }], ['US'], ['e:a', 'e:b', 'e:c', 'e:d', 'p:US']],
  ])('%j %j -> %j', (entities, places, want) => {
    expect(keysOf(entities, places)).toEqual(want);
  });
});

describe('SpikeDetector', () => {
  it('marks a story carried by many publishers within minutes, once per evaluation', () => {
    const det = new SpikeDetector();
    background(det, 20, T0);
    for (const o of burst('quake', 30, 30, T0, 4 * MIN)) det.observe(o, T0);
    const spikes = det.evaluate(T0);
    expect(spikes).toHaveLength(1);
    expect(spikes[0]).toMatchObject({ story: 'quake', key: 's:quake', articles: 30, publishers: 30, baseline: 8 });
    // nothing new since: nothing to evaluate
    expect(det.evaluate(T0 + 1000)).toEqual([]);
  });

  it('counts publishers, not articles: one outlet repeating itself is no spike', () => {
    const det = new SpikeDetector();
    for (const o of burst('loud', 40, 3, T0, 4 * MIN)) det.observe(o, T0);
    expect(det.evaluate(T0)).toEqual([]);
    expect(det.stats('s:loud', T0)).toMatchObject({ articles: 40, publishers: 3 });
  });

  it('counts an article once, and ignores articles older than window plus baseline', () => {
    const det = new SpikeDetector();
    const o: Observation = { id: 'a1', story: 's', publisher: 'p', at: T0 - MIN, keys: [] };
    expect(det.observe(o, T0)).toBe(true);
    expect(det.observe(o, T0)).toBe(false);
    expect(det.observe({ ...o, id: 'old', at: T0 - 71 * MIN }, T0)).toBe(false);
    expect(det.observe({ ...o, id: 'future', at: T0 + 3_600_000 }, T0)).toBe(true);
    expect(det.stats('s:s', T0).articles).toBe(2);
  });

  it('compares a key with its own rolling baseline: steady coverage must triple', () => {
    const det = new SpikeDetector();
    // a place covered by 20 publishers per 10 minutes over the past hour
    for (let m = 69; m >= 10; m--) {
      for (let k = 0; k < 2; k++) det.observe({ id: `us-${m}-${k}`, story: `old${m % 7}`, publisher: `o${(m * 2 + k) % 50}`, at: T0 - m * MIN, keys: ['p:US'] }, T0 - m * MIN);
    }
    for (const o of burst('usnews', 40, 40, T0, 8 * MIN, ['p:US'])) det.observe(o, T0);
    expect(det.stats('p:US', T0).own).toBeCloseTo(20, 5);
    // 40 publishers on the new story: a spike of the story (no own rate) but not of the place (40 < 3 x 20)
    expect(det.evaluate(T0).map((s) => s.key)).toEqual(['s:usnews']);
    for (const o of burst('usnews2', 25, 25, T0, 8 * MIN, ['p:US'], 'more')) det.observe({ ...o, publisher: `x${o.publisher}` }, T0);
    // the place has 65 publishers now (more than 3 x 20): it spikes, for the story carrying most of its articles
    const place = det.stats('p:US', T0);
    expect(place).toMatchObject({ publishers: 65, story: 'usnews' });
    expect(isSpike(place, DEFAULT_DETECTOR).spike).toBe(true);
  });

  it('marks through an entity the story most of its articles belong to, when the event is split across stories', () => {
    const det = new SpikeDetector();
    // one event the clusterer split into three stories of 10 publishers each: no story spikes, the city does
    for (const [i, story] of ['q1', 'q2', 'q3'].entries()) {
      const n = 10 + i;
      for (const o of burst(story, n, n, T0, 5 * MIN, ['e:lisbon'], `${story}x`)) det.observe({ ...o, publisher: `${story}-${o.publisher}` }, T0);
    }
    const spikes = det.evaluate(T0);
    expect(spikes).toEqual([{ story: 'q3', key: 'e:lisbon', articles: 33, publishers: 33, baseline: 8 }]);
  });

  it('raises the floor with the flow: a busy node needs more publishers', () => {
    const det = new SpikeDetector();
    background(det, 150, T0); // 150 articles a minute: 1,500 per window, floor 37.5
    for (const o of burst('mid', 60, 60, T0, 5 * MIN)) det.observe(o, T0);
    expect(det.evaluate(T0)).toEqual([]);
    for (const o of burst('mid', 60, 60, T0, 5 * MIN, [], 'more')) det.observe({ ...o, publisher: `x${o.publisher}` }, T0);
    expect(det.evaluate(T0).map((s) => s.story)).toEqual(['mid']);
  });

  it('forgets keys and articles past the horizon', () => {
    const det = new SpikeDetector();
    for (const o of burst('gone', 30, 30, T0, MIN)) det.observe(o, T0);
    expect(det.size).toBe(30);
    det.prune(T0 + 72 * MIN);
    expect(det.size).toBe(0);
    expect(det.keyCount).toBe(0);
  });

  it('keeps at most maxArticles articles', () => {
    const det = new SpikeDetector({ ...DEFAULT_DETECTOR, maxArticles: 100 });
    for (const o of burst('many', 250, 50, T0, 5 * MIN)) det.observe(o, T0);
    expect(det.size).toBe(100);
  });
});
