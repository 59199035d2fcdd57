import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';
import { cutText, isSafeText, safeField, safeText } from '../../src/actors/store/safe-text.js';

describe('safeText: what PostgreSQL text and jsonb take', () => {
  it.each([
    ['plain text stays', 'Floods hit the valley', 'Floods hit the valley'],
    ['tab, newline and CR stay', 'a\tb\nc\r\nd', 'a\tb\nc\r\nd'],
    ['NUL goes (UTF-16 read as bytes)', 'B\u0000a\u0000d', 'Bad'],
    ['other controls become spaces', 'a\u0007b\u001bc\u007fd', 'a b c d'],
    ['noncharacters become spaces', 'x\ufffey\uffffz', 'x y z'],
    ['a lone high surrogate becomes U+FFFD', 'ab\ud800cd', 'ab\ufffdcd'],
    ['a lone low surrogate becomes U+FFFD', '\udc00ab', '\ufffdab'],
    ['a high surrogate at the end becomes U+FFFD', 'ab\ud83d', 'ab\ufffd'],
    ['a pair stays', 'rocket \ud83d\ude80 launch', 'rocket \ud83d\ude80 launch'],
    ['non-Latin text stays', 'Ein "Zitat" und 東京', 'Ein "Zitat" und 東京'],
  ])('%s', (_what, input, want) => {
    expect(safeText(input)).toBe(want);
    expect(isSafeText(want)).toBe(true);
    // and JSON of it is what jsonb reads: no \u0000, no lone surrogate escapes
    expect(JSON.stringify(safeText(input))).not.toMatch(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i);
  });

  it('returns a clean string as it is', () => {
    const s = 'Nothing to clean here';
    expect(safeText(s)).toBe(s);
  });

  it.each([
    ['short', 'abc', 5, 'abc'],
    ['cut', 'abcdef', 3, 'abc'],
    ['never inside a surrogate pair', 'ab\ud83d\ude80', 3, 'ab'],
  ])('cutText: %s', (_w, s, max, want) => {
    expect(cutText(s, max)).toBe(want);
  });

  it('safeField cuts, then cleans', () => {
    expect(safeField('a\u0000bcdef', 4)).toBe('abc');
  });
});

describe('the feed parser hands over safe text', () => {
  it.each([
    ['JSON Feed', 'application/json', JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1', title: 'Feed\u0000 title',
      items: [{ id: 'x1', url: 'https://example.com/a', title: 'Storm\u0000 hits \ud800 coast', summary: 'Wind \u0007 and rain', date_published: '2026-01-01T00:00:00Z' }],
    })],
    ['RSS with a raw NUL and control characters', 'application/rss+xml',
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Feed\u0000 title</title><item><title>Storm\u0000 hits\u0001 coast</title><link>https://example.com/a</link><description>Wind \u0007 and rain</description></item></channel></rss>'],
  ])('%s', (_what, type, body) => {
    const parsed = parseFeed(body, { baseUrl: 'https://example.com/feed', contentType: type });
    const e = parsed.entries[0]!;
    for (const v of [parsed.feed.title, e.title, e.summary, e.content, e.id, e.link]) if (v !== null) expect(isSafeText(v)).toBe(true);
    expect(e.title).toMatch(/^Storm hits/);
  });
});
