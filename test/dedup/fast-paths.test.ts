import { describe, expect, it } from 'vitest';
import { collapseSpaces, fold, stripHtml } from '../../src/actors/dedup/normalize.js';
import { asciiTokenHashes, shingleHashes, tokenHashes } from '../../src/actors/dedup/shingles.js';
import { accumulate, simhashHex } from '../../src/actors/dedup/simhash.js';

/** The shortcuts of the ingest CPU stage must give what the plain forms give. */

/** the counters as they were summed before: feature by feature, bit by bit */
function accumulateEach(acc: Int32Array, features: Uint32Array, count: number, weight: number): void {
  const mix = (h: number): number => {
    h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
    return h >>> 0;
  };
  for (let i = 0; i < count; i++) {
    const hi = mix(features[i]! ^ 0x5bd1e995);
    const lo = mix(features[i]! ^ 0x27d4eb2f);
    for (let b = 0; b < 32; b++) {
      acc[b] += ((hi >>> b) & 1) * weight * 2 - weight;
      acc[32 + b] += ((lo >>> b) & 1) * weight * 2 - weight;
    }
  }
}

describe('ingest fast paths', () => {
  it('collapseSpaces equals the regex form, whitespace of every kind', () => {
    for (const s of ['', ' ', 'a', 'a b', 'a  b', ' a', 'a ', 'a\tb', 'a\u00a0b', 'a\u2028b', 'a\ufeff', 'x \n y', 'plain text here', '\u3000a', 'a\u0085b']) {
      expect(collapseSpaces(s)).toBe(s.replace(/\s+/g, ' ').trim());
    }
  });

  it('stripHtml leaves text without < or & as it is, and strips the same body twice alike', () => {
    const plain = 'No markup at all.';
    expect(stripHtml(plain)).toBe(plain);
    const html = '<p>One &amp; two</p><p>three</p>';
    const first = stripHtml(html);
    expect(stripHtml(html)).toBe(first);
    expect(first).toContain('One & two');
  });

  it('asciiTokenHashes equals tokenHashes of the folded text, and gives up on non-ASCII', () => {
    for (const s of ['Rates RISE again, `quoted` 2024!', '  Leading\tand\ntrailing  ', 'a-b_c.d', '']) {
      for (const limit of [1, 2, 5, 64]) {
        const a = new Uint32Array(64), b = new Uint32Array(limit);
        const n = asciiTokenHashes(s, a, limit);
        expect(n).toBe(tokenHashes(fold(s), b));
        expect([...a.subarray(0, n)]).toEqual([...b.subarray(0, n)]);
      }
    }
    expect(asciiTokenHashes('caf\u00e9 au lait', new Uint32Array(8))).toBe(-1);
    // past the limit too: NFKC could join a separator with a combining mark that follows it
    expect(asciiTokenHashes('a b =\u0338c', new Uint32Array(8), 1)).toBe(-1);
  });

  it('shingleHashes at an offset writes what a subarray view would get', () => {
    const toks = new Uint32Array([1, 2, 3, 4, 5, 6]);
    const out = new Uint32Array(10), view = new Uint32Array(10);
    const n = shingleHashes(toks, 6, 3, out, 4);
    const m = shingleHashes(toks, 6, 3, view.subarray(4));
    expect(n).toBe(m);
    expect([...out]).toEqual([...view]);
  });

  it('SWAR accumulate equals the per-feature counters, over chunk boundaries and weights', () => {
    let seed = 7;
    const rnd = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    for (const count of [0, 1, 126, 127, 128, 300]) {
      for (const weight of [1, 8, 2.5]) {
        const f = Uint32Array.from({ length: count }, rnd);
        const a = new Int32Array(64).fill(3), b = new Int32Array(64).fill(3);
        accumulate(a, f, count, weight);
        accumulateEach(b, f, count, weight);
        expect([...a]).toEqual([...b]);
      }
    }
  });

  it('simhashHex equals the padded toString form', () => {
    for (const [hi, lo] of [[0, 0], [0xffffffff, 1], [0x0a0b0c0d, 0xf0e0d0c0], [123456789, 987654321]] as const) {
      expect(simhashHex(hi, lo)).toBe(hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0'));
    }
  });
});
