import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { articleText, tokenize, tokenizeArticle, type ArticleInput } from '../../src/actors/enrich/text.js';
import { loadTopicModel, scoreFeatures, serializeModel, topicFeatures, type Category } from '../../src/actors/enrich/topic-model.js';

const B = 1 << 20;

describe('topic features', () => {
  it('marks title words apart from the same words in the body', () => {
    const tokens = ['rocket', 'launch', 'rocket', 'launch'];
    const inTitle = topicFeatures(tokens, B, [], undefined, 2);
    const inBody = topicFeatures(tokens, B, [], undefined, 0);
    // two extra title features, and they differ from every body feature
    expect(inTitle.length).toBe(inBody.length + 2);
    const extra = inTitle.filter((f) => !inBody.includes(f));
    expect(new Set(extra).size).toBe(2);
  });

  it('builds bigrams of adjacent content words only', () => {
    // "rates" and "rise" are adjacent content words; "of" breaks the other pair
    const a = topicFeatures(['rates', 'rise'], B, []);
    const b = topicFeatures(['rates', 'of', 'rise'], B, []);
    expect(a.length).toBe(3);
    expect(b.length).toBe(2);
    expect(b).toEqual([a[0], a[1]]);
    expect(b).not.toContain(a[2]);
  });

  it('reads host, section folders and slug words from the URL', () => {
    const none = topicFeatures([], B, []);
    const url = topicFeatures([], B, [], 'https://www.example.com/business/markets/apple-beats-forecasts.html');
    expect(none).toEqual([]);
    // host + 2 sections + slug words apple, beats, forecasts, html
    expect(url.length).toBe(7);
    // slug words are not the same features as body words
    const body = topicFeatures(['apple'], B, []);
    expect(url).not.toContain(body[0]);
    // a different host gives a different host feature
    const other = topicFeatures([], B, [], 'https://other.org/business/markets/apple-beats-forecasts.html');
    expect(other[0]).not.toBe(url[0]);
    expect(other.slice(1)).toEqual(url.slice(1));
  });
});

describe('tokenizeArticle', () => {
  const cases: ArticleInput[] = [
    { id: '1', url: '', title: "Obama's plan: rates won't rise", summary: 'Markets rally, again', publisher: 'p', published_at: 0 },
    { id: '2', url: '', title: 'Title only', publisher: 'p', published_at: 0 },
    { id: '3', url: '', title: 'Ends with quote\'', summary: null, text: 'x'.repeat(50) + " body's words ".repeat(200), publisher: 'p', published_at: 0 },
  ];
  it.each(cases)('gives the tokens of articleText and counts the title ones ($id)', (a) => {
    const out: string[] = ['stale'];
    const n = tokenizeArticle(a, out, 1200);
    expect(out).toEqual(tokenize(articleText(a, 1200)));
    expect(n).toBe(tokenize(a.title).length);
  });
});

describe('8-lane scoring', () => {
  it('scores a loaded int8 model exactly like the plain int8 layout', () => {
    const classes: Category[] = ['business', 'entertainment', 'health', 'politics', 'sports', 'technology', 'world'];
    let x = 3;
    const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    const m = { buckets: 256, classes, bias: Float32Array.from(classes, () => rnd()), weights: Float32Array.from({ length: 256 * 7 }, () => rnd()) };
    const file = join(mkdtempSync(join(tmpdir(), 'newsagg-lanes-')), 'm.json');
    writeFileSync(file, serializeModel(m, {}));
    const loaded = loadTopicModel(file);
    expect(loaded.lanes8).toBeDefined();
    const plain = { ...loaded, lanes8: undefined };
    for (const text of [['shares', 'fell'], ['match', 'won', 'cup', 'final'], []]) {
      const f = topicFeatures(text, 256, [], 'https://example.com/sport/a-b');
      expect([...scoreFeatures(loaded, f, new Float64Array(7))]).toEqual([...scoreFeatures(plain, f, new Float64Array(7))]);
    }
  });
});
