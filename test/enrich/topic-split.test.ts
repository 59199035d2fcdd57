import { describe, expect, it } from 'vitest';
import { assignFolds, isRightTopic, splitTopicRows, type TopicRow } from '../../bench/train-topics.js';
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
