import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCELERATION, eligible, hostOf, planAcceleration, rankCandidates, type CoverageCandidate } from '../../src/actors/breaking/acceleration.js';

const T0 = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;

const cand = (id: string, o: Partial<CoverageCandidate> = {}): CoverageCandidate => ({
  id, feedUrl: `https://${id}.example/feed`, regionArticles: 1, topicArticles: 1, circuit: 'closed', lastError: null, ...o,
});

describe('which publishers are polled faster while a story breaks', () => {
  it.each([
    ['a healthy feed that covered the region', cand('a', { topicArticles: 0 }), true],
    ['a healthy feed that covered the topic', cand('a', { regionArticles: 0 }), true],
    ['a feed that covered neither', cand('a', { regionArticles: 0, topicArticles: 0 }), false],
    ['an open circuit (failing, rate limited)', cand('a', { circuit: 'open', lastError: 'HTTP_429: too many requests' }), false],
    ['a half-open circuit', cand('a', { circuit: 'half_open' }), false],
    ['a feed robots.txt refuses', cand('a', { lastError: "ROBOTS_DISALLOWED: the site's robots.txt does not allow fetching this URL" }), false],
    ['a feed that failed once, circuit still closed', cand('a', { lastError: 'FETCH_TIMEOUT: slow' }), true],
  ])('%s: eligible %s', (_name, c, want) => {
    expect(eligible(c)).toBe(want);
  });

  it('ranks region and topic together first, then region, then topic, more articles first', () => {
    const list = [
      cand('topic-big', { regionArticles: 0, topicArticles: 50 }),
      cand('region-small', { regionArticles: 2, topicArticles: 0 }),
      cand('both-small', { regionArticles: 1, topicArticles: 1 }),
      cand('both-big', { regionArticles: 10, topicArticles: 10 }),
      cand('region-big', { regionArticles: 9, topicArticles: 0 }),
      cand('topic-small', { regionArticles: 0, topicArticles: 3 }),
    ];
    expect(rankCandidates(list).map((c) => c.id)).toEqual(['both-big', 'both-small', 'region-big', 'region-small', 'topic-big', 'topic-small']);
  });

  it('polls each chosen publisher every minute for thirty minutes, whatever its tier', () => {
    const orders = planAcceleration([cand('a'), cand('b')], T0);
    expect(orders).toEqual([
      { id: 'a', intervalMs: MIN, until: T0 + 30 * MIN },
      { id: 'b', intervalMs: MIN, until: T0 + 30 * MIN },
    ]);
    expect(DEFAULT_ACCELERATION).toMatchObject({ intervalMs: MIN, durationMs: 30 * MIN });
  });

  it('keeps to the per-host minimum interval: feeds sharing a host poll it no more often together', () => {
    const shared = Array.from({ length: 120 }, (_, i) => cand(`s${String(i).padStart(3, '0')}`, { feedUrl: `https://big.example/feeds/${i}.xml` }));
    const orders = planAcceleration([...shared, cand('alone')], T0, { ...DEFAULT_ACCELERATION, hostMinIntervalMs: 1_000 });
    const big = orders.filter((o) => o.id.startsWith('s'));
    // 120 feeds × 1 s apart on one host: each every 120 s, so the host sees one request a second at most
    expect(new Set(big.map((o) => o.intervalMs))).toEqual(new Set([120_000]));
    expect(big.length / (big[0]!.intervalMs / 1000)).toBeLessThanOrEqual(1);
    expect(orders.find((o) => o.id === 'alone')!.intervalMs).toBe(MIN);
  });

  it('accelerates at most `max`, the best first, and nothing without candidates', () => {
    const list = Array.from({ length: 10 }, (_, i) => cand(`p${i}`, { regionArticles: i, topicArticles: 0 }));
    expect(planAcceleration(list, T0, { ...DEFAULT_ACCELERATION, max: 3 }).map((o) => o.id)).toEqual(['p9', 'p8', 'p7']);
    expect(planAcceleration([], T0)).toEqual([]);
    expect(planAcceleration([cand('x', { circuit: 'open' })], T0)).toEqual([]);
  });

  it.each([
    ['https://Example.COM:8443/feed', 'example.com:8443'],
    ['http://127.0.0.1:9000/s/abc/feed.xml', '127.0.0.1:9000'],
    ['not a url', 'not a url'],
  ])('the host of %s is %s', (url, host) => {
    expect(hostOf(url)).toBe(host);
  });
});
