import { describe, expect, it } from 'vitest';
import { ANCHOR_BYTES, anchorMask, anchorsConflict, headlineAnchorText } from '../../src/actors/dedup/anchors.js';
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

  // headline-only items (a news sitemap's entries): template headlines that differ only by the
  // place or the name are two events; the same headline dressed up by syndication is a copy
  it.each([
    ['another country', 'Housing bill clears vote after all-night session in Brazil', 'Housing bill clears vote after all-night session in Japan', false],
    ['another person', "Lawmakers pass Thorellano's housing bill", "Lawmakers pass Raston's housing bill", false],
    ['another toll', 'Quake near Lima kills 27', 'Quake near Lima kills 45', false],
    ['a decorated copy', 'Housing bill clears vote after all-night session in Brazil', 'UPDATE 2-Housing bill clears vote after all-night session in Brazil | The Lagos Ledger', true],
    ['a copy with a kicker', "Lawmakers pass Thorellano's housing bill", "Analysis: Lawmakers pass Thorellano's housing bill - The Paris Examiner", true],
    ['a copy in title case', 'Housing bill clears vote after all-night session in Brazil', 'Housing Bill Clears Vote After All-Night Session in Brazil', true],
    ['a copy in capitals', "Lawmakers pass Thorellano's housing bill", "LAWMAKERS PASS THORELLANO'S HOUSING BILL", true],
  ])('headlines only, %s', async (_name, a, b, copy) => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const out = await idx.submit([
      { id: 'a', fp: fingerprint(a, null), publishedAt: T0 },
      { id: 'b', fp: fingerprint(b, null), publishedAt: T0 + 60_000 },
    ]);
    expect(out[1]!.duplicateOf).toBe(copy ? 'a' : null);
  });

  it('reads a headline for anchors only in sentence case', () => {
    expect(headlineAnchorText('Housing bill clears vote in Brazil')).toBe('Housing bill clears vote in Brazil');
    expect(headlineAnchorText('Housing Bill Clears Vote in Brazil')).toBe('');
    expect(headlineAnchorText('HOUSING BILL CLEARS VOTE IN BRAZIL')).toBe('');
  });

  it('a copy of a story in capitals keeps its body anchors only (capitals would make every word one)', async () => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const lead = 'Ecuador is due to resume limited crude oil output on May 8 when a new 43 km pipeline to neighbouring Colombia is finished, a spokesman said.';
    const out = await idx.submit([
      { id: 'a', fp: fingerprint('ECUADOR CRUDE OIL OUTPUT TO RESUME NEXT MONTH', lead), publishedAt: T0 },
      { id: 'b', fp: fingerprint('Ecuador crude oil output to resume next month', lead + ' Output was halted on March 5 by an earthquake.'), publishedAt: T0 + 60_000 },
    ]);
    expect(out[1]!.duplicateOf).toBe('a');
  });
});
