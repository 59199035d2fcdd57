import { describe, expect, it } from 'vitest';
import { authorityOf } from '../../src/actors/publisher/authority.js';
import type { CachedStory } from '../../src/actors/store/feed-items.js';
import type { StorySignals } from '../../src/actors/store/stories.js';
import { normalizeAddress, TrustedProxies } from '../../src/api/client-address.js';
import { buildPool, coverage, logFreshness } from '../../src/api/personal/pool.js';
import { personalOrder, personalPages } from '../../src/api/personal/rank.js';
import { cookieValue, readerIdOf, readerIfAny, readerOf } from '../../src/api/readers/identity.js';
import type { Request } from '../../src/api/reply.js';
import { MAX_ENTRIES, MAX_PER_LIST, parseInterests } from '../../src/api/readers/interests.js';
import { compileProfile, placeKeys } from '../../src/api/readers/profile.js';
import { decayedOne, DEFAULT_TRENDING, topByRegion, trendScores } from '../../src/api/trending/score.js';

describe('TrustedProxies', () => {
  const t = new TrustedProxies(['10.0.0.0/8', '192.0.2.1', 'fd00::/8']);
  it.each([
    ['an untrusted peer is the client, whatever it forwards', '203.0.113.9', '1.2.3.4', '203.0.113.9'],
    ['a trusted peer: the right-most forwarded hop', '10.0.0.5', '1.2.3.4, 198.51.100.7', '198.51.100.7'],
    ['trusted hops in the chain are skipped', '10.0.0.5', '198.51.100.7, 10.9.9.9, 192.0.2.1', '198.51.100.7'],
    ['a forged left-most hop is not believed', '10.0.0.5', '6.6.6.6, 198.51.100.7', '198.51.100.7'],
    ['no header: the peer', '10.0.0.5', undefined, '10.0.0.5'],
    ['garbage in the header: the peer', '10.0.0.5', 'not-an-ip', '10.0.0.5'],
    ['ports are stripped', '10.0.0.5', '198.51.100.7:5555', '198.51.100.7'],
    ['bracketed IPv6 with a port', '10.0.0.5', '[2001:db8::7]:443', '2001:db8::7'],
    ['an IPv6 proxy spelled in full (as uWS does)', 'fd00:0000:0000:0000:0000:0000:0000:0001', '198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped peer is the IPv4 address', '0000:0000:0000:0000:0000:ffff:0a00:0005', '198.51.100.7', '198.51.100.7'],
    ['every hop trusted: the left-most', '10.0.0.5', '10.1.1.1, 10.2.2.2', '10.1.1.1'],
  ])('%s', (_name, peer, xff, want) => {
    expect(t.clientOf(peer, xff)).toBe(want);
  });
  it.each(['10.0.0.0/33', 'example.com', '1.2.3.4/8/1', '', '::/129'])('refuses %j', (bad) => {
    expect(() => new TrustedProxies([bad])).toThrow(TypeError);
  });
  it('spells addresses one way', () => {
    expect(normalizeAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normalizeAddress('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('::1');
    expect(normalizeAddress('2001:DB8::1')).toBe('2001:db8::1');
  });
});

describe('reader identity', () => {
  it('derives a stable id from the token alone (same on every node, after every restart)', () => {
    expect(readerIdOf('a'.repeat(22))).toBe(readerIdOf('a'.repeat(22)));
    expect(readerIdOf('a'.repeat(22))).not.toBe(readerIdOf('b'.repeat(22)));
    expect(readerIdOf('a'.repeat(22))).toMatch(/^r_[A-Za-z0-9_-]{22}$/);
  });
  it('reads the bearer token in any spelling the Authorization grammar allows, and nothing else', () => {
    const req = (authorization?: string, cookie?: string) => ({ header: (n: string) => (n === 'authorization' ? authorization : n === 'cookie' ? cookie : undefined) }) as unknown as Request;
    const tok = 'client-token-0123456789abcdef';
    for (const auth of [`Bearer ${tok}`, `bearer ${tok}`, `BEARER   ${tok}`, `Bearer ${tok}  `, `Bearer\t${tok}`]) expect(readerOf(req(auth))).toEqual({ id: readerIdOf(tok), from: 'token' });
    // not a token: a 401 naming the problem, never another reader (the cookie's, or a new one) in its place
    for (const auth of [`Bearer ${tok} extra`, `Bearer short`, `Basic ${tok}`, `Bearer ${tok};x`, `Bearer`, `Bearer `]) {
      for (const cookie of [undefined, `newsagg_reader=${'c'.repeat(22)}`]) {
        expect(() => readerOf(req(auth, cookie)), auth).toThrow(expect.objectContaining({ status: 401, code: 'invalid_token' }));
        expect(readerIfAny(req(auth, cookie))).toBeNull();
      }
    }
    // no Authorization header: the cookie decides (a malformed one is nobody)
    expect(readerOf(req(undefined, `newsagg_reader=${'c'.repeat(22)}`))).toEqual({ id: readerIdOf('c'.repeat(22)), from: 'cookie' });
    expect(readerOf(req(undefined, 'newsagg_reader=bad'))).toBeNull();
  });
  it('the id is SHA-256 of "newsagg-reader\\0" + token (ids are stored: the derivation must never change)', async () => {
    const { createHash } = await import('node:crypto');
    for (const token of ['a'.repeat(22), 'bench-reader-7-0123456789abcdef', 'X'.repeat(256), 'tok.en~+/=-_0123456789']) {
      expect(readerIdOf(token)).toBe(`r_${createHash('sha256').update('newsagg-reader\0').update(token).digest('base64url').slice(0, 22)}`);
    }
    expect(readerIdOf('bench-reader-0-0123456789abcdef')).toBe('r_' + createHash('sha256').update('newsagg-reader\0bench-reader-0-0123456789abcdef').digest('base64url').slice(0, 22));
  });
  it.each([
    ['newsagg_reader=abc', 'abc'],
    ['x=1; newsagg_reader=abc; y=2', 'abc'],
    ['not_newsagg_reader=zzz; newsagg_reader=abc', 'abc'],
    ['newsagg_readerx=1', null],
    ['', null],
  ])('reads the cookie from %j', (header, want) => {
    expect(cookieValue(header, 'newsagg_reader')).toBe(want);
  });
});

describe('parseInterests', () => {
  it('fills missing keys with empty lists, trims and collapses names, drops repeats', () => {
    const i = parseInterests({ follow: { categories: ['science', 'science'], entities: ['  Ada   Lovelace ', 'ada lovelace'] }, hide: { publishers: ['pub_1'] } });
    expect(i).toEqual({
      follow: { categories: ['science'], entities: ['Ada Lovelace'], publishers: [], places: [] },
      hide: { categories: [], entities: [], publishers: ['pub_1'], places: [] },
    });
    expect(parseInterests({})).toEqual({ follow: { categories: [], entities: [], publishers: [], places: [] }, hide: { categories: [], entities: [], publishers: [], places: [] } });
  });
  it.each([
    ['not an object', [], 'invalid_body'],
    ['null', null, 'invalid_body'],
    ['an unknown top-level key', { follow: {}, like: {} }, 'invalid_body'],
    ['an unknown list', { follow: { topics: [] } }, 'invalid_body'],
    ['a list that is not a list', { follow: { entities: 'x' } }, 'invalid_body'],
    ['a number in a list', { follow: { entities: [1] } }, 'invalid_body'],
    ['an unknown category', { follow: { categories: ['cooking'] } }, 'invalid_category'],
    ['a publisher id with a slash', { hide: { publishers: ['a/b'] } }, 'invalid_publisher'],
    ['an empty name', { follow: { entities: ['  '] } }, 'invalid_interest'],
    ['a huge name', { follow: { entities: ['x'.repeat(10_000)] } }, 'invalid_interest'],
    ['a name of 101 characters', { follow: { places: ['x'.repeat(101)] } }, 'invalid_interest'],
    ['a control character', { follow: { entities: ['a\u0000b'] } }, 'invalid_interest'],
    ['too many in one list', { follow: { entities: Array.from({ length: MAX_PER_LIST + 1 }, (_, i) => `e${i}`) } }, 'too_many_interests'],
    ['too many in all', { follow: Object.fromEntries(['entities', 'places', 'publishers'].map((k) => [k, Array.from({ length: MAX_PER_LIST }, (_, i) => `${k}${i}`)])), hide: { entities: Array.from({ length: MAX_ENTRIES - 3 * MAX_PER_LIST + 1 }, (_, i) => `h${i}`) } }, 'too_many_interests'],
    ['both followed and hidden', { follow: { entities: ['Mars'] }, hide: { entities: ['mars'] } }, 'conflicting_interests'],
  ])('refuses %s', (_name, body, code) => {
    expect(() => parseInterests(body)).toThrow(expect.objectContaining({ status: 400, code }));
  });
});

describe('compileProfile', () => {
  const stored = (follow: unknown, hide: unknown, history: { publisher_id: string | null; category: string | null; entities: string[] }[] = []) =>
    ({ follow, hide, history, history_size: history.length });
  it('weights follows, adds history by share (damped while short), and removes hidden keys', () => {
    const p = compileProfile('r_x', stored({ categories: ['science'], places: ['France'], entities: ['Ada Lovelace'] }, { publishers: ['pq'] }, [
      { publisher_id: 'pa', category: 'sports', entities: ['ferrari'] },
      { publisher_id: 'pa', category: 'sports', entities: ['ferrari'] },
    ]));
    const w = Object.fromEntries(p.keys.map((k, i) => [k, p.weights[i]]));
    expect(w['c:science']).toBe(1.5);
    expect(w['e:ada lovelace']).toBe(2);
    expect(w['e:france']).toBe(1.5);
    expect(w['l:FR']).toBe(1.5);
    expect(w['c:sports']).toBeCloseTo(0.5, 3); // two clicks: damp 2/(2+2), full share
    expect(w['p:pa']).toBeCloseTo(0.4, 3);
    expect(w['e:ferrari']).toBeCloseTo(0.75, 3);
    expect(p.hidden).toEqual(['p:pq']);
  });
  it('changes its version when what ranking reads changes, not otherwise', () => {
    const a = compileProfile('r_x', stored({ categories: ['science'] }, {}));
    expect(compileProfile('r_x', stored({ categories: ['science'] }, {})).version).toBe(a.version);
    expect(compileProfile('r_x', stored({ categories: ['health'] }, {})).version).not.toBe(a.version);
  });
  it('a city names itself only; a country or demonym names its code too', () => {
    expect(placeKeys('Lyon')).toEqual(['e:lyon']);
    expect(placeKeys('germany')).toEqual(['e:germany', 'l:DE']);
  });
  it('drops malformed stored interests instead of failing', () => {
    const p = compileProfile('r_x', stored('garbage', { categories: [42] }));
    expect(p.keys).toEqual([]);
    expect(p.hidden).toEqual([]);
  });
});

const NOW = Date.parse('2026-11-20T12:00:00Z');
function story(id: string, publisher: string, category: string, minutesAgo: number): CachedStory {
  return {
    item: { article_id: `a-${id}`, story_id: id, title: id, summary: null, thumbnail_url: null, publisher_id: publisher, publisher_name: publisher, published_at: new Date(NOW - minutesAgo * 60_000).toISOString(), source_url: `https://x/${id}`, click_url: `/r/a-${id}`, category, region: 'us', coverage_count: 1 },
    publisher_id: publisher, score: 0, regions: ['us'],
  };
}
function signals(id: string, minutesAgo: number, entities: string[] = [], publishers = 1): StorySignals {
  return { id, publisher_count: publishers, article_count: publishers, updated_ms: NOW - minutesAgo * 60_000, entities, lead_places: [], lead_entities: [] };
}

describe('personal ranking', () => {
  const stories = [story('s1', 'p1', 'world', 10), story('s2', 'p2', 'sports', 20), story('s3', 'p3', 'science', 30), story('s4', 'p1', 'sports', 40)];
  const sigs = [signals('s1', 10), signals('s2', 20, ['ferrari']), signals('s3', 30), signals('s4', 40, ['ferrari'])];
  const pool = (breaking: string[] = [], authority: Record<string, number> = {}) =>
    buildPool({ id: 'snap', ids: ['s1', 's2', 's3', 's4', 'gone'], stories, signals: sigs, authority: (p) => authority[p], breaking: new Set(breaking), now: NOW, region: 'global' });
  const ids = (p: ReturnType<typeof pool>, order: number[]) => order.map((i) => p.candidates[i]!.id);
  const profile = (follow: unknown, hide: unknown = {}) => compileProfile('r', { follow, hide, history: [], history_size: 0 });

  it('without interests: fresher first (equal coverage and authority); a story gone from the store is no candidate', () => {
    const p = pool();
    expect(p.candidates[4]).toBeNull();
    expect(ids(p, personalOrder(p, null))).toEqual(['s1', 's2', 's3', 's4']);
  });
  it('a followed category and entity lift their stories', () => {
    const p = pool();
    expect(ids(p, personalOrder(p, profile({ categories: ['science'] })))).toEqual(['s3', 's1', 's2', 's4']);
    expect(ids(p, personalOrder(p, profile({ entities: ['Ferrari'] })))).toEqual(['s2', 's4', 's1', 's3']);
  });
  it('hidden publishers, categories and entities never appear', () => {
    const p = pool();
    expect(ids(p, personalOrder(p, profile({}, { publishers: ['p1'] })))).toEqual(['s2', 's3']);
    expect(ids(p, personalOrder(p, profile({}, { categories: ['sports'], entities: ['nothing'] })))).toEqual(['s1', 's3']);
  });
  it('breaking stories come first, whatever the reader follows', () => {
    const p = pool(['s4']);
    expect(ids(p, personalOrder(p, profile({ categories: ['science'] })))).toEqual(['s4', 's3', 's1', 's2']);
  });
  it('source authority weighs in', () => {
    const p = pool([], { p3: 1, p1: 0.05, p2: 0.05 });
    expect(ids(p, personalOrder(p, null))[0]).toBe('s3');
  });
  it('diversity caps a publisher per page over the personalised order', () => {
    const many = Array.from({ length: 8 }, (_, i) => story(`m${i}`, i < 5 ? 'big' : `small${i}`, 'world', i));
    const p = buildPool({ id: 'x', ids: many.map((s) => s.item.story_id), stories: many, signals: [], authority: () => undefined, breaking: new Set(), now: NOW, region: 'global' });
    const page = ids(p, personalPages(p, null, { pageSize: 4, maxPerPublisher: 2, minCategories: 0, diversePages: 5 })).slice(0, 4);
    expect(page.filter((id) => Number(id.slice(1)) < 5)).toHaveLength(2);
  });
  it('freshness halves every 12 hours; coverage grows with publishers', () => {
    expect(logFreshness(NOW - 12 * 3_600_000, NOW)).toBeCloseTo(-1);
    // a year-old story keeps a finite score (a plain product would underflow to 0 and tie everything)
    expect(Number.isFinite(logFreshness(NOW - 365 * 86_400_000, NOW))).toBe(true);
    expect(coverage(7, 7)).toBeGreaterThan(coverage(1, 7));
  });
});

describe('trending scores', () => {
  const H = 3_600_000;
  // velocity and clicks as the store sums them: one decayed term per distinct publisher / reader
  const one = (hoursAgo: number) => decayedOne(hoursAgo * H, DEFAULT_TRENDING.velocityHalfLifeMs);
  const stories = [
    { id: 'wide', regions: ['us'], updated_ms: NOW - 0.5 * H, velocity: 4 * one(0.5), clicks: 0 },
    { id: 'stale', regions: ['uk'], updated_ms: NOW - 10 * H, velocity: 4 * one(10), clicks: 0 },
    { id: 'lone', regions: ['us'], updated_ms: NOW - 0.5 * H, velocity: one(0.5), clicks: 0 },
    { id: 'clicked', regions: ['uk'], updated_ms: NOW - 0.5 * H, velocity: one(0.5), clicks: 20 * one(0.2) },
    { id: 'uncovered', regions: ['uk'], updated_ms: NOW - 0.5 * H, velocity: 0, clicks: 50 },
  ];
  it('orders by coverage velocity (recent distinct publishers) and clicks', () => {
    const t = trendScores(stories, NOW);
    expect(t.map((x) => x.id)).toEqual(['wide', 'clicked', 'lone', 'stale']);
    // clicks amplify coverage: a story nobody covered in the window does not trend on clicks alone
    expect(t.map((x) => x.id)).not.toContain('uncovered');
    // without its clicks, the clicked story is just another one-publisher story
    const noClicks = trendScores(stories.map((s) => ({ ...s, clicks: 0 })), NOW);
    expect(noClicks.find((x) => x.id === 'clicked')!.score).toBe(noClicks.find((x) => x.id === 'lone')!.score);
  });
  it('a publisher joining lately counts more than one long ago', () => {
    expect(one(0.5)).toBeGreaterThan(one(3));
    expect(one(2)).toBeCloseTo(0.5);
  });
  it('groups by edition; global takes every story', () => {
    const by = topByRegion(trendScores(stories, NOW), ['global', 'us', 'uk'], 2);
    expect(by.get('global')!.map((x) => x.id)).toEqual(['wide', 'clicked']);
    expect(by.get('us')!.map((x) => x.id)).toEqual(['wide', 'lone']);
    expect(by.get('uk')!.map((x) => x.id)).toEqual(['clicked', 'stale']);
  });
});

describe('authorityOf', () => {
  it.each([
    ['tier 1 without a record', 1, null, 0.9],
    ['tier 3 without a record', 3, null, 0.35],
    ['an unknown tier counts as 2', 7, null, 0.6],
    ['too little record is no evidence', 1, { articles: 5, originals: 0, corroborated: 0 }, 0.9],
    ['an original, corroborated voice keeps its tier', 2, { articles: 100, originals: 100, corroborated: 100 }, 0.6],
    ['a pure copier loses a quarter', 2, { articles: 100, originals: 0, corroborated: 100 }, 0.45],
    ['nobody echoes it: 85 %', 1, { articles: 100, originals: 100, corroborated: 0 }, 0.765],
  ])('%s', (_n, tier, record, want) => {
    expect(authorityOf(tier, record)).toBeCloseTo(want, 3);
  });
});

/** The diversity rules as first written (slices and all): the faster one must give the same pages. */
function referenceDiversify<T extends { id: string; publisher: string; category: string | null }>(ranked: readonly T[], rules: { pageSize: number; maxPerPublisher: number; minCategories: number; maxPages?: number }): T[] {
  const out: T[] = [];
  let pending = ranked.slice();
  let page = 0;
  const maxPages = rules.maxPages ?? Infinity;
  while (pending.length > 0) {
    if (page >= maxPages) {
      out.push(...pending);
      break;
    }
    const perPublisher = new Map<string, number>();
    const cats = new Set<string>();
    const taken: T[] = [];
    const deferred: T[] = [];
    const wantCats = page === 0 ? rules.minCategories : 0;
    for (let i = 0; i < pending.length; i++) {
      const it = pending[i]!;
      if (taken.length >= rules.pageSize) {
        deferred.push(...pending.slice(i));
        break;
      }
      const n = perPublisher.get(it.publisher) ?? 0;
      if (n >= rules.maxPerPublisher) {
        deferred.push(it);
        continue;
      }
      const slotsLeft = rules.pageSize - taken.length;
      const missing = wantCats - cats.size;
      if (missing > 0 && slotsLeft <= missing && it.category !== null && cats.has(it.category)) {
        const rest = pending.slice(i + 1);
        if (rest.some((r) => r.category !== null && !cats.has(r.category) && (perPublisher.get(r.publisher) ?? 0) < rules.maxPerPublisher)) {
          deferred.push(it);
          continue;
        }
      }
      taken.push(it);
      perPublisher.set(it.publisher, n + 1);
      if (it.category !== null) cats.add(it.category);
    }
    while (taken.length < rules.pageSize && deferred.length > 0) taken.push(deferred.shift()!);
    out.push(...taken);
    pending = deferred;
    page++;
  }
  return out;
}

function seeded(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('fast paths equal their plain forms', () => {
  it('diversify gives the reference pages on 400 random feeds', async () => {
    const { diversify } = await import('../../src/api/diversity.js');
    const r = seeded(7);
    for (let t = 0; t < 400; t++) {
      const n = Math.floor(r() * 120);
      const items = Array.from({ length: n }, (_, i) => ({ id: `s${i}`, publisher: `p${Math.floor(r() * (1 + r() * 12))}`, category: r() < 0.1 ? null : `c${Math.floor(r() * 5)}` }));
      const rules = { pageSize: 1 + Math.floor(r() * 20), maxPerPublisher: 1 + Math.floor(r() * 3), minCategories: Math.floor(r() * 4), ...(r() < 0.5 ? { maxPages: Math.floor(r() * 6) } : {}) };
      expect(diversify(items, rules).map((x) => x.id)).toEqual(referenceDiversify(items, rules).map((x) => x.id));
    }
  });

  it('personalOrder (base order plus merged boosts) equals scoring and sorting every candidate', async () => {
    const { sortKey } = await import('../../src/api/personal/pool.js');
    const r = seeded(11);
    for (let t = 0; t < 200; t++) {
      const n = 1 + Math.floor(r() * 300);
      const pubs = 1 + Math.floor(r() * 20);
      const list = Array.from({ length: n }, (_, i) => story(`s${i}`, `p${Math.floor(r() * pubs)}`, CATS[Math.floor(r() * CATS.length)]!, Math.floor(r() * 5000)));
      const sigs = list.map((s) => signals(s.item.story_id, Math.floor(r() * 5000), r() < 0.3 ? [`name${Math.floor(r() * 5)}`] : [], 1 + Math.floor(r() * 9)));
      const ids = list.map((s) => s.item.story_id).concat(r() < 0.3 ? ['gone'] : []);
      const breaking = new Set(list.filter(() => r() < 0.03).map((s) => s.item.story_id));
      const pool = buildPool({ id: 'p', ids, stories: list, signals: sigs, authority: (p) => (p === 'p1' ? 0.9 : undefined), breaking, now: NOW, region: 'global' });
      const follow = { categories: CATS.filter(() => r() < 0.2), publishers: Array.from({ length: 3 }, () => `p${Math.floor(r() * pubs)}`).filter(() => r() < 0.5), entities: r() < 0.5 ? ['name1'] : [] };
      const hide = { publishers: r() < 0.3 ? [`p${Math.floor(r() * pubs)}`].filter((p) => !follow.publishers.includes(p)) : [], categories: r() < 0.2 ? CATS.filter((c) => !follow.categories.includes(c)).slice(0, 1) : [] };
      const history = Array.from({ length: Math.floor(r() * 6) }, () => ({ publisher_id: `p${Math.floor(r() * pubs)}`, category: CATS[Math.floor(r() * CATS.length)]!, entities: ['name2'] }));
      const p = compileProfile('r', { follow, hide, history, history_size: history.length });
      // the plain form: every candidate scored, hidden ones out, one sort
      const w = new Map(p.keys.map((k, i) => [k, p.weights[i]!]));
      const hidden = new Set(p.hidden);
      const keysOf = (at: number) => [...pool.index].filter(([, post]) => post.includes(at)).map(([k]) => k);
      const want = pool.candidates
        .filter((c): c is NonNullable<typeof c> => c !== null && !keysOf(c.at).some((k) => hidden.has(k)))
        .map((c) => ({ at: c.at, key: sortKey(c.at, c.breaking, c.logBase + Math.log2(1 + keysOf(c.at).reduce((a, k) => a + (w.get(k) ?? 0), 0))) }))
        .sort((a, b) => b.key - a.key)
        .map((x) => x.at);
      expect(personalOrder(pool, p)).toEqual(want);
    }
  });

  it('personalPages (diversity on per-position numbers) equals diversify() over personalOrder', async () => {
    const { diversify } = await import('../../src/api/diversity.js');
    const r = seeded(23);
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(r() * 300);
      const pubs = 1 + Math.floor(r() * 25);
      const list = Array.from({ length: n }, (_, i) => story(`s${i}`, `p${Math.floor(r() * pubs)}`, CATS[Math.floor(r() * CATS.length)]!, Math.floor(r() * 5000)));
      // some stories without a category
      for (const s of list) if (r() < 0.05) s.item.category = null;
      const sigs = list.map((s) => signals(s.item.story_id, Math.floor(r() * 5000), r() < 0.3 ? [`name${Math.floor(r() * 5)}`] : [], 1 + Math.floor(r() * 9)));
      const breaking = new Set(list.filter(() => r() < 0.03).map((s) => s.item.story_id));
      const pool = buildPool({ id: 'p', ids: list.map((s) => s.item.story_id), stories: list, signals: sigs, authority: () => undefined, breaking, now: NOW, region: 'global' });
      const follow = { categories: CATS.filter(() => r() < 0.2), publishers: [`p${Math.floor(r() * pubs)}`], entities: r() < 0.5 ? ['name1'] : [] };
      const hide = { publishers: r() < 0.3 ? [`p${Math.floor(r() * pubs)}`].filter((p) => !follow.publishers.includes(p)) : [] };
      const p = r() < 0.1 ? null : compileProfile('r', { follow, hide, history: [], history_size: 0 });
      const rules = { pageSize: 1 + Math.floor(r() * 30), maxPerPublisher: 1 + Math.floor(r() * 3), minCategories: Math.floor(r() * 4), diversePages: Math.floor(r() * 5) };
      const order = personalOrder(pool, p);
      const headN = Math.min(order.length, rules.pageSize * (rules.diversePages + 1));
      const head = diversify(order.slice(0, headN).map((at) => pool.candidates[at]!), { ...rules, maxPages: rules.diversePages }).map((c) => c.at);
      expect(personalPages(pool, p, rules)).toEqual([...head, ...order.slice(headN)]);
    }
  });
});
const CATS = ['world', 'politics', 'business', 'technology', 'science', 'health', 'sports', 'entertainment'];
