import { describe, expect, it } from 'vitest';
import { StoryThrottle } from '../../src/api/live/story-throttle.js';

function setup(maxHeld = 100, perSecond?: number) {
  let t = 0;
  const th = new StoryThrottle({ intervalMs: 1000, maxHeld, now: () => t, ...(perSecond !== undefined ? { perSecond } : {}) });
  const offer = (id: string, v: number) => th.offer(id, [`story:${id}`], `${id}@${v}`);
  const take = () => th.take().map((f) => f.frame);
  return { th, offer, take, at: (ms: number) => (t = ms) };
}

describe('StoryThrottle', () => {
  // [what, steps: [time, offers, expected frames taken at that time]]
  it.each([
    ['a first update goes out at once, the latest of those offered together', [[0, [['a', 1], ['a', 2]], ['a@2']]]],
    ['an update within the interval waits for it to pass, the latest winning', [[0, [['a', 1]], ['a@1']], [300, [['a', 2], ['a', 3]], []], [999, [], []], [1000, [], ['a@3']]]],
    ['a story quiet for an interval goes out at once again', [[0, [['a', 1]], ['a@1']], [1000, [['a', 2]], ['a@2']], [2500, [['a', 3]], ['a@3']]]],
    ['each story has its own turn', [[0, [['a', 1]], ['a@1']], [500, [['a', 2], ['b', 1]], ['b@1']], [1000, [['b', 2]], ['a@2']], [1500, [], ['b@2']]]],
  ] as [string, [number, [string, number][], string[]][]][])('%s', (_what, steps) => {
    const s = setup();
    for (const [t, offers, expected] of steps) {
      s.at(t);
      for (const [id, v] of offers) s.offer(id, v);
      expect(s.take(), `at ${t}`).toEqual(expected);
    }
  });

  it('says when the next frame is due, and forgets a dropped one', () => {
    const s = setup();
    expect(s.th.nextDue()).toBeNull();
    s.offer('a', 1);
    s.take();
    s.at(200);
    s.offer('a', 2);
    s.offer('b', 1);
    expect(s.th.nextDue()).toBe(200);
    expect(s.take()).toEqual(['b@1']);
    expect(s.th.nextDue()).toBe(1000);
    s.th.drop('a');
    expect(s.th.nextDue()).toBeNull();
    s.at(5000);
    expect(s.take()).toEqual([]);
  });

  it('holds at most maxHeld stories: past it the longest waiting go out early', () => {
    const s = setup(2);
    for (const id of ['a', 'b', 'c', 'd']) s.offer(id, 1);
    expect(s.take()).toEqual(['a@1', 'b@1', 'c@1', 'd@1']);
    s.at(100);
    for (const id of ['a', 'b', 'c', 'd']) s.offer(id, 2);
    expect(s.th.size).toBe(4);
    expect(s.take()).toEqual(['a@2', 'b@2']); // all due at 1000: two over the bound go out now
    expect(s.th.size).toBe(2);
  });

  it('paces a flood of stories in order, each newer state replacing the one waiting, so the flood shrinks while it waits', () => {
    const s = setup(100, 2);
    for (const id of ['a', 'b', 'c', 'd', 'e']) s.offer(id, 1);
    expect(s.take()).toEqual(['a@1', 'b@1']); // the burst: two
    expect(s.th.nextDue()).toBe(500);
    s.at(500);
    s.offer('d', 2);
    s.offer('e', 2);
    expect(s.take()).toEqual(['c@1']);
    s.at(1000);
    s.offer('a', 2); // sent at 0: due at 1000, behind those waiting since 0
    expect(s.take()).toEqual(['d@2']);
    s.at(1500);
    expect(s.take()).toEqual(['e@2']);
    s.at(2000);
    expect(s.take()).toEqual(['a@2']);
    expect(s.th.nextDue()).toBeNull();
  });

  it('paces nothing in steady traffic: a story now and then goes out at once', () => {
    const s = setup(100, 100);
    for (let t = 0; t < 10_000; t += 50) {
      s.at(t);
      s.offer(`s${t}`, 1);
      expect(s.take()).toEqual([`s${t}@1`]);
    }
  });
});
