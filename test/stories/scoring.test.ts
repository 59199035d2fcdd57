import { describe, expect, it } from 'vitest';
import type { ClusterFeatures } from '../../src/actors/stories/features.js';
import { SNIPPET_WEIGHTS, TEXT_WEIGHTS, HEADLINE_WEIGHTS, scoreStory, type StoryProfile } from '../../src/actors/stories/scoring.js';
import { TermIndex } from '../../src/actors/stories/term-index.js';
import { norm, toVec, Vocabulary, type SparseVec } from '../../src/actors/stories/vectors.js';

// deterministic pseudo-random numbers
let seed = 12345;
const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const ids = (n: number, range: number): Int32Array => Int32Array.from(new Set(Array.from({ length: n }, () => Math.floor(rnd() * range)))).sort();
function vec(n: number): SparseVec {
  const raw = new Map<number, number>();
  for (let i = 0; i < n; i++) raw.set(Math.floor(rnd() * 300), 0.1 + rnd());
  return toVec(raw, 128);
}
function article(): ClusterFeatures {
  const entityIds = ids(3, 40);
  const namedIds = entityIds.filter(() => rnd() < 0.8);
  return { vec: vec(30), titleIds: ids(6, 300), entityIds, namedIds, rareEntityIds: namedIds.filter(() => rnd() < 0.7), personIds: ids(2, 40), placeIds: ids(1, 10), cityIds: ids(1, 20), salient: ids(5, 300), time: 1e12 + rnd() * 1e8 };
}
function story(): StoryProfile {
  const centroid = vec(80);
  return {
    centroid, centroidNorm: norm(centroid), exemplars: [vec(30), vec(30)], entityIds: ids(6, 40), personIds: ids(3, 40), placeIds: ids(2, 10),
    dominantPersons: rnd() < 0.5 ? 1 : 0, dominantPlaces: rnd() < 0.5 ? 1 : 0, dominantEntities: 1, leadTitleIds: ids(6, 300),
    coreEntityIds: ids(2, 40), corePlaceIds: ids(1, 10), coreCityIds: ids(1, 20), updated: 1e12 + 5e7, firstSeen: 1e12, category: rnd() < 0.5 ? 'world' : null,
  };
}

describe('scoreStory bounds and dense products', () => {
  it('skips a story only when its full score could not beat the floor, and scores the same with a dense vector', () => {
    let pruned = 0;
    for (const w of [HEADLINE_WEIGHTS, SNIPPET_WEIGHTS, TEXT_WEIGHTS]) {
      for (let k = 0; k < 400; k++) {
        const a = article();
        const s = story();
        const full = scoreStory(a, 'world', s, w).total;
        const dense = new Float32Array(300);
        a.vec.ids.forEach((id, i) => { dense[id] = a.vec.weights[i]!; });
        expect(scoreStory(a, 'world', s, w, -Infinity, dense).total).toBe(full);
        const floor = full + rnd() * 1.6 - 0.4;
        const bounded = scoreStory(a, 'world', s, w, floor, dense).total;
        if (bounded === -Infinity) { pruned++; expect(full).toBeLessThanOrEqual(floor); }
        else expect(bounded).toBe(full);
      }
    }
    expect(pruned).toBeGreaterThan(0);
  });
});

describe('TermIndex.candidates', () => {
  it('picks the best-weighted stories in the order a stable sort of all of them gives', () => {
    const vocab = new Vocabulary();
    for (let t = 0; t < 50; t++) vocab.id(`t${t}`);
    const index = new TermIndex(vocab, () => true);
    const posted: number[][] = [];
    for (let slot = 0; slot < 300; slot++) { posted.push([]); index.post(slot, posted[slot]!, ids(4, 50)); }
    for (let k = 0; k < 50; k++) {
      const salient = ids(8, 50);
      const all = index.candidates(salient, 300, 10_000);
      const weight = (slot: number): number => [...salient].filter((id) => posted[slot]!.includes(id)).reduce((s, id) => s + vocab.idf(id), 0);
      const expected = all.slice().sort((x, y) => weight(y) - weight(x)).slice(0, 12);
      expect(index.candidates(salient, 300, 12)).toEqual(expected);
    }
  });
});
