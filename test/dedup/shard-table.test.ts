import { describe, expect, it } from 'vitest';
import { ShardTable, type MatchOut, type TableItem } from '../../src/actors/dedup/shard-table.js';
import { DEFAULT_VERIFY_POLICY, VERIFY_SHORT, VERIFY_TEXT, verifyCandidate } from '../../src/actors/dedup/verify.js';

const H = 3600_000;
const T0 = Date.UTC(2024, 5, 1);
const policy = DEFAULT_VERIFY_POLICY;

function sketch(seed: number): Uint8Array {
  return Uint8Array.from({ length: 24 }, (_, i) => (seed * 31 + i * 7) & 0xff);
}

function lookup(t: ShardTable, it: TableItem): MatchOut {
  const out: MatchOut = { candidate: -1, distance: -1 };
  t.lookupInsert(it, policy, out);
  return { ...out };
}

describe('ShardTable', () => {
  it('finds an earlier entry sharing its block within the radius, then holds the new one too', () => {
    const t = new ShardTable({ blockIndex: 0, partitions: 1, windowMs: 72 * H });
    expect(lookup(t, { handle: 1, hi: 0xabcd0000, lo: 0, publishedAt: T0 })).toEqual({ candidate: -1, distance: -1 });
    // same block 0 (0xabcd), 3 bits apart elsewhere
    expect(lookup(t, { handle: 2, hi: 0xabcd0007, lo: 0, publishedAt: T0 + H })).toEqual({ candidate: 1, distance: 3 });
    // 4 bits apart without sketches: beyond the bare radius
    expect(lookup(t, { handle: 3, hi: 0xabcd0000, lo: 0xf0000000, publishedAt: T0 + H }).candidate).toBe(-1);
    // a different block value is never a candidate in this table
    expect(lookup(t, { handle: 4, hi: 0xabce0000, lo: 0, publishedAt: T0 }).candidate).toBe(-1);
    expect(t.size).toBe(4);
  });

  it('prefers the closest candidate, then the earliest', () => {
    const t = new ShardTable({ blockIndex: 3, partitions: 1, windowMs: 72 * H });
    t.add({ handle: 10, hi: 0b111, lo: 0x1234, publishedAt: T0 + 2 * H });
    t.add({ handle: 11, hi: 0b1, lo: 0x1234, publishedAt: T0 + 3 * H });
    t.add({ handle: 12, hi: 0b1, lo: 0x1234, publishedAt: T0 + H });
    expect(lookup(t, { handle: 13, hi: 0, lo: 0x1234, publishedAt: T0 + 4 * H })).toEqual({ candidate: 12, distance: 1 });
  });

  it('widens the radius when sketches agree and refuses close hashes whose texts differ', () => {
    const t = new ShardTable({ blockIndex: 0, partitions: 1, windowMs: 72 * H });
    t.add({ handle: 1, hi: 0x11110000, lo: 0, publishedAt: T0, sketch: sketch(1), hasText: true });
    // 10 bits apart, same sketch: a copy
    expect(lookup(t, { handle: 2, hi: 0x111103ff, lo: 0, publishedAt: T0, sketch: sketch(1), hasText: true }).candidate).toBe(1);
    const t2 = new ShardTable({ blockIndex: 0, partitions: 1, windowMs: 72 * H });
    t2.add({ handle: 1, hi: 0x11110000, lo: 0, publishedAt: T0, sketch: sketch(1), hasText: true });
    // 1 bit apart but a different text (a formulaic look-alike): not a copy
    expect(lookup(t2, { handle: 2, hi: 0x11110001, lo: 0, publishedAt: T0, sketch: sketch(2), hasText: true }).candidate).toBe(-1);
  });

  it('expires entries exactly at the window edge (minute resolution)', () => {
    const win = 72 * H;
    const t = new ShardTable({ blockIndex: 0, partitions: 1, windowMs: win });
    t.add({ handle: 1, hi: 0x22220000, lo: 0, publishedAt: T0 });
    // a lookup at the edge still sees it; one minute later it does not
    expect(lookup(t, { handle: 2, hi: 0x22220000, lo: 0, publishedAt: T0 + win }).candidate).toBe(1);
    expect(lookup(t, { handle: 3, hi: 0x22220000, lo: 1 << 20, publishedAt: T0 + win + 60_000 }).candidate).toBe(2);
    expect(t.expire(T0 + win)).toBe(0);
    expect(t.expire(T0 + win + 60_000)).toBe(1);
    expect(t.size).toBe(2);
    expect(t.expire(T0 + 10 * win)).toBe(2);
    expect(t.size).toBe(0);
    expect(lookup(t, { handle: 4, hi: 0x22220000, lo: 0, publishedAt: T0 + 10 * win }).candidate).toBe(-1);
  });

  it('keeps every entry findable across merges of the delta into the sorted base', () => {
    const t = new ShardTable({ blockIndex: 1, partitions: 4, windowMs: 72 * H });
    const n = 60_000; // several merges (the first at 8,192 entries)
    const his = new Uint32Array(n);
    const los = new Uint32Array(n);
    let x = 12345;
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      // block 1 = low 16 bits of hi; keep it in partition 2 of 4
      his[i] = ((x & 0xfffc0000) | (((x >>> 2) & 0x3fff) * 4 + 2)) >>> 0;
      los[i] = (x ^ 0x5555) >>> 0;
      t.add({ handle: i, hi: his[i]!, lo: los[i]!, publishedAt: T0 + i });
    }
    expect(t.size).toBe(n);
    for (const i of [0, 1, 8191, 8192, 30_000, n - 1]) {
      const got = lookup(t, { handle: n + i, hi: his[i]!, lo: los[i]!, publishedAt: T0 });
      expect(got).toEqual({ candidate: i, distance: 0 });
    }
    expect(t.bytes / t.size).toBeLessThan(60);
  });
});

