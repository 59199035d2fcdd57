import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/actors/store/feed-items.js';
import { catalogueFor, catalogueSummary, loadCatalogue } from '../../src/actors/publisher/catalogue.js';
import { isPlaceholderName } from '../../src/actors/publisher/name.js';
import { CatalogueNameError, siteName } from '../../bench/catalogue-names.js';
import { listPublishers } from '../../src/actors/store/publishers.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import type { Node } from '../../src/node.js';
import { catalogueComponent } from '../../src/roles/catalogue.js';
import { silentLogger } from '../../src/runtime/log.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { validate } from '../api/schema.js';

describe('the shipped catalogue', () => {
  const all = loadCatalogue();
  it('lists real publishers of every edition, each with a usable feed URL, once', () => {
    expect(all.length).toBeGreaterThan(300);
    for (const region of ['us', 'uk', 'eu', 'apac', 'latam', 'mea', 'global']) expect(all.some((e) => e.region === region), region).toBe(true);
    expect(new Set(all.map((e) => e.feed_url)).size).toBe(all.length);
    for (const e of all) {
      expect(new URL(e.feed_url).protocol).toMatch(/^https?:$/);
      expect(e.name.length).toBeGreaterThan(0);
      if (e.country !== null) expect(e.country).toMatch(/^[A-Z]{2}$/);
      if (e.category !== null) expect(CATEGORIES).toContain(e.category);
      expect(new URL(e.feed_url).hostname).not.toMatch(/youtube\.com$|reddit\.com$|news\.google\.com$/);
    }
  });
  it('an edition is its own publishers plus the global ones; all is everything', () => {
    const us = catalogueFor('us', all);
    expect(us.every((e) => e.region === 'us' || e.region === 'global')).toBe(true);
    expect(us.some((e) => e.region === 'us')).toBe(true);
    expect(catalogueFor('all', all)).toHaveLength(all.length);
  });

  it('the summary says what choosing each edition adds (its own and the global ones), not only its own', () => {
    const global = all.filter((e) => e.region === 'global').length;
    for (const s of catalogueSummary(all)) {
      expect(s.adds, s.region).toBe(catalogueFor(s.region, all).length);
      expect(s.adds).toBe(s.region === 'global' ? global : s.publishers + global);
    }
    expect(catalogueSummary(all).find((s) => s.region === 'uk')!.adds).toBeGreaterThan(100);
  });

  it('names sites, not feeds: no feed words, no generic names, no host names the first poll would replace', () => {
    const names = all.map((e) => e.name);
    for (const e of all) {
      expect(e.name, e.feed_url).not.toMatch(/\brss\b|\bfeed\b|home ?page|top stories|latest (news|headlines|articles)|^www\.|^-|\s[|>]\s/i);
      expect(e.name.length, e.name).toBeLessThanOrEqual(60);
      expect(isPlaceholderName(e.name, e.feed_url), `${e.name} is a placeholder for ${e.feed_url}`).toBe(false);
    }
    for (const generic of ['TV', 'All News', 'Home Page', 'World', 'Movies', 'Android', 'News', 'España', 'All Content', 'Playbook']) expect(names).not.toContain(generic);
    // what the issue saw, by feed
    const named = (url: string) => all.find((e) => e.feed_url === url)?.name;
    expect(named('https://torontosun.com/category/news/feed')).toBe('Toronto Sun');
    expect(named('https://www.business-standard.com/rss/home_page_top_stories.rss')).toBe('Business Standard');
    expect(named('http://pitchfork.com/rss/news')).toBe('Pitchfork');
    expect(named('https://www.ctvnews.ca/rss/ctvnews-ca-top-stories-public-rss-1.822009')).toBe('CTV News');
    expect(named('https://www.bleedingcool.com/tv/feed/')).toBe('Bleeding Cool');
    expect(named('https://www.investing.com/rss/news.rss')).toBe('Investing.com');
  });

  it.each([
    ['Toronto Sun - RSS Feed', 'https://torontosun.com/category/news/feed', 'Toronto Sun'],
    ['Latest News and News Headlines | Daily Telegraph', 'https://www.dailytelegraph.com.au/news/rss', 'Daily Telegraph'],
    ['BBC Sport - Cricket', 'http://feeds.bbci.co.uk/sport/cricket/rss.xml', 'BBC Sport'],
    ['Cricket | The Guardian', 'https://www.theguardian.com/sport/cricket/rss', 'The Guardian'],
    ['Moneycontrol Latest News', 'http://www.moneycontrol.com/rss/latestnews.xml', 'Moneycontrol'],
    ["Ain't It Cool News Feed", 'https://www.aintitcool.com/node/feed/', "Ain't It Cool News"],
    ['Sports News - Latest Sports and Football News | Sky News', 'http://feeds.skynews.com/feeds/rss/sports.xml', 'Sky News'],
    ['National Post', 'https://nationalpost.com/feed/', 'National Post'],
    ['Top World News- News18.com', 'https://www.news18.com/rss/world.xml', 'News18.com'],
    ['- The Manila Times', 'https://www.manilatimes.net/rssfeed/', 'The Manila Times'],
  ])('siteName(%j) is %j', (title, url, want) => {
    expect(siteName(title, url)).toBe(want);
  });

  it.each([
    ['Home Page', 'https://unknown.example/rss'],
    ['TV', 'https://unknown.example/tv/feed'],
    ['www.unknown.example', 'https://www.unknown.example/feed'],
    ['Latest News | Top Stories', 'https://unknown.example/rss'],
  ])('a title that names no site (%j) fails the build instead of shipping', (title, url) => {
    expect(() => siteName(title, url)).toThrow(CatalogueNameError);
  });
});

