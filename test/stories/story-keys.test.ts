import { describe, expect, it } from 'vitest';
import { coreIds, countKeys, mergeIds } from '../../src/actors/stories/story-keys.js';

const ids = (...xs: number[]) => Int32Array.from(xs);

describe('story keys', () => {
  it('counts keys per story and tells how many half its articles name', () => {
    let [c, dominant] = countKeys(null, ids(5, 9), 1);
    expect(dominant).toBe(2);
    [c, dominant] = countKeys(c, ids(5), 2);
    [c, dominant] = countKeys(c, ids(7), 3);
    expect(c).toEqual([5, 2, 9, 1, 7, 1]);
    expect(dominant).toBe(1); // only 5 is named by 2 of 3
    expect(countKeys(null, ids(), 1)).toEqual([null, 0]);
  });

  it('the core is the lead\'s keys plus those half the articles name', () => {
    const [c] = countKeys(countKeys(countKeys(null, ids(1, 2), 1)[0], ids(2, 3), 2)[0], ids(2, 4), 3);
    expect([...coreIds(ids(4), c, 3)]).toEqual([2, 4]);
    expect([...coreIds(ids(1), null, 1)]).toEqual([1]);
  });

  it('merges ids sorted and stops at the cap', () => {
    expect([...mergeIds(ids(3, 9), ids(1, 9), 8)]).toEqual([1, 3, 9]);
    expect([...mergeIds(ids(1, 2), ids(3), 2)]).toEqual([1, 2]);
  });
});
