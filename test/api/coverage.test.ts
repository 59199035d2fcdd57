import { describe, expect, it } from 'vitest';
import { byRegion, timeline, topCoverage, type CoverageArticle } from '../../src/api/coverage.js';

const T = Date.parse('2026-11-20T00:00:00Z');
const MIN = 60_000;
function a(id: string, minute: number, over: Partial<CoverageArticle> = {}): CoverageArticle {
  return {
    id, publisher_id: `pub-${id}`, publisher_tier: 2, display_title: `Headline ${id}`, published_at: new Date(T + minute * MIN).toISOString(),
    region: 'eu', thumbnail_url: null, summary: null, duplicate_of: null, ...over,
  };
}

describe('timeline', () => {
  it.each([
    ['no articles, no timeline', [], []],
    ['one article: the first report', [a('x', 0)], [['x', 1]]],
    // within the smallest stretch (15 minutes) articles share one entry, shown by the first
    ['close together: one entry', [a('x', 0), a('y', 5), a('z', 14)], [['x', 3]]],
    ['spread out: one entry per stretch, oldest first, whatever the input order', [a('z', 200), a('x', 0), a('y', 100)], [['x', 1], ['y', 1], ['z', 1]]],
    // 8 articles an hour apart do not fit 6 entries of 1 hour: 2-hour stretches, 4 entries
    ['long stories get longer stretches', Array.from({ length: 8 }, (_, i) => a(`h${i}`, i * 60)), [['h0', 2], ['h2', 2], ['h4', 2], ['h6', 2]]],
    // a wire copy never speaks for its stretch when an original is there
    ['originals before wire copies', [a('copy', 0, { duplicate_of: 'orig' }), a('orig', 1)], [['orig', 2]]],
    ['a stretch of copies only is shown by its first copy', [a('o', 0), a('c1', 60, { duplicate_of: 'o' })], [['o', 1], ['c1', 1]]],
    // the second stretch repeats the first headline: its next, new headline is shown
    [
      'a headline already on the timeline is not repeated when another is there',
      [a('x', 0, { display_title: 'Quake hits city' }), a('y', 60, { display_title: 'QUAKE hits city!' }), a('z', 61, { display_title: 'Rescuers arrive' })],
      [['x', 1], ['z', 2]],
    ],
  ])('%s', (_name, articles, want) => {
    expect(timeline(articles).map((t) => [t.article_id, t.article_count])).toEqual(want);
  });

  it('keeps at most six entries, every article counted once, and each entry at its article\'s time', () => {
    const many = Array.from({ length: 40 }, (_, i) => a(`m${i}`, i * 37));
    const t = timeline(many);
    expect(t.length).toBeLessThanOrEqual(6);
    expect(t.reduce((n, e) => n + e.article_count, 0)).toBe(40);
    for (const e of t) expect(e.at).toBe(many.find((x) => x.id === e.article_id)!.published_at);
    expect(t[0]!.article_id).toBe('m0');
  });
});

describe('topCoverage', () => {
  it.each([
    ['not the lead, nor its publisher, nor copies', [a('lead', 0), a('same', 5, { publisher_id: 'pub-lead' }), a('copy', 6, { duplicate_of: 'lead' }), a('other', 7)], ['other']],
    ['authority first, then a picture, a snippet, the earliest', [
      a('late-plain', 30), a('early-plain', 10), a('snippet', 40, { summary: 'x' }), a('picture', 50, { thumbnail_url: '/thumbs/a.webp' }), a('tier1', 60, { publisher_tier: 1 }),
    ], ['tier1', 'picture', 'snippet', 'early-plain', 'late-plain']],
    ['unknown authority counts as the default tier', [a('unknown', 0, { publisher_tier: null }), a('tier3', 0, { publisher_tier: 3 })], ['unknown', 'tier3']],
    ['one per publisher, no headline twice, at most five', [
      a('p1a', 1, { publisher_id: 'p1' }), a('p1b', 2, { publisher_id: 'p1' }), a('dup-title', 3, { display_title: 'Headline p1a' }),
      a('c', 4), a('d', 5), a('e', 6), a('f', 7), a('g', 8),
    ], ['p1a', 'c', 'd', 'e', 'f']],
  ])('%s', (_name, articles, want) => {
    expect(topCoverage(articles, 'lead')).toEqual(want);
  });
});

describe('byRegion', () => {
  it('counts every article, copies too, by region; most covered first; a few originals of distinct publishers each, newest first', () => {
    const got = byRegion([
      a('eu1', 0), a('eu2', 10), a('eu3', 20, { publisher_id: 'pub-eu2' }), a('eu-copy', 30, { duplicate_of: 'eu1' }),
      a('us1', 5, { region: 'us' }), a('us-copy', 50, { region: 'us', duplicate_of: 'us1' }),
      a('none', 7, { region: null }),
      a('uk1', 8, { region: 'uk' }),
    ]);
    expect(got).toEqual([
      { region: 'eu', article_count: 4, article_ids: ['eu3', 'eu1', 'eu-copy'] }, // eu2 is eu3's publisher
      { region: 'us', article_count: 2, article_ids: ['us1', 'us-copy'] },
      { region: 'global', article_count: 1, article_ids: ['none'] },
      { region: 'uk', article_count: 1, article_ids: ['uk1'] },
    ]);
  });
});

describe('byRegion headlines', () => {
  it('shows different headlines before a second outlet with the same one', () => {
    const same = { display_title: 'Floods hit city' };
    const got = byRegion([a('x1', 3, same), a('x2', 2, same), a('x3', 1, { display_title: 'Army deployed' }), a('x4', 0, same)]);
    expect(got[0]!.article_ids).toEqual(['x1', 'x3', 'x2']);
  });
});
