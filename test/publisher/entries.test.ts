import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';
import { MAX_RAW_TITLE, MAX_URL } from '../../src/actors/ingest/caps.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { freshEntries, markSeen, MAX_DOCUMENT_ENTRIES, type PublisherIdentity } from '../../src/actors/publisher/entries.js';
import { createSeen, seenCapacity } from '../../src/actors/publisher/seen.js';
import { intoSteps } from '../../src/actors/publisher/steps.js';
import type { RawArticle } from '../../src/actors/publisher/types.js';

/**
 * From a parsed document to raw articles: every field within the caps (one headline of a megabyte
 * made every poll of its feed fail in the ingest log), links the parser refused kept so ingest can
 * record them, what is skipped and why, and the steps a large document goes in. Real parser and
 * CPU stage; the texts are our own.
 */

const NOW = Date.UTC(2026, 10, 20, 12);
const p: PublisherIdentity = { id: 'daily', name: 'The Daily', url: 'https://daily.example/feed', category: null, country: null, language: null };

function rss(items: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Daily</title><link>https://daily.example/</link>${items}</channel></rss>`;
}
const item = (guid: string, title: string, link: string, date = 'Fri, 20 Nov 2026 10:00:00 GMT') =>
  `<item><title>${title}</title><link>${link}</link><guid isPermaLink="false">${guid}</guid><pubDate>${date}</pubDate></item>`;
const fresh = (body: string, o: Parameters<typeof freshEntries>[4] = {}) => freshEntries(parseFeed(body, { baseUrl: p.url }), createSeen(), p, NOW, o);

describe('raw articles from entries', () => {
  it('a headline of a megabyte is cut to the caps; the good entries beside it are untouched', () => {
    const huge = 'Breaking '.repeat(120_000);
    const f = fresh(rss(item('g1', 'Harbour reopens', 'https://daily.example/1') + item('big', huge, 'https://daily.example/big') + item('g2', 'Ferry resumes', 'https://daily.example/2')));
    expect(f.articles.map((a) => a.url)).toEqual(['https://daily.example/1', 'https://daily.example/big', 'https://daily.example/2']);
    expect(f.articles[1]!.title.length).toBe(MAX_RAW_TITLE);
    expect(f.articles[0]!.title).toBe('Harbour reopens');
    // and the CPU stage stores it with a headline of its own cap
    const { ok, rejected } = prepareBatch(f.articles, NOW);
    expect(rejected).toEqual([]);
    expect(ok[1]!.title.length).toBeLessThanOrEqual(500);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)', /not an absolute http\(s\) URL: "javascript:alert\(1\)"/],
    ['file:', 'file:///etc/passwd', /not an absolute http\(s\) URL: "file:\/\/\/etc\/passwd"/],
    ['10,000 characters', `https://daily.example/${'a'.repeat(10_000)}`, /URL longer than 4096 characters/],
  ])('a %s link the parser refused becomes an article ingest rejects with invalid_url, not nothing', (_what, link, message) => {
    const body = rss(item('ok', 'A good one', 'https://daily.example/ok') + item('bad', 'A bad link', link));
    const parsed = parseFeed(body, { baseUrl: p.url });
    expect(parsed.entries[1]!.link).toBeNull();
    const f = freshEntries(parsed, createSeen(), p, NOW);
    expect(f.articles).toHaveLength(2);
    expect(f.articles[1]!.url.length).toBeLessThanOrEqual(MAX_URL + 1);
    const { ok, rejected } = prepareBatch(f.articles, NOW);
    expect(ok.map((a) => a.url)).toEqual(['https://daily.example/ok']);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ reason: 'invalid_url', code: 'INVALID_URL', publisher: 'daily' });
    expect(rejected[0]!.message).toMatch(message);
  });

  it('skips entries older than retention and past the document limit, and says how many', () => {
    const items = Array.from({ length: 12 }, (_, i) => item(`e${i}`, `Entry ${i}`, `https://daily.example/e${i}`, new Date(NOW - (i + 1) * 86_400_000).toUTCString()));
    const f = fresh(rss(items.join('')), { notBefore: NOW - 5.5 * 86_400_000, maxEntries: 10 });
    // the newest 10 are read; of those the five older than 5.5 days are skipped
    expect(f.articles.map((a) => a.url)).toEqual([0, 1, 2, 3, 4].map((i) => `https://daily.example/e${i}`));
    expect(f.skipped).toEqual({ retention: 5, document_limit: 2 });
    // skipped for retention are settled at once (not read again); past the limit are not remembered
    expect(f.settled).toHaveLength(10);
    expect(MAX_DOCUMENT_ENTRIES).toBeGreaterThanOrEqual(8_000);
  });

  it('a document of thousands of entries: every one new once, none new again', () => {
    const items = Array.from({ length: 3_000 }, (_, i) => item(`n${i}`, `Numbered entry ${i}`, `https://daily.example/n${i}`, new Date(NOW - i * 60_000).toUTCString()));
    const parsed = parseFeed(rss(items.join('')), { baseUrl: p.url });
    const first = freshEntries(parsed, createSeen(), p, NOW);
    expect(first.articles).toHaveLength(3_000);
    expect(seenCapacity(first.seen)).toBe(6_000);
    const again = freshEntries(parsed, markSeen(first.seen, first.marks), p, NOW);
    expect(again.articles).toHaveLength(0);
  });
});

describe('intoSteps', () => {
  const a = (n: number, minutesAgo: number): RawArticle => ({ url: `https://daily.example/${n}`, title: `T${n}`, publisher: 'daily', published_at: new Date(NOW - minutesAgo * 60_000).toISOString() });
  const marks = (list: RawArticle[]) => list.flatMap((_, i) => [i + 1, 1000 + i]);

  it('a document that fits is one step, in document order, with the validators', () => {
    const list = [a(1, 30), a(2, 10), a(3, 20)];
    const v = { etag: '"x"', lastModified: null };
    expect(intoSteps(list, marks(list), 5, { validators: v, poll: true })).toEqual([{ articles: list, marks: marks(list), validators: v, poll: true }]);
  });

  it('a larger one goes newest first, marks following their articles, validators on the last step only', () => {
    const list = [a(1, 30), a(2, 10), a(3, 20), a(4, 40), a(5, 5)];
    const steps = intoSteps(list, marks(list), 2, { validators: { etag: '"x"', lastModified: null }, poll: true });
    expect(steps.map((s) => s.articles.map((x) => x.url.slice(-1)))).toEqual([['5', '2'], ['3', '1'], ['4']]);
    expect(steps.map((s) => s.marks)).toEqual([[5, 1004, 2, 1001], [3, 1002, 1, 1000], [4, 1003]]);
    expect(steps.map((s) => s.validators?.etag ?? null)).toEqual([null, null, '"x"']);
  });
});
