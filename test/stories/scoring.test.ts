import { describe, expect, it } from 'vitest';
import type { ClusterFeatures } from '../../src/actors/stories/features.js';
import { scoreStory, themeShare, type StoryProfile } from '../../src/actors/stories/scoring.js';
import { SNIPPET_WEIGHTS, TEXT_WEIGHTS, HEADLINE_WEIGHTS } from '../../src/actors/stories/weights.js';
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
  const v = vec(30);
  // the "what" part: the terms above 100 stand for words that are not parts of names
  const keep = Array.from(v.ids.keys()).filter((i) => v.ids[i]! > 100);
  const what = { ids: Int32Array.from(keep, (i) => v.ids[i]!), weights: Float32Array.from(keep, (i) => v.weights[i]!) };
  return {
    vec: v, titleIds: ids(6, 300), entityIds, namedIds, rareEntityIds: namedIds.filter(() => rnd() < 0.7), personIds: ids(2, 40), nameWordIds: ids(1, 40), possessiveIds: ids(1, 40), placeIds: ids(1, 10), cityIds: ids(1, 20), salient: ids(5, 300), kinds: 0,
    what, whatNorm: norm(what), themeIds: what.ids.slice(0, 4), time: 1e12 + rnd() * 1e8, headNames: names(), frameIds: ids(4, 300),
  };
}
/** one or two headline names (`key, n, words...`): a key among the vector's terms, or -1 and words only */
function names(): Int32Array {
  const out: number[] = [];
  for (let k = rnd() < 0.5 ? 1 : 2; k > 0; k--) out.push(rnd() < 0.3 ? -1 : Math.floor(rnd() * 300), 1, Math.floor(rnd() * 300));
  return Int32Array.from(out);
}
function story(): StoryProfile {
  const centroid = vec(80);
  const themeIds = ids(3, 300);
  return {
    centroid, centroidNorm: norm(centroid), whatNorm: norm(centroid) * 0.8, themeIds, themeWeights: Float32Array.from(themeIds, () => 1 + rnd()), exemplars: [vec(30), vec(30)], entityIds: ids(6, 40), personIds: ids(3, 40), placeIds: ids(2, 10),
    dominantPersons: rnd() < 0.5 ? 1 : 0, dominantPlaces: rnd() < 0.5 ? 1 : 0, dominantEntities: 1, leadTitleIds: ids(6, 300),
    coreEntityIds: ids(2, 40), corePlaceIds: ids(1, 10), coreCityIds: ids(1, 20), updated: 1e12 + 5e7, firstSeen: 1e12, category: rnd() < 0.5 ? 'world' : null,
    leadNames: names(), leadFrameIds: ids(4, 300),
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
        const denseWhat = new Float32Array(300);
        a.what.ids.forEach((id, i) => { denseWhat[id] = a.what.weights[i]!; });
        expect(scoreStory(a, 'world', s, w, -Infinity, dense, denseWhat).total).toBeCloseTo(full, 6);
        const floor = full + rnd() * 1.6 - 0.4;
        const bounded = scoreStory(a, 'world', s, w, floor, dense, denseWhat).total;
        if (bounded === -Infinity) { pruned++; expect(full).toBeLessThanOrEqual(floor); }
        else expect(bounded).toBeCloseTo(full, 6);
      }
    }
    expect(pruned).toBeGreaterThan(0);
  });
});

describe('what happened must agree', () => {
  const v = (pairs: [number, number][]): SparseVec => { const raw = new Map(pairs); return toVec(raw, 128); };
  // terms 1-9: words of names (a city, a club); 10+: what happened
  const story = (what: [number, number][], theme: number[] = []): StoryProfile => {
    const centroid = v([[1, 2], [2, 1], ...what]);
    const whatNorm = Math.sqrt(centroid.weights.filter((_, i) => centroid.ids[i]! >= 10).reduce((x, y) => x + y * y, 0));
    return {
      centroid, centroidNorm: norm(centroid), whatNorm,
      themeIds: Int32Array.from(theme), themeWeights: Float32Array.from(theme, () => 1), exemplars: [centroid],
      entityIds: new Int32Array(0), personIds: new Int32Array(0), placeIds: new Int32Array(0), dominantPersons: 0, dominantPlaces: 0, dominantEntities: 0,
      leadTitleIds: new Int32Array(0), coreEntityIds: new Int32Array(0), corePlaceIds: new Int32Array(0), coreCityIds: new Int32Array(0), updated: 0, firstSeen: 0, category: 'world',
    };
  };
  const article = (what: [number, number][]): ClusterFeatures => {
    const vec = v([[1, 2], [2, 1], ...what]);
    const keep = Array.from(vec.ids.keys()).filter((i) => vec.ids[i]! >= 10);
    const w = { ids: Int32Array.from(keep, (i) => vec.ids[i]!), weights: Float32Array.from(keep, (i) => vec.weights[i]!) };
    const none = new Int32Array(0);
    return { vec, titleIds: none, entityIds: none, namedIds: none, rareEntityIds: none, personIds: none, nameWordIds: none, possessiveIds: none, placeIds: none, cityIds: none, salient: none, what: w, whatNorm: norm(w), themeIds: w.ids, kinds: 0, headNames: none, frameIds: none, time: 0 };
  };
  it.each<[string, [number, number][], [number, number][], number[], boolean]>([
    // name, story's what words, article's what words, story theme, conflict expected
    ['a march in the city of a quake story', [[10, 1], [11, 1]], [[20, 1], [21, 1]], [], true],
    ['another report of the quake', [[10, 1], [11, 1]], [[10, 1], [12, 1]], [], false],
    ['a march over other things than the theme', [[30, 1], [31, 1], [32, 1]], [[30, 1], [33, 1]], [31], true],
    ['a march over the theme', [[30, 1], [31, 1], [32, 1]], [[30, 1], [31, 1]], [31], false],
  ])('%s', (_n, storyWhat, articleWhat, theme, conflict) => {
    const p = scoreStory(article(articleWhat), 'world', story(storyWhat, theme), SNIPPET_WEIGHTS);
    expect(p.conflict > 0).toBe(conflict);
    expect(themeShare(article(articleWhat), story(storyWhat, theme))).toBe(theme.length === 0 || articleWhat.some(([id]) => theme.includes(id)) ? 1 : 0);
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
