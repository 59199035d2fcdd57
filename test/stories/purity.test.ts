import { describe, expect, it } from 'vitest';
import { topPurity } from '../../src/actors/stories/purity.js';

describe('top-k story purity', () => {
  it.each<[string, string[], string[], number, number, number, number]>([
    // name, predicted, gold, k, mean, mixed, below 0.85
    ['pure stories', ['s1', 's1', 's2'], ['a', 'a', 'b'], 50, 1, 0, 0],
    ['one story of two events', ['s1', 's1', 's1', 's1'], ['a', 'a', 'a', 'b'], 50, 0.75, 1, 1],
    ['only the largest count', ['s1', 's1', 's1', 's2', 's2', 's3'], ['a', 'a', 'a', 'b', 'c', 'd'], 1, 1, 0, 0],
    ['the mixed story among the largest', ['s1', 's1', 's2', 's2', 's2', 's3'], ['a', 'a', 'b', 'c', 'b', 'd'], 2, (1 + 2 / 3) / 2, 1, 1],
    ['no stories', [], [], 50, 1, 0, 0],
  ])('%s', (_n, pred, gold, k, mean, mixed, below) => {
    const r = topPurity(pred, gold, k);
    expect(r.mean).toBeCloseTo(mean, 10);
    expect(r.mixed).toBe(mixed);
    expect(r.below).toBe(below);
  });

  it('names the worst story with its size, event count and first article', () => {
    const r = topPurity(['x', 'y', 'y', 'y', 'x', 'y'], ['a', 'b', 'c', 'd', 'a', 'b'], 50);
    expect(r.worst).toEqual({ story: 'y', size: 4, purity: 0.5, events: 3, first: 1 });
    expect(r.stories.map((s) => s.story)).toEqual(['y', 'x']);
  });

  it('breaks size ties by first appearance', () => {
    expect(topPurity(['b', 'a', 'a', 'b'], ['1', '2', '2', '1'], 1).stories[0]!.story).toBe('b');
  });

  it('rejects arrays of different length', () => {
    expect(() => topPurity(['1'], [])).toThrow(RangeError);
  });
});
