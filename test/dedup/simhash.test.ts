import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprintHex } from '../../src/actors/dedup/fingerprint.js';
import runTask from '../../src/actors/dedup/fingerprint-task.js';
import { shingleHashes, tokenHashes } from '../../src/actors/dedup/shingles.js';
import { block, hamming, parseSimhashHex, popcount32, simhash, simhashHex } from '../../src/actors/dedup/simhash.js';
import { minhashSketch, sketchSimilarity, SKETCH_BYTES } from '../../src/actors/dedup/sketch.js';

/** reference SimHash with BigInt, bit by bit: slow but obviously right */
function referenceSimhash(features: Uint32Array, mixHi: (f: number) => number, mixLo: (f: number) => number): bigint {
  const acc = new Array<number>(64).fill(0);
  for (const f of features) {
    const v = (BigInt(mixHi(f)) << 32n) | BigInt(mixLo(f));
    for (let b = 0; b < 64; b++) acc[b] += (v >> BigInt(b)) & 1n ? 1 : -1;
  }
  let out = 0n;
  for (let b = 0; b < 64; b++) if (acc[b]! > 0) out |= 1n << BigInt(b);
  return out;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const STORY = {
  title: 'Harbour city opens its new tidal energy barrage',
  snippet: 'Engineers switched on the tidal barrage at dawn, and the council expects it to supply power to forty thousand homes once all turbines are running next spring.',
  text: 'Engineers switched on the tidal barrage at dawn, and the council expects it to supply power to forty thousand homes once all turbines are running next spring.\nThe project cost 310 million and took six years. Fishermen had objected to the route of the wall.\nA second phase is planned for the northern estuary if the first year goes well.\nThe mayor called it a turning point for the region.',
};

describe('uint32-pair SimHash', () => {
  it('matches a BigInt reference bit for bit', () => {
    const feats = new Uint32Array(Array.from({ length: 300 }, (_, i) => fmix32(i * 7919 + 1)));
    const { hi, lo } = simhash(feats);
    const ref = referenceSimhash(feats, (f) => fmix32(f ^ 0x5bd1e995), (f) => fmix32(f ^ 0x27d4eb2f));
    expect((BigInt(hi) << 32n) | BigInt(lo)).toBe(ref);
  });

  it.each([
    [0, 0], [1, 1], [0xffffffff, 32], [0x80000000, 1], [0x0f0f0f0f, 16], [0x12345678, 13],
  ])('popcount32(%i) = %i', (x, n) => {
    expect(popcount32(x)).toBe(n);
  });

  it('measures Hamming distance over both halves and splits 4 blocks of 16 bits', () => {
    expect(hamming(0xffff0000, 0x1, 0x0000ffff, 0x0)).toBe(33);
    const hi = 0xaaaabbbb;
    const lo = 0xccccdddd;
    expect([0, 1, 2, 3].map((i) => block(hi, lo, i))).toEqual([0xaaaa, 0xbbbb, 0xcccc, 0xdddd]);
  });

  it('round-trips the 16-hex-digit form and refuses others', () => {
    expect(simhashHex(0x0000abcd, 0xffffffff)).toBe('0000abcdffffffff');
    expect(parseSimhashHex('0000abcdffffffff')).toEqual({ hi: 0xabcd, lo: 0xffffffff });
    expect(() => parseSimhashHex('xyz')).toThrow(TypeError);
  });
});

describe('tokens, shingles and sketches', () => {
  it('hashes the same words the same way and ignores punctuation', () => {
    const a = new Uint32Array(16);
    const b = new Uint32Array(16);
    const na = tokenHashes('rates, rise: again!', a);
    const nb = tokenHashes('rates rise again', b);
    expect(na).toBe(3);
    expect([...a.subarray(0, na)]).toEqual([...b.subarray(0, nb)]);
  });

  it('makes n-word shingles, falling back to unigrams for short texts', () => {
    const toks = new Uint32Array([1, 2, 3, 4]);
    const out = new Uint32Array(8);
    expect(shingleHashes(toks, 4, 3, out)).toBe(2);
    expect(shingleHashes(toks, 2, 3, out)).toBe(1);
    expect(shingleHashes(toks, 0, 3, out)).toBe(0);
  });

  it('estimates Jaccard similarity: identical 1, disjoint near 0, half overlap in between', () => {
    const set = (from: number, n: number) => new Uint32Array(Array.from({ length: n }, (_, i) => fmix32(from + i)));
    const a = minhashSketch(set(0, 400), 400)!;
    expect(a).toHaveLength(SKETCH_BYTES);
    expect(sketchSimilarity(a, 0, minhashSketch(set(0, 400), 400)!, 0)).toBe(1);
    expect(sketchSimilarity(a, 0, minhashSketch(set(10_000, 400), 400)!, 0)).toBeLessThan(0.2);
    const half = sketchSimilarity(a, 0, minhashSketch(set(200, 400), 400)!, 0);
    expect(half).toBeGreaterThan(0.1);
    expect(half).toBeLessThan(0.7);
    expect(minhashSketch(new Uint32Array(0), 0)).toBeNull();
  });
});

describe('fingerprint', () => {
  const base = fingerprint(STORY.title, STORY.snippet, STORY.text);

  it.each([
    ['outlet suffix and prefix', `UPDATE 1-${STORY.title} | Metro Wire`, STORY.snippet, STORY.text],
    ['upper-case headline', STORY.title.toUpperCase(), STORY.snippet, STORY.text],
    ['dateline and footer', STORY.title, STORY.snippet, `BRISTOL (Reuters) - ${STORY.text}\n\u00A9 2024 Metro Wire. All rights reserved.`],
    ['markup, entities and smart quotes', STORY.title, STORY.snippet, `<p>${STORY.text.replace(/\n/g, '</p><p>').replace(/,/g, '&#44;')}</p>`],
  ])('is unchanged by syndication dress: %s', (_n, title, snippet, text) => {
    const fp = fingerprint(title, snippet, text);
    expect(hamming(fp.hi, fp.lo, base.hi, base.lo)).toBe(0);
    expect(sketchSimilarity(fp.sketch!, 0, base.sketch!, 0)).toBe(1);
  });

  it('stays close under a substituted word and a trimmed last paragraph', () => {
    const text = STORY.text.replace('objected', 'protested').split('\n').slice(0, -1).join('\n');
    const fp = fingerprint(STORY.title, STORY.snippet, text);
    expect(hamming(fp.hi, fp.lo, base.hi, base.lo)).toBeLessThanOrEqual(8);
    expect(sketchSimilarity(fp.sketch!, 0, base.sketch!, 0)).toBeGreaterThan(0.5);
  });

  it('keeps different stories far apart', () => {
    const other = fingerprint('Council delays vote on new school budget', 'Councillors postponed the vote after a row over teacher pay and the cost of repairs to two primary schools.');
    expect(hamming(other.hi, other.lo, base.hi, base.lo)).toBeGreaterThan(10);
    expect(sketchSimilarity(other.sketch!, 0, base.sketch!, 0)).toBeLessThan(0.3);
  });

  it('marks whether body text went in, and the task module fingerprints batches the same way', () => {
    expect(base.hasText).toBe(true);
    expect(fingerprint(STORY.title, STORY.snippet).hasText).toBe(false);
    const out = runTask({ items: [{ title: STORY.title, snippet: STORY.snippet, text: STORY.text }, { title: 'x' }] });
    expect(out).toHaveLength(2);
    expect(fingerprintHex(out[0]!)).toBe(fingerprintHex(base));
  });
});
