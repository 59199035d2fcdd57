import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { SCRIPT_TITLE } from '../api/fixtures.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { QUAKE, chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

// The callbacks below run inside the page; the project's TypeScript has no DOM library, so the
// few browser globals they use are declared loosely here.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare class CustomEvent {
  constructor(type: string, init?: unknown);
}

describe.skipIf(!chromiumAvailable)('front page in headless Chromium', { timeout: 60_000 }, () => {
  let db: TestDb;
  let api: ApiHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache());
    await seedNewsroom(db.sql, api.dataDir);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    // what the live module would hear
    await page.addInitScript(() => {
      window.__views = [];
      document.addEventListener('newsagg:view', (e: any) => window.__views.push(e.detail));
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  const storyIds = () => page.$$eval('.story-list > [data-story-id]', (els) => els.map((e) => e.getAttribute('data-story-id') ?? ''));
  const views = () => page.evaluate(() => window.__views as { region: string; category: string; storyId: string | null }[]);

  it('shows top stories as cards: publisher text as text, relative times, a loaded thumbnail, headlines of other publishers under the lead', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 20);
    const ids = await storyIds();
    expect(ids[0]).toBe(QUAKE.id); // the freshest, most covered story leads
    expect(await page.$$eval('#feed > [data-story-id]', (els) => els.length)).toBe(ids.length); // one #feed: the list on screen
    const xss = page.locator('.story[data-story-id="xss"] .headline a');
    expect(await xss.textContent()).toBe(SCRIPT_TITLE);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.querySelectorAll('#view b, #view script').length)).toBe(0);
    for (const t of await page.$$eval('.story time', (els) => els.map((e) => e.textContent ?? ''))) expect(t).toMatch(/ago|yesterday|now|in |tomorrow|\d/);
    // the live module before the app (each stamped with the build's digest)
    expect(await page.evaluate(() => [...document.querySelectorAll('script')].map((s) => (s.getAttribute('src') ?? '').replace(/\?v=.*$/, '')))).toEqual(['/live.js', '/app.js']);
    await page.waitForFunction(() => {
      const i = document.querySelector('.story[data-story-id="quake"] img.thumb');
      return !!i && i.complete && i.naturalWidth > 0;
    });
    // the lead's headline links to the publisher through the click redirect; other outlets' headlines sit under it
    const quake = page.locator('.story[data-story-id="quake"]');
    expect(await quake.locator('.lead .headline a').getAttribute('href')).toBe(`/r/${QUAKE.lead}`);
    const related = await quake.locator('.related li').evaluateAll((els) => els.map((e) => [e.querySelector('.publisher')?.textContent, e.querySelector('a')?.getAttribute('href')]));
    expect(related.length).toBeGreaterThanOrEqual(2);
    expect(related.length).toBeLessThanOrEqual(3);
    expect(related.map((r) => r[0])).not.toContain('Harbour Times'); // the lead's own publisher
    for (const [, href] of related) expect(href).toMatch(/^\/r\/q-/);
    // the live module's contract: the count alone in .coverage-count, inside the card that names the story
    expect(await quake.locator('.coverage-count').textContent()).toBe('7');
    expect(await page.locator('#sections a[aria-current="page"]').textContent()).toBe('Top stories');
    expect(await views()).toEqual([{ region: 'global', category: 'top', storyId: null }]);
  });

  it('scrolls further pages in without repeating a story', async () => {
    for (const want of [40, 60]) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForFunction((n) => document.querySelectorAll('.story-list > .story').length >= n, want);
    }
    const ids = await storyIds();
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('switches topic and edition with real URLs, and tells the live module each time', async () => {
    await page.click('#sections a[data-section="science"]');
    await page.waitForURL(/\/\?category=science$/);
    await page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('.story-list > .story')];
      return cards.length > 0 && cards.every((c: any) => c.querySelector('.topic')?.textContent === 'Science');
    });
    await page.selectOption('#edition', 'uk');
    await page.waitForURL(/\/\?region=uk&category=science$/);
    await page.waitForFunction(() => document.querySelector('.view-head .sub')?.textContent?.startsWith('United Kingdom · '));
    expect((await views()).slice(-2)).toEqual([
      { region: 'global', category: 'science', storyId: null },
      { region: 'uk', category: 'science', storyId: null },
    ]);
  });

  it('reloads the current view when the live module asks (newsagg:refresh)', async () => {
    await page.evaluate(() => document.querySelector('.story-list').setAttribute('data-old', '1'));
    await page.evaluate(() => document.dispatchEvent(new CustomEvent('newsagg:refresh')));
    await page.waitForFunction(() => {
      const list = document.querySelector('.story-list');
      return !!list && !list.hasAttribute('data-old') && list.children.length > 0;
    });
    expect(page.url()).toMatch(/\/\?region=uk&category=science$/);
    expect(pageErrors).toEqual([]);
  });

  it('on a phone: one column, cards and the Full Coverage link still there', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(api.url + '/');
      await phone.waitForFunction(() => document.querySelectorAll('.story-list > .story').length > 0);
      const box = await phone.locator('.story-list > .story').first().boundingBox();
      expect(box!.width).toBeGreaterThan(330);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await phone.locator('.story-list > .story .full-coverage').first().isVisible()).toBe(true);
    } finally {
      await phone.close();
    }
  });
});
