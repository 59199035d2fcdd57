import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { QUAKE, chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const navigator: any;
declare const window: any;

/**
 * The app a person keeps: keyboard shortcuts (j/k/o, /, ? and Escape, none while typing), the
 * web app manifest, and offline reading through the service worker (the last front page and the
 * saved stories after the network is gone, and a saved story's Full Coverage page opened before,
 * with the offline notice).
 */
describe.skipIf(!chromiumAvailable)('the web app: shortcuts, manifest, offline (headless Chromium)', { timeout: 60_000 }, () => {
  let db: TestDb;
  let api: ApiHarness;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache());
    await seedNewsroom(db.sql, api.dataDir);
    browser = await launch();
    ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await ctx.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  const focusedId = () => page.evaluate(() => document.activeElement?.closest('article.story')?.getAttribute('data-story-id') ?? null);
  const cardIds = () => page.$$eval('#view article.story', (els) => els.map((e) => e.getAttribute('data-story-id')));

  it('j and k move the focus from card to card (outlined), o opens the focused story', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
    const ids = await cardIds();
    await page.keyboard.press('j');
    expect(await focusedId()).toBe(ids[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await focusedId()).toBe(ids[2]);
    await page.keyboard.press('k');
    expect(await focusedId()).toBe(ids[1]);
    const outline = await page.evaluate(() => window.getComputedStyle(document.activeElement).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp('/story/' + ids[1] + '$'));
    await page.waitForSelector(`.story-view[data-story-id="${ids[1]}"]`);
  });

  it('/ focuses search, and shortcuts typed there are text; ? lists the shortcuts, Escape closes', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('jko?');
    expect(await page.inputValue('#q')).toBe('jko?');
    expect(await page.locator('#help').count()).toBe(0);
    expect(page.url()).toBe(api.url + '/');
    await page.locator('#q').blur();
    await page.keyboard.press('?');
    const help = page.locator('#help [role="dialog"]');
    await help.waitFor({ state: 'visible' });
    const text = await help.textContent();
    for (const k of ['Next story', 'Previous story', 'Open the focused story', 'Search', 'Save']) expect(text).toContain(k);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('help-close');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    // the footer button opens it too (the keyboard-free way)
    await page.locator('#shortcuts').click();
    await help.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('serves a valid web app manifest, linked from the page, with an icon', async () => {
    const href = await page.getAttribute('link[rel="manifest"]', 'href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await fetch(api.url + href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const m = await res.json() as { name: string; short_name: string; start_url: string; display: string; theme_color: string; background_color: string; icons: { src: string; type: string; sizes: string }[] };
    expect(m.name).toBe('newsagg');
    expect(m.start_url).toBe('/');
    expect(m.display).toBe('standalone');
    expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(m.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(m.icons.length).toBeGreaterThan(0);
    for (const i of m.icons) {
      const icon = await fetch(new URL(i.src, api.url));
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe(i.type);
      expect(await icon.text()).toMatch(/^<svg /);
    }
    expect(await page.locator('meta[name="theme-color"]').count()).toBe(2);
    // the service worker is served whether push is on or not, from the root
    const sw = await fetch(api.url + '/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it('offline: the last front page and the saved stories still show, with the offline notice', async () => {
    // save a story, read the front page and Saved once online (the worker keeps them)
    await page.goto(api.url + '/');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
    const ids = await cardIds();
    await page.locator(`.story[data-story-id="${QUAKE.id}"] button.save-story`).click();
    await page.waitForFunction((id: string) => document.querySelector(`.story[data-story-id="${id}"] button.save-story`)?.getAttribute('aria-pressed') === 'true', QUAKE.id);
    await page.goto(api.url + '/story/' + QUAKE.id);
    await page.waitForSelector('.all-articles li');
    await page.goto(api.url + '/saved');
    await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 1);
    expect(await page.locator('#offline').isHidden()).toBe(true);

    await ctx.setOffline(true);
    try {
      await page.goto(api.url + '/');
      await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
      expect((await cardIds()).slice(0, 10)).toEqual(ids.slice(0, 10));
      await page.locator('#offline').waitFor({ state: 'visible' });
      expect(await page.locator('#offline').textContent()).toContain('offline');
      // in-app to Saved, then a reload of Saved
      await page.locator('#sections a[data-section="saved"]').click();
      await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 1);
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 1);
      expect(await page.$$eval('.saved-list > [data-story-id]', (els) => els.map((e) => e.getAttribute('data-story-id')))).toEqual([QUAKE.id]);
      await page.locator('#offline').waitFor({ state: 'visible' });
      // the saved story's Full Coverage page, opened once online, opens offline too
      await page.locator(`.saved-list .story[data-story-id="${QUAKE.id}"] a.full-coverage`).click();
      await page.waitForSelector('.all-articles li');
      expect(await page.textContent('.story-head h1')).toBe(QUAKE.title);
      // a page never kept says it cannot be reached, with the notice still there
      await page.goto(api.url + '/?category=sports');
      await page.locator('#offline').waitFor({ state: 'visible' });
    } finally {
      await ctx.setOffline(false);
    }
    // back online: a fresh answer takes the notice away
    await page.goto(api.url + '/saved');
    await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 1);
    await page.locator('#offline').waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });
});
