import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bucketVectors, foldVectors, loadWordVectors, rowFeatures, train, vectorVocabulary, wordVectorsPath, type TopicRow, type WordVectors } from '../../bench/train-topics.js';
import { wordBuckets, type Category } from '../../src/actors/enrich/topic-model.js';

const BUCKETS = 1 << 12;

function row(id: string, title: string, label: Category): TopicRow {
  return { set: 'ag', id, label, group: id, article: { id, url: '', title, publisher: 'p', published_at: 0 } };
}

/**
 * A wink-format vector file: sports words point one way, money words another, each pair of a
 * trained word and an untrained neighbour nearly parallel. "Don't" and "U.S." are not single
 * tokens of ours and must be dropped; "the" is a stopword.
 */
function vectorFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-vectors-'));
  const v: Record<string, number[]> = {
    the: [1, 1, 1, 1],
    goal: [3, 0.1, 0, 0], midfielder: [2.9, 0.3, 0, 0.1], match: [2, 0, 0.2, 0],
    shares: [0, 0, 3, 0.2], dividend: [0, 0.1, 2.8, 0.4], profit: [0, 0.2, 2, 0],
    "don't": [0, 1, 0, 0], 'U.S.': [0, 0, 0, 1],
  };
  // wink's layout: the vector's values, then its L2 norm and the word's index
  const vectors = Object.fromEntries(Object.entries(v).map(([w, x], i) => [w, [...x, Math.hypot(...x), i]]));
  const file = join(dir, 'vectors.json');
  writeFileSync(file, JSON.stringify({ precision: 8, dimensions: 4, size: Object.keys(v).length, words: Object.keys(v), vectors }));
  return file;
}

function scores(weights: Float32Array, bias: Float32Array, f: readonly number[], C: number): number[] {
  const s = [...bias].map((b, c) => f.reduce((a, h) => a + weights[h * C + c]!, 0) / Math.sqrt(f.length) + b);
  return s;
}

describe('pretrained word vectors in topic training', () => {
  const file = vectorFile();
  const vectors: WordVectors = loadWordVectors(file);
  // more business rows than sports rows: with nothing known of a word, the bias says business
  const rows = [
    ...['goal', 'match', 'goal match', 'match goal', 'goal goal'].map((t, i) => row(`s${i}`, t, 'sports')),
    ...['shares', 'profit', 'shares profit', 'profit shares', 'shares shares', 'profit profit', 'shares up'].map((t, i) => row(`b${i}`, t, 'business')),
  ];
  const opts = { buckets: BUCKETS, epochs: 10, lr: 0.3, l2: 1e-7, seed: 3 };

  afterEach(() => { delete process.env.NEWSAGG_WORD_VECTORS; delete process.env.TOPIC_VECTORS; });

  it('keeps the words the tokenizer yields whole, each vector of unit length', () => {
    expect(vectors.words).toEqual(['the', 'goal', 'midfielder', 'match', 'shares', 'dividend', 'profit']);
    for (let i = 0; i < vectors.words.length; i++) {
      const n = Math.hypot(...vectors.vec.subarray(i * 4, i * 4 + 4));
      expect(n).toBeCloseTo(1, 5);
    }
  });

  it('takes words of the training rows seen often enough or frequent in the vectors, never stopwords', () => {
    expect(vectorVocabulary(rows, vectors, 2, 0).sort()).toEqual(['goal', 'match', 'profit', 'shares']);
    expect(vectorVocabulary(rows, vectors, 2, 3).sort()).toEqual(['goal', 'match', 'midfielder', 'profit', 'shares']);
    expect(vectorVocabulary(rows, vectors, 99, 100)).not.toContain('the');
  });

  it('folds the vector map into the table exactly: scores equal the jointly trained ones', () => {
    const bv = bucketVectors(vectors, vectorVocabulary(rows, vectors, 1, 100), BUCKETS);
    const [uni, title] = wordBuckets('midfielder', BUCKETS);
    expect(bv.byBucket.get(uni)!.slice(0, 4)[0]).toBeGreaterThan(0.9);
    expect(bv.byBucket.get(title)!.slice(4, 8)[0]).toBeGreaterThan(0.9);
    const m = train(rows, opts, undefined, bv);
    const C = m.classes.length;
    const folded = Float32Array.from(m.weights);
    foldVectors(folded, m.vectorMap, bv, C);
    for (const text of ['midfielder', 'dividend', 'goal profit', 'shares midfielder']) {
      const f = rowFeatures({ id: 'x', url: '', title: text, publisher: 'p', published_at: 0 }, BUCKETS);
      const x = new Float64Array(bv.dims);
      for (const h of f) { const s = bv.byBucket.get(h); if (s) for (let k = 0; k < bv.dims; k++) x[k]! += s[k]!; }
      const joint = scores(m.weights, m.bias, f, C).map((s, c) => s + [...x].reduce((a, xk, k) => a + m.vectorMap[k * C + c]! * xk, 0) / Math.sqrt(f.length));
      const got = scores(folded, m.bias, f, C);
      for (let c = 0; c < C; c++) expect(got[c]).toBeCloseTo(joint[c]!, 4);
    }
  });

  it('scores a word never seen in training by its neighbours in the vector space', () => {
    const bv = bucketVectors(vectors, vectorVocabulary(rows, vectors, 1, 100), BUCKETS);
    const withV = train(rows, opts, undefined, bv);
    foldVectors(withV.weights, withV.vectorMap, bv, withV.classes.length);
    const without = train(rows, opts);
    const top = (m: typeof withV, text: string) => {
      const f = rowFeatures({ id: 'x', url: '', title: text, publisher: 'p', published_at: 0 }, BUCKETS);
      const s = scores(m.weights, m.bias, f, m.classes.length);
      return m.classes[s.indexOf(Math.max(...s))];
    };
    expect(top(without, 'midfielder')).toBe('business');
    expect(top(withV, 'midfielder')).toBe('sports');
    expect(top(withV, 'dividend')).toBe('business');
  });

  it('finds the vectors from NEWSAGG_WORD_VECTORS, and none with TOPIC_VECTORS=0 or a wrong path', () => {
    process.env.NEWSAGG_WORD_VECTORS = file;
    expect(wordVectorsPath()).toBe(file);
    process.env.TOPIC_VECTORS = '0';
    expect(wordVectorsPath()).toBeNull();
    delete process.env.TOPIC_VECTORS;
    process.env.NEWSAGG_WORD_VECTORS = join(tmpdir(), 'no-such-vectors-here.json');
    expect(wordVectorsPath()).toBeNull();
  });
});
