import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { fitToLog } from '../../src/actors/ingest/fit.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';

/**
 * Articles made to fit one message of the JetStream ingest log: one too large is trimmed (body
 * text, then summary, then headline) or set aside, never the cause of its batch failing.
 */
const at = '2026-11-20T10:00:00.000Z';
const small = (n: number): RawArticle => ({ url: `https://daily.example/${n}`, title: `Story ${n}`, summary: 'A short summary.', publisher: 'daily', published_at: at });
const size = (a: RawArticle) => encode(a).length;

describe('fitToLog', () => {
  it('leaves articles that fit as they are (the same objects)', () => {
    const list = [small(1), small(2)];
    const f = fitToLog(list, 64 * 1024);
    expect(f.fit).toEqual(list);
    expect(f.fit[0]).toBe(list[0]);
    expect(f).toMatchObject({ trimmed: 0, tooLarge: [] });
  });

  it.each<[string, Partial<RawArticle>, (a: RawArticle) => void]>([
    ['its body text goes first', { text: 'word '.repeat(40_000) }, (a) => expect(a.text).toBeUndefined()],
    ['then most of its summary', { summary: 'résumé '.repeat(20_000) }, (a) => expect(a.summary!.length).toBe(1_000)],
    ['then the tail of its headline', { title: 'Ünïcödé '.repeat(20_000) }, (a) => expect(a.title.length).toBe(500)],
  ])('an article over the limit is trimmed to fit: %s', (_what, over, check) => {
    const big = { ...small(2), ...over };
    const f = fitToLog([small(1), big, small(3)], 16 * 1024);
    expect(f.tooLarge).toEqual([]);
    expect(f.trimmed).toBe(1);
    expect(f.fit.map((a) => a.url)).toEqual([1, 2, 3].map((n) => `https://daily.example/${n}`));
    expect(size(f.fit[1]!)).toBeLessThanOrEqual(16 * 1024);
    check(f.fit[1]!);
  });

  it('one that cannot be made to fit (its URL alone) is set aside with its size; the rest go on', () => {
    const huge = { ...small(2), url: `https://daily.example/${'x'.repeat(20_000)}` };
    const f = fitToLog([small(1), huge, small(3)], 8 * 1024);
    expect(f.fit.map((a) => a.url)).toEqual(['https://daily.example/1', 'https://daily.example/3']);
    expect(f.tooLarge).toHaveLength(1);
    expect(f.tooLarge[0]!.article).toBe(huge);
    expect(f.tooLarge[0]!.bytes).toBeGreaterThan(8 * 1024);
  });
});
