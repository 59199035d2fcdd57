import { describe, expect, it } from 'vitest';
import { ANCHOR_BYTES, anchorMask, anchorsConflict } from '../../src/actors/dedup/anchors.js';
import { DedupIndex } from '../../src/actors/dedup/dedup-index.js';
import { fingerprint } from '../../src/actors/dedup/fingerprint.js';

function mask(text: string): Uint8Array {
  const out = new Uint8Array(ANCHOR_BYTES);
  anchorMask(text, out, 0);
  return out;
}
const conflict = (a: string, b: string): boolean => anchorsConflict(mask(a), 0, mask(b), 0);
const bits = (m: Uint8Array): number => m.reduce((n, v) => n + v.toString(2).replace(/0/g, '').length, 0);

describe('anchors', () => {
  it.each([
    ['another person and toll, same sentence', 'At least 54 people died when a quake shook Dubai, chief Desmond Everly said.', 'At least 18 people died when a quake shook Dubai, chief Gideon Everly said.', true],
    ['another city', 'A wildfire forced people from homes near Lisbon on Sunday.', 'A wildfire forced people from homes near Warsaw on Sunday.', true],
    ['a copy with a dateline added', 'Northgate Labs said hackers stole data of 594 customers.', 'TOKYO (Wire) - Northgate Labs said hackers stole data of 594 customers.', false],
    ['a copy with a synonym swapped', 'Northgate Labs said hackers stole data of 594 customers.', 'Northgate Labs says hackers stole data of 594 customers.', false],
    ['a copy cut shorter', 'Officials in Lyon said 12 schools closed. Engineer Maeve Ivers said repairs will take weeks.', 'Officials in Lyon said 12 schools closed.', false],
    ['sentence-initial words do not count', 'Strong winds fanned the fire.', 'Powerful winds fanned the fire.', false],
    ['no anchors on one side', 'the fire spread overnight', 'The fire spread overnight near Denver.', false],
  ])('%s', (_name, a, b, want) => {
    expect(conflict(a, b)).toBe(want);
  });

  it('reads names and figures, not sentence openings or decimals split by a full stop', () => {
    expect(bits(mask('The vote was held on Tuesday.'))).toBe(1); // Tuesday only
    expect(bits(mask('Rates held at 2.9 percent.'))).toBeGreaterThanOrEqual(1);
    expect(bits(mask('rates held. Rates fell.'))).toBe(0);
    expect(bits(mask(''))).toBe(0);
  });

  it('stops at the lead: names far into a long text do not count', () => {
    const lead = 'officials said the fire was contained. '.repeat(10);
    expect(bits(mask(lead + 'Minister Odette Lindqvist visited.'))).toBe(0);
  });
});

describe('near-duplicate decisions with anchors', () => {
  const T0 = Date.UTC(2024, 5, 1);
  it('keeps two events written from one template apart, and still finds a dressed-up copy', async () => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const lead = (n: string, who: string) => `At least ${n} people were killed when a strong earthquake shook Dubai, civil protection chief ${who} told reporters on Tuesday.`;
    const docs = [
      { id: 'a', fp: fingerprint('Earthquake near Dubai kills at least 54', lead('54', 'Desmond Everly')), publishedAt: T0 },
      { id: 'b', fp: fingerprint('Earthquake near Dubai kills at least 18', lead('18', 'Gideon Everly')), publishedAt: T0 + 60_000 },
      { id: 'c', fp: fingerprint('UPDATE 1-Earthquake near Dubai kills at least 54 | Daily Ledger', 'DUBAI (Reuters) - ' + lead('54', 'Desmond Everly')), publishedAt: T0 + 120_000 },
    ];
    const out = await idx.submit(docs);
    expect(out.map((d) => d.duplicateOf)).toEqual([null, null, 'a']);
  });
});