describe('first run', () => {
  let db: TestDb;
  let api: ApiHarness;
  const changes: string[][] = [];
  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache(), { onPublishersChanged: (c) => changes.push(c.added) });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });
  const post = (body: string, headers: Record<string, string> = {}) => api.get('/v1/catalogue', { 'content-type': 'application/json', ...headers }, 'POST', body);

  it('offers the catalogue while the node has no publishers, then adds an edition once', async () => {
    const before = await api.get('/v1/catalogue');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ first_run: true, publishers: 0, can_import: true, catalogue: { total: loadCatalogue().length } });
    expect(before.body.catalogue.editions).toContainEqual({ region: 'uk', publishers: expect.any(Number), adds: catalogueFor('uk').length });
    expect(before.body.sources).toEqual({ total: 0, polled: 0, ok: 0, failing: 0, reasons: [], offline: false });
    expect(validate(before.body, { $ref: '#/components/schemas/Catalogue' })).toEqual([]);

    expect((await post('{"region":"mars"}')).body.error.code).toBe('invalid_region');
    expect((await post('{"region":"uk","more":1}')).body.error.code).toBe('invalid_region');
    expect((await post('[')).body.error.code).toBe('invalid_json');

    const r = await post('{"region":"uk"}');
    expect(r.status).toBe(200);
    const want = catalogueFor('uk').length;
    expect(r.body).toEqual({ added: want, offered: want });
    expect(validate(r.body, { $ref: '#/components/schemas/CatalogueImport' })).toEqual([]);
    expect(changes.flat()).toHaveLength(want); // the publisher actors are told to start
    const stored = await listPublishers(db.sql, { limit: 1000 });
    expect(stored).toHaveLength(want);
    expect(stored.find((p) => p.feed_url === 'http://feeds.bbci.co.uk/news/rss.xml')).toMatchObject({ country: 'GB', region: 'uk' });

    // no longer a first run: nobody may add more without the admin token
    const after = await api.get('/v1/catalogue');
    expect(after.body).toMatchObject({ first_run: false, publishers: want, can_import: false });
    const again = await post('{"region":"all"}');
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('not_first_run');
  });

  it('with an admin token configured, adding always needs it', async () => {
    const guarded = await startApi(db.sql, new MemoryCache(), { adminToken: 'admin-token-0123456789' });
    try {
      expect((await guarded.get('/v1/catalogue', { 'content-type': 'application/json' }, 'POST', '{"region":"us"}')).status).toBe(401);
      const ok = await guarded.get('/v1/catalogue', { 'content-type': 'application/json', authorization: 'Bearer admin-token-0123456789' }, 'POST', '{"region":"us"}');
      expect(ok.status).toBe(200);
      expect(ok.body.added).toBeGreaterThan(0);
      expect(ok.body.added).toBeLessThan(ok.body.offered); // the global feeds were there already
    } finally {
      await guarded.close();
    }
  });
});

describe('start --catalogue', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await scratchPostgres();
  }, 60_000);
  afterAll(async () => db?.cleanup());
  const node = () => ({ sql: db.sql, log: silentLogger }) as unknown as Node;

  it('fills an empty database with the chosen edition, and leaves one with publishers alone', async () => {
    await catalogueComponent('mea', false).start!(node());
    const n = (await listPublishers(db.sql, { limit: 1000 })).length;
    expect(n).toBe(catalogueFor('mea').length);
    await catalogueComponent('all', false).start!(node());
    expect((await listPublishers(db.sql, { limit: 1000 })).length).toBe(n);
  });
});
