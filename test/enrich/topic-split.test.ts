import { describe, expect, it } from 'vitest';
import { assignFolds, isRightTopic, rowWeights, SET_WEIGHTS, splitTopicRows, train, trainNaiveBayes, type TopicRow } from '../../bench/train-topics.js';
import type { Category } from '../../src/actors/enrich/topic-model.js';

function row(set: TopicRow['set'], id: string, label: Category, group: string): TopicRow {
  return { set, id, label, group, article: { id, url: '', title: id, publisher: 'p', published_at: 0 } };
}

/** 100 groups per (set, label); groups of 1-3 rows; a UCI-stories file sharing some stories. */
function rows(): TopicRow[] {
  const out: TopicRow[] = [];
  for (const [set, labels] of [['ag', ['world', 'sports']], ['uci', ['business', 'health']]] as const) {
    for (const label of labels) {
      for (let g = 0; g < 100; g++) for (let k = 0; k <= g % 3; k++) out.push(row(set, `${set}-${label}-${g}-${k}`, label, `${set}:${label}:${g}`));
    }
  }
  for (let g = 0; g < 100; g += 10) out.push(row('uci-stories', `s-${g}`, 'business', `uci:business:${g}`));
  out.push(row('uci-stories', 's-only', 'business', 'uci:only-in-stories-file'));
  return out;
}

describe('topic benchmark split', () => {
  const all = rows();

  it('holds out one fifth of the groups of every (set, label)', () => {
    const { test } = splitTopicRows(all);
    for (const key of ['ag:world', 'ag:sports', 'uci:business', 'uci:health']) {
      const groups = new Set(test.filter((r) => `${r.set}:${r.label}` === key).map((r) => r.group));
      expect(groups.size).toBe(20);
    }
  });

  it('keeps a group on one side and never trains on a held-out story', () => {
    const { train, test } = splitTopicRows(all);
    const held = new Set(test.map((r) => r.group));
    expect(train.some((r) => held.has(r.group))).toBe(false);
    expect(test.some((r) => r.set === 'uci-stories')).toBe(false);
    expect(train.length + test.length + all.filter((r) => r.set === 'uci-stories' && held.has(r.group)).length).toBe(all.length);
    expect(train.map((r) => r.id)).toContain('s-only');
  });

  it('is the same on every run and for any row order, and other salts give other folds', () => {
    const a = splitTopicRows(all).test.map((r) => r.id).sort();
    const b = splitTopicRows([...all].reverse()).test.map((r) => r.id).sort();
    expect(b).toEqual(a);
    const f1 = assignFolds(all, 5, 'test:');
    const f2 = assignFolds(all, 5, 'cv:');
    expect(all.filter((r) => r.set !== 'uci-stories').some((r) => f1.get(r) !== f2.get(r))).toBe(true);
  });
});

describe('label mapping', () => {
  it.each([
    ['ag', 'technology', 'science', true],
    ['uci', 'technology', 'science', true],
    ['bbc', 'technology', 'science', false],
    ['ag', 'world', 'politics', false],
    ['ag', 'business', 'business', true],
  ] as const)('%s %s predicted %s -> %s', (set, label, predicted, right) => {
    expect(isRightTopic(row(set, 'x', label, 'g'), predicted)).toBe(right);
  });
});

describe('set weights', () => {
  it.each(Object.entries(SET_WEIGHTS))('a %s row weighs %s; without weights every row weighs 1', (set, w) => {
    const r = row(set as TopicRow['set'], 'x', 'business', 'g');
    expect([...rowWeights([r])]).toEqual([w]);
    expect([...rowWeights([r], null)]).toEqual([1]);
  });

  // two rows with the same words and different labels: the one that weighs more decides
  const rows = [row('ag', 'bank merger talks', 'business', 'a'), row('ag', 'bank merger talks', 'sports', 'b')];
  it.each([[3, 1, 'business'], [1, 3, 'sports']] as const)('naive Bayes and the regression follow the heavier row (%s:%s -> %s)', (wb, ws, winner) => {
    const w = Float32Array.from([wb, ws]);
    const nb = trainNaiveBayes(rows, ['business', 'sports'], 64, 0.2, w);
    expect(nb.bias[winner === 'business' ? 0 : 1]).toBeGreaterThan(nb.bias[winner === 'business' ? 1 : 0]!);
    const lr = train(rows, { buckets: 64, epochs: 6, lr: 0.3, l2: 1e-7, seed: 1 }, w);
    const k = lr.classes.indexOf(winner);
    // every feature of the shared title leans to the heavier row's class
    let lean = 0;
    for (let h = 0; h < 64; h++) lean += lr.weights[h * 2 + k]! - lr.weights[h * 2 + (1 - k)]!;
    expect(lean).toBeGreaterThan(0);
  });
});
