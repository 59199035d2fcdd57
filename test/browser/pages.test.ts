import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { catalogueFor, loadCatalogue } from '../../src/actors/publisher/catalogue.js';
import { QUAKE, chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;

const ADMIN = 'browser-admin-token-0123456789';

describe.skipIf(!chromiumAvailable)('pages of the web UI in headless Chromium', { timeout: 90_000 }, () => {
  let db: TestDb;
  let api: ApiHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache(), { adminToken: ADMIN });
    await seedNewsroom(db.sql, api.dataDir);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  async function fresh(width = 1200): Promise<Page> {
    await page?.context().close();
    // no service worker here: these tests answer API calls with page.route, which never sees a request the worker handles
    page = await browser.newPage({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    return page;
  }
  const cardIds = (sel = '.story-list > [data-story-id]') => page.$$eval(sel, (els) => els.map((e) => e.getAttribute('data-story-id') ?? ''));
  const cardsLoaded = (n = 1) => page.waitForFunction((k) => document.querySelectorAll('.story-list > .story').length >= k, n);

  it('keeps the view through reload and Back: topic and edition, a story page, a search', async () => {
    await fresh();
    await page.goto(`${api.url}/?region=us&category=technology`);
    await cardsLoaded();
    const technology = await cardIds();
    expect(technology.length).toBeGreaterThan(0);
    await page.reload();
    await cardsLoaded();
    expect(await cardIds()).toEqual(technology);
    expect(await page.locator('#edition').inputValue()).toBe('us');
    expect(await page.locator('#sections a[aria-current="page"]').textContent()).toBe('Technology');

    // into a story: a page of its own
    await page.click('#sections a[data-section="top"]');
    await page.waitForURL(/\/\?region=us$|\/$/);
    await page.waitForFunction((id) => !!document.querySelector(`.story-list > [data-story-id="${id}"]`), QUAKE.id);
    const top = await cardIds();
    const fourth = page.locator('.story-list > .story').nth(3);
    await fourth.locator('.full-coverage').scrollIntoViewIfNeeded();
    const y = await page.evaluate(() => window.scrollY);
    expect(y).toBeGreaterThan(200);
    await fourth.locator('.full-coverage').click();
    await page.waitForURL(new RegExp(`/story/${top[3]}\\?region=us$`)); // the edition goes along
    const storyUrl = page.url();
    await page.waitForSelector('.story-view .story-head h1');
    await page.reload();
    await page.waitForSelector('.story-view .story-head h1');
    expect(page.url()).toBe(storyUrl);
    expect(await page.locator('#edition').inputValue()).toBe('us');

    // Back: the same stories, at the same place
    await page.goBack();
    await cardsLoaded();
    // the same stories in the same order (the kept view may have loaded its next page meanwhile)
    expect((await cardIds()).slice(0, top.length)).toEqual(top);
    await page.waitForFunction((want) => Math.abs(window.scrollY - want) < 5, y);

    // a search, reloaded, then Back to the front page
    await page.fill('#q', 'earthquake');
    await page.press('#q', 'Enter');
    await page.waitForURL(/\/search\?q=earthquake&region=us$/);
    await page.waitForSelector('.search-view .story');
    await page.reload();
    await page.waitForSelector('.search-view .story');
    expect(await page.locator('#q').inputValue()).toBe('earthquake');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/');
    await cardsLoaded();
    expect(pageErrors).toEqual([]);
  });

  it('Full Coverage is a page: the lead, a timeline, top coverage, coverage by region, every article with its snippet', async () => {
    await fresh();
    await page.goto(`${api.url}/story/${QUAKE.id}`);
    await page.waitForSelector('.story-view .cov-all');
    expect(await page.locator('.story-view').getAttribute('data-story-id')).toBe(QUAKE.id);
    expect(await page.locator('.story-head h1').textContent()).toBe(QUAKE.title);
    expect(await page.locator('.story-head .coverage-count').textContent()).toBe('7');
    expect(await page.title()).toContain(QUAKE.title);
    // the sections, in the order the page reads
    const sections = await page.$$eval('.story-view > *', (els) => els.map((e) => e.className));
    expect(sections).toEqual(['story-head', 'cov-lead has-thumb', 'cov-section cov-timeline', 'cov-section cov-top', 'cov-section cov-regions', 'cov-section cov-all']);
    expect(await page.locator('.cov-lead').getAttribute('data-article-id')).toBe(QUAKE.lead);
    await page.waitForFunction(() => {
      const i = document.querySelector('.cov-lead img');
      return !!i && i.complete && i.naturalWidth > 0;
    });
    // the timeline starts with the first report and runs in time order
    const timeline = await page.$$eval('.timeline li', (els) => els.map((e) => [e.getAttribute('data-article-id'), e.querySelector('time')?.getAttribute('datetime')]));
    expect(timeline[0]![0]).toBe('q-first');
    expect(await page.locator('.timeline li').first().locator('.tl-tag').textContent()).toBe('First report');
    const times = timeline.map((t) => Date.parse(t[1]!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // top coverage: other outlets, the most authoritative first, never the lead or a copy
    const top = await page.$$eval('.cov-top .mini', (els) => els.map((e) => e.getAttribute('data-article-id')));
    expect(top[0]).toBe('q-aid'); // tier 1
    expect(top).not.toContain(QUAKE.lead);
    expect(top).not.toContain('q-copy');
    // regions, most covered first, wire copy counted where it ran
    const regions = await page.$$eval('.region h3', (els) => els.map((e) => e.firstChild?.textContent));
    expect(regions).toEqual(['United States', 'Asia-Pacific', 'United Kingdom']);
    // every article with its snippet; the copy folded under the report it copies
    const rows = await page.$$eval('.all-articles > li', (els) => els.map((e) => e.getAttribute('data-article-id')));
    expect(rows).toEqual(['q-rebuild', 'q-aftershock', 'q-aid', 'q-rescue', QUAKE.lead, 'q-first']);
    expect(await page.locator('.all-articles > li[data-article-id="q-rescue"] .copies').textContent()).toBe(`Also carried by ${QUAKE.publishers[3]}`);
    expect(await page.locator('.all-articles > li[data-article-id="q-aid"] .summary').textContent()).toContain('Report q-aid');
    // a story that does not exist says so, with a way back
    await page.goto(`${api.url}/story/no-such-story`);
    await page.waitForSelector('.story-view .status.error');
    expect(await page.locator('.story-view .status.error').textContent()).toContain('This story is not here');
    expect(pageErrors).toEqual([]);
  });

  it('search lists each story once, with how many of its articles matched, and says "No results for" when nothing does', async () => {
    await fresh();
    await page.goto(`${api.url}/search?q=earthquake`);
    await page.waitForSelector('.search-view .story');
    await page.waitForFunction(() => document.querySelector('.search-view .status')?.textContent === 'No more results.');
    const cards = await page.$$eval('.search-view .story', (els) =>
      els.map((e) => [e.getAttribute('data-story-id'), e.getAttribute('data-article-id'), e.querySelector('.matches')?.textContent ?? null]));
    const stories = cards.map((c) => c[0]);
    expect(stories.filter((s) => s === QUAKE.id)).toHaveLength(1);
    expect(stories.filter((s) => s === 'drill')).toHaveLength(1);
    expect(cards).toHaveLength(3); // quake, drill, and the lone article
    expect(cards.find((c) => c[0] === QUAKE.id)![2]).toBe('6 matching articles'); // its wire copy is not searched
    expect(cards.find((c) => c[0] === 'drill')![2]).toBe('2 matching articles');
    expect(cards.find((c) => c[0] === null)![1]).toBe('lone');
    expect(await page.locator('.search-view .story[data-story-id="drill"] .coverage-count').textContent()).toBe('2');

    await page.fill('#q', 'zeppelin');
    await page.press('#q', 'Enter');
    await page.waitForFunction(() => document.querySelector('.search-view h1')?.textContent === 'No results for “zeppelin”');
    expect(await page.locator('.search-view .story').count()).toBe(0);
    expect(await page.locator('.search-view .empty').isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('For you shows follow/hide controls, and says clearly when this server keeps no reader profiles', async () => {
    await fresh();
    await page.goto(`${api.url}/for-you`);
    await page.waitForSelector('.interests .topic-toggles');
    await cardsLoaded();
    expect(await page.locator('#sections a[aria-current="page"]').textContent()).toBe('For you');
    const toggles = page.locator('.interests .topic-toggles button');
    expect(await toggles.count()).toBe(16); // follow and hide for each of the eight topics
    expect(await page.locator('.story-list .story .card-menu').count()).toBeGreaterThan(0);
    const me = await page.evaluate(async () => (await fetch('/v1/me')).status);
    if (me === 404) {
      expect(await page.locator('.interests .notice').textContent()).toContain('Personalisation is not available on this server');
      expect(await toggles.first().isDisabled()).toBe(true);
      // top stories stand in for the personal feed
      expect((await cardIds())[0]).toBe(QUAKE.id);
    } else {
      // a node with reader profiles: following a topic is saved and shown
      await page.click('.topic-toggles button.follow[data-value="science"]');
      await page.waitForFunction(() => document.querySelector('.topic-toggles button.follow[data-value="science"]')?.getAttribute('aria-pressed') === 'true');
      const saved = await page.evaluate(async () => ((await (await fetch('/v1/me')).json()) as { follow: { categories: string[] } }).follow.categories);
      expect(saved).toContain('science');
    }
    expect(pageErrors).toEqual([]);
  });

  it('For you against a node with reader profiles: replaces the interests with PUT /v1/me and reads the personal feed', async () => {
    // the reader endpoints as the contract describes them, answered here so this branch's page can be checked against them
    await fresh();
    let saved: any = { follow: { categories: ['world'], entities: ['Ada Lovelace'], publishers: [], places: [] }, hide: { categories: [], entities: [], publishers: [], places: ['Atlantis'] } };
    const puts: any[] = [];
    let feedQuery = '';
    await page.route('**/v1/me', async (route) => {
      if (route.request().method() === 'PUT') {
        saved = route.request().postDataJSON();
        puts.push(saved);
      }
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ reader_id: 'r-1', ...saved, history_size: 3 }) });
    });
    await page.route((u) => u.pathname === '/v1/feed', async (route) => {
      const u = new URL(route.request().url());
      if (u.searchParams.get('for') !== 'me') return route.continue();
      feedQuery = u.search;
      await route.continue({ url: `${api.url}/v1/feed?category=world` });
    });
    await page.goto(`${api.url}/for-you`);
    await cardsLoaded();
    expect(feedQuery).toBe('?for=me&related=true'); // cards show headlines of other publishers
    expect(await page.locator('.topic-toggles button.follow[data-value="world"]').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.interests .chips').first().textContent()).toContain('Ada Lovelace');
    expect(await page.locator('.interests .chip.hide').textContent()).toContain('Atlantis');

    // hide a topic: the whole interests go in one PUT; hiding a followed topic unfollows it
    await page.click('.topic-toggles button.hide[data-value="world"]');
    await page.waitForFunction(() => document.querySelector('.topic-toggles button.hide[data-value="world"]')?.getAttribute('aria-pressed') === 'true');
    expect(puts.at(-1)).toEqual({
      follow: { categories: [], entities: ['Ada Lovelace'], publishers: [], places: [] },
      hide: { categories: ['world'], entities: [], publishers: [], places: ['Atlantis'] },
    });
    // a card's menu: fewer from this publisher (by id)
    const card = page.locator('.story-list .story').first();
    const pub = await card.locator('.lead .publisher').textContent();
    await card.locator('.card-menu summary').click();
    await card.locator('.card-menu button', { hasText: `Fewer from ${pub}` }).click();
    await page.waitForFunction((n) => [...document.querySelectorAll('.interests .chip.hide')].some((c: any) => c.textContent.includes(n)), pub);
    expect(puts.at(-1).hide.publishers).toHaveLength(1);
    expect(puts.at(-1).hide.publishers[0]).toMatch(/^p\d|^qp\d|^dp$/);
    // a place typed in
    await page.fill('.add-interest input', 'Lisbon');
    await page.selectOption('.add-interest select', 'places');
    await page.click('.add-interest button[type="submit"]');
    await page.waitForFunction(() => [...document.querySelectorAll('.interests .chip.follow')].some((c: any) => c.textContent.includes('Lisbon')));
    expect(puts.at(-1).follow.places).toEqual(['Lisbon']);
    expect(pageErrors).toEqual([]);
  });

  it('For you says which place or name the server does not know, and saves the ones it does', async () => {
    await fresh();
    await page.goto(`${api.url}/for-you`);
    await page.waitForSelector('.interests .add-interest input:not([disabled])');
    const notice = () => page.textContent('.interests .notice');
    await page.fill('.add-interest input', 'Atlantis');
    await page.selectOption('.add-interest select', 'places');
    await page.click('.add-interest button[type="submit"]');
    await page.waitForFunction(() => (document.querySelector('.interests .notice')?.textContent ?? '').startsWith('Not saved'));
    expect(await notice()).toContain('unknown place: follow.places "Atlantis"');
    expect(await page.locator('.interests .chip.follow').count()).toBe(0);
    await page.fill('.add-interest input', 'Lisbon');
    await page.click('.add-interest button[type="submit"]');
    await page.waitForFunction(() => [...document.querySelectorAll('.interests .chip.follow')].some((c: any) => c.textContent.includes('Lisbon')));
    expect(await notice()).toContain('Saved');
    expect(pageErrors).toEqual([]);
  });

  it('the admin page: token kept for the tab, add a feed, import OPML, publisher health', async () => {
    // a publisher that skipped entries on purpose (older than retention) says so under its articles
    await db.sql.query(`UPDATE publishers SET state = '{"skipped": 3}'::jsonb WHERE id = 'qp3'`);
    await fresh();
    await page.goto(`${api.url}/admin`);
    await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').includes('Enter the admin token'));
    await page.fill('.token-form input', 'wrong-token');
    await page.click('.token-form button[type="submit"]');
    await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').includes('The token was refused'));
    await page.fill('.token-form input', ADMIN);
    await page.click('.token-form button[type="submit"]');
    await page.waitForSelector('.publishers tbody tr[data-publisher-id="qp4"]');
    expect(await page.locator('.publishers tbody tr[data-publisher-id="qp4"] .pub-name').textContent()).toBe(QUAKE.publishers[4]);
    expect(await page.locator('.publishers tbody tr[data-publisher-id="qp4"] .health').textContent()).toBe('Not polled yet');
    expect(await page.locator('.publishers tbody tr[data-publisher-id="qp3"] td.num').textContent()).toMatch(/3 skipped$/);
    expect(await page.locator('.publishers tbody tr[data-publisher-id="qp4"] td.num').textContent()).not.toMatch(/skipped/);

    await page.fill('.add-source input[name="url"]', 'https://new-source.example/rss.xml');
    await page.fill('.add-source input[name="name"]', 'New Source Daily');
    await page.click('.add-source button[type="submit"]');
    await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').startsWith('Added New Source Daily'));
    // the same feed again: the server's reason is shown
    await page.fill('.add-source input[name="url"]', 'https://new-source.example/rss.xml');
    await page.click('.add-source button[type="submit"]');
    await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').includes('already exists'));

    const opml = '<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>'
      + '<outline text="Opml One" xmlUrl="https://opml-one.example/feed"/><outline text="Broken" xmlUrl="ftp://nope"/></body></opml>';
    await page.setInputFiles('.opml-form input[type="file"]', { name: 'feeds.opml', mimeType: 'text/x-opml', buffer: Buffer.from(opml) });
    await page.click('.opml-form button[type="submit"]');
    await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').startsWith('Imported: 1 added'));
    expect(await page.locator('.admin-view > .notice').textContent()).toContain('1 refused');
    const { rows } = await db.sql.query<{ name: string }>("SELECT name FROM publishers WHERE feed_url IN ('https://new-source.example/rss.xml', 'https://opml-one.example/feed') ORDER BY name");
    expect(rows.map((r) => r.name)).toEqual(['New Source Daily', 'Opml One']);

    // the token stays for this tab: a reload lists publishers at once
    await page.reload();
    await page.waitForSelector('.publishers tbody tr[data-publisher-id]');
    expect(pageErrors).toEqual([]);
  });

  it('an empty node says how to add sources', async () => {
    const emptyDb = await scratchPostgres();
    const empty = await startApi(emptyDb.sql, new MemoryCache());
    try {
      await fresh();
      await page.goto(empty.url + '/');
      await page.waitForSelector('.sources-help');
      const text = await page.locator('.sources-help').textContent();
      expect(text).toContain('No stories yet');
      // the command as it runs after npm ci (no newsagg on the PATH)
      for (const how of ['admin page', '--admin-token', '--opml', 'npx newsagg import-opml feeds.opml', 'npx newsagg import-opml --help', '--demo']) expect(text).toContain(how);
      if ((await page.evaluate(async () => (await fetch('/v1/catalogue')).status)) === 404) expect(await page.locator('.sources-help .catalogue').count()).toBe(0);
      else {
        // the real catalogue: each edition's button says how many publishers it adds (its own and the international ones)
        await page.waitForSelector('.sources-help .catalogue button[data-region="uk"]');
        const uk = catalogueFor('uk').length;
        expect(await page.textContent('.catalogue button[data-region="uk"]')).toBe(`United Kingdom · ${uk} publishers`);
        expect(uk).toBeGreaterThan(loadCatalogue().filter((e) => e.region === 'uk').length);
        expect(await page.locator('.sources-status').count()).toBe(0); // no sources yet: nothing to report
      }

      // a node that ships the publisher catalogue (as the readers' branch answers /v1/catalogue): the empty page offers it
      const posted: unknown[] = [];
      await page.route((u) => u.pathname === '/v1/catalogue', async (route) => {
        if (route.request().method() === 'POST') {
          posted.push(route.request().postDataJSON());
          return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ added: 41, offered: 45 }) });
        }
        const editions = [{ region: 'us', publishers: 60, adds: 90 }, { region: 'uk', publishers: 45, adds: 75 }, { region: 'mea', publishers: 0, adds: 30 }, { region: 'global', publishers: 30, adds: 30 }];
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ first_run: true, publishers: 0, can_import: true, catalogue: { total: 135, editions }, sources }) });
      });
      let sources: unknown = { total: 0, polled: 0, ok: 0, failing: 0, reasons: [], offline: false };
      await page.reload();
      await page.waitForSelector('.sources-help .catalogue');
      expect(await page.locator('.sources-help').textContent()).toContain('--catalogue us');
      expect(await page.$$eval('.catalogue button', (els) => els.map((e) => e.textContent))).toEqual(['United States · 90 publishers', 'United Kingdom · 75 publishers', 'International · 30 publishers', 'All · 135 publishers']);

      // sources added on a machine without network: the page says so, and why, instead of only "No stories yet"
      sources = { total: 149, polled: 149, ok: 0, failing: 149, reasons: [{ reason: 'dns', publishers: 149, message: 'host names do not resolve (no DNS answer): is this machine off-line, or its DNS server unreachable?' }], offline: true };
      await page.reload();
      await page.waitForSelector('.sources-status[data-state="offline"]');
      const status = await page.textContent('.sources-status');
      expect(status).toContain('This node cannot reach the internet');
      expect(status).toContain('149 sources are set up, 149 have been tried and none answered');
      expect(status).toContain('149 sources: host names do not resolve');
      expect(status).toContain('--demo');
      sources = { total: 149, polled: 149, ok: 100, failing: 49, reasons: [{ reason: 'http_error', publishers: 49, message: 'the servers answered with an HTTP error' }], offline: false };
      await page.reload();
      await page.waitForSelector('.sources-status[data-state="some-failing"]');
      expect(await page.textContent('.sources-status')).toContain('149 sources: 100 answering, 49 failing');
      await page.click('.catalogue button[data-region="uk"]');
      await page.waitForFunction(() => (document.querySelector('.catalogue .notice')?.textContent ?? '').startsWith('Added 41 of 45 publishers'));
      expect(posted).toEqual([{ region: 'uk' }]);
      await page.unroute((u) => u.pathname === '/v1/catalogue');
      await page.click('.sources-help a[href="/admin"]');
      await page.waitForURL(/\/admin$/);
      // this node was started without an admin token: its admin routes are off, and the page says how to turn them on
      await page.fill('.token-form input', 'anything');
      await page.click('.token-form button[type="submit"]');
      await page.waitForFunction(() => (document.querySelector('.admin-view > .notice')?.textContent ?? '').includes('start it with --admin-token'));
    } finally {
      await empty.close();
      await emptyDb.cleanup();
    }
  });
});
