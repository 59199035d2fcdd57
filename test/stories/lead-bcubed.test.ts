import { describe, expect, it } from 'vitest';
import { bcubed } from '../../src/actors/stories/bcubed.js';
import { betterLead, leadScore, type LeadCandidate } from '../../src/actors/stories/lead.js';

const H = 3_600_000;
const base: LeadCandidate = { articleId: 'a', publisher: 'p', time: 0, depth: 300, duplicate: false, overlap: 0 };

describe('lead score', () => {
  it.each<[string, Partial<LeadCandidate>, Partial<LeadCandidate>]>([
    ['more authority', { publisher: 'wire' }, { publisher: 'blog' }],
    ['fresher', { time: 10 * H }, { time: 0 }],
    ['deeper', { depth: 600 }, { depth: 0 }],
    ['original over duplicate', { duplicate: false }, { duplicate: true }],
    ['unique headline over a copy', { overlap: 0 }, { overlap: 1 }],
  ])('prefers %s', (_n, better, worse) => {
    const authority = (p: string) => ({ wire: 1, blog: 0.2 })[p];
    const ref = 10 * H;
    expect(leadScore({ ...base, ...better }, ref, { authority })).toBeGreaterThan(leadScore({ ...base, ...worse }, ref, { authority }));
  });

  it('keeps the current lead on a near tie', () => {
    expect(betterLead({ ...base, articleId: 'b' }, base, 0)).toBe(false);
  });

  it('lets a much fresher report of equal standing take over', () => {
    expect(betterLead({ ...base, articleId: 'b', time: 24 * H }, base, 24 * H)).toBe(true);
  });
});

describe('B-cubed', () => {
  it.each([
    [['1', '1', '2', '2'], ['a', 'a', 'b', 'b'], 1, 1],
    [['1', '1', '1', '1'], ['a', 'a', 'b', 'b'], 0.5, 1],
    [['1', '2', '3', '4'], ['a', 'a', 'b', 'b'], 1, 0.5],
    [['1', '1', '2'], ['a', 'a', 'a'], 1, 5 / 9],
  ])('%j vs %j', (pred, gold, p, r) => {
    const b = bcubed(pred, gold);
    expect(b.precision).toBeCloseTo(p, 10);
    expect(b.recall).toBeCloseTo(r, 10);
    expect(b.f1).toBeCloseTo((2 * p * r) / (p + r), 10);
  });

  it('rejects arrays of different length', () => {
    expect(() => bcubed(['1'], [])).toThrow(RangeError);
  });
});