describe('verifyCandidate', () => {
  const s = sketch(5);
  // a sketch agreeing in 12 of 16 bins (~0.75 similar) and one agreeing in 8 (~0.5)
  // (the anchor bytes after the 16 bins stay equal: no anchor conflict)
  const s75 = Uint8Array.from(s, (v, i) => (i < 12 || i >= 16 ? v : v ^ 0xff));
  const s50 = Uint8Array.from(s, (v, i) => (i < 8 || i >= 16 ? v : v ^ 0xff));
  // identical bins, anchors where each side has a bit the other lacks / one side a superset
  const swapped = Uint8Array.from(s, (v, i) => (i === 16 ? 0b01 : i === 17 ? 0 : v));
  const other = Uint8Array.from(s, (v, i) => (i === 16 ? 0b10 : i === 17 ? 0 : v));
  const superset = Uint8Array.from(s, (v, i) => (i === 16 ? 0b11 : i === 17 ? 0 : v));
  const none = Uint8Array.from(s, (v, i) => (i >= 16 ? 0 : v));
  const T = VERIFY_TEXT;
  const S = VERIFY_SHORT;
  it.each([
    ['bare, within 3', 3, null, T, null, T, true],
    ['bare, 4 apart', 4, null, T, null, T, false],
    ['sketches agree, far but within max', policy.maxDistance, s, T, s, T, true],
    ['sketches agree, beyond max', policy.maxDistance + 1, s, T, s, T, false],
    ['sketches differ, identical hash', 0, s, T, sketch(9), T, false],
    ['three quarters similar texts', 8, s, T, s75, T, true],
    ['half similar texts, far hashes', 8, s, T, s50, T, false],
    ['half similar texts, close hashes: the lowered bar lets them through', 4, s, T, s50, 0, true],
    ['three quarters similar but one side a bare headline', 2, s, S, s75, T, false],
    ['identical bare headlines', 0, s, S, s, S, true],
    ['same text, each side names an anchor the other lacks (another person, toll or place)', 0, swapped, T, other, T, false],
    ['same text, one side adds anchors (a dateline kept, a byline)', 0, swapped, T, superset, T, true],
    ['same text, one side without anchors', 0, none, T, other, T, true],
    ['a sketch stored before anchors existed (16 bytes) never conflicts', 0, s.slice(0, 16), T, other, T, true],
  ])('%s', (_n, d, a, af, b, bf, want) => {
    expect(verifyCandidate(d, a, 0, af, b, 0, bf, policy)).toBe(want);
  });
});
