import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTopicModel, scoreFeatures, serializeModel, softmax, topicFeatures, TopicModelError, type Category } from '../../src/actors/enrich/topic-model.js';

function randomModel(buckets: number, classes: Category[], seed: number) {
  let x = seed;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const C = classes.length;
  return {
    buckets, classes,
    bias: Float32Array.from(classes, () => rnd()),
    weights: Float32Array.from({ length: buckets * C }, () => rnd() * 3),
    nb: { bias: Float32Array.from(classes, () => rnd()), weights: Float32Array.from({ length: buckets * C }, () => rnd()), mix: 0.5 },
  };
}

describe('topic model file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-topics-'));

  it('round-trips through int8 with scores close to the float model', () => {
    const classes: Category[] = ['business', 'sports', 'technology'];
    const m = randomModel(64, classes, 7);
    const file = join(dir, 'm.json');
    writeFileSync(file, serializeModel(m, { test: true }));
    const loaded = loadTopicModel(file);
    expect(loaded.classes).toEqual(classes);
    const float = { ...m, scale: 1, nb: { ...m.nb, scale: 1 } };
    for (const text of [['shares', 'fell'], ['match', 'won', 'cup', 'final'], ['new', 'phone', 'chip']]) {
      const f = topicFeatures(text, 64, []);
      const a = scoreFeatures(float, f, new Float64Array(3));
      const b = scoreFeatures(loaded, f, new Float64Array(3));
      for (let c = 0; c < 3; c++) expect(b[c]).toBeCloseTo(a[c]!, 0);
    }
  });

  it('gives the same class with and without the interleaved layout', () => {
    const loaded = loadTopicModel(join(dir, 'm.json'));
    const plain = { ...loaded, interleaved: undefined };
    const f = topicFeatures(['striker', 'scores', 'twice'], loaded.buckets, []);
    const a = scoreFeatures(loaded, f, new Float64Array(3));
    const b = scoreFeatures(plain, f, new Float64Array(3));
    expect([...b]).toEqual([...a]);
    expect(softmax(a, 3)).toBe(softmax(b, 3));
  });

  it('rejects a malformed file with a coded error', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'other', buckets: 3 }));
    expect(() => loadTopicModel(bad)).toThrow(TopicModelError);
    expect(() => loadTopicModel(join(dir, 'missing.json'))).toThrowError(expect.objectContaining({ code: 'TOPIC_MODEL_INVALID' }));
  });
});
