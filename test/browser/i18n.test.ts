import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The interface's language: English by default (whatever the browser asks, when it is not a
 * language of the catalogue), French from the footer's picker, kept across a reload, and the
 * browser's own language when nothing was chosen (the French page passing axe's WCAG 2.1 AA check).
 */
describe.skipIf(!chromiumAvailable)('the interface language (headless Chromium)', { timeout: 60_000 }, () => {
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
    ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'en-US' });
    page = await ctx.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  const navText = () => page.$$eval('#sections a', (els) => els.map((e) => e.textContent));

  it('is English by default, French once chosen in the footer, and stays French after a reload', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length > 0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect((await navText()).slice(0, 4)).toEqual(['Top stories', 'For you', 'Local', 'Saved']);
    expect(await page.textContent('.view-head h1')).toBe('Top stories');

    await page.selectOption('#lang', 'fr');
    await page.waitForFunction(() => document.documentElement.lang === 'fr' && document.querySelectorAll('.story-list > .story').length > 0);
    const fr = await navText();
    expect(fr.slice(0, 4)).toEqual(['À la une', 'Pour vous', 'Local', 'Enregistrés']);
    expect(fr).toContain('Économie');
    expect(await page.textContent('.view-head h1')).toBe('À la une');
    expect(await page.$$eval('#edition option', (els) => els.map((e) => e.textContent))).toContain('Royaume-Uni');
    expect(await page.textContent('.story .full-coverage')).toContain('Couverture complète');
    expect(await page.getAttribute('#q', 'placeholder')).toBe('Rechercher des sujets, des lieux et des sources');

    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('#sections a').length > 0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect((await navText())[0]).toBe('À la une');
    expect(await page.inputValue('#lang')).toBe('fr');

    // the shortcuts help, in French too (once the reloaded page has drawn its stories: the footer's
    // button is wired when the app starts, and a click before that does nothing)
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length > 0);
    await expect.poll(async () => {
      if (!(await page.isVisible('#help-title'))) await page.click('#shortcuts');
      return page.isVisible('#help-title');
    }, { timeout: 20_000, interval: 1_000 }).toBe(true);
    expect(await page.textContent('#help-title')).toBe('Raccourcis clavier');
    await page.keyboard.press('Escape');

    await page.selectOption('#lang', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect((await navText())[0]).toBe('Top stories');
    expect(pageErrors).toEqual([]);
  });

  it("follows the browser's language when nothing was chosen", async () => {
    const frCtx = await browser.newContext({ locale: 'fr-FR', bypassCSP: true, reducedMotion: 'reduce' }); // bypassCSP: axe is injected inline
    const p = await frCtx.newPage();
    await p.goto(api.url + '/saved');
    await p.waitForFunction(() => document.querySelectorAll('#sections a').length > 0);
    expect(await p.evaluate(() => document.documentElement.lang)).toBe('fr');
    expect(await p.textContent('.view-head h1')).toBe('Enregistrés');
    // the French front page passes the same WCAG 2.1 A/AA check as the English one (a11y.test.ts)
    await p.goto(api.url + '/');
    await p.waitForFunction(() => document.querySelectorAll('.story-list > .story').length > 0);
    await p.addScriptTag({ content: AXE });
    const found: { id: string; impact: string }[] = await p.evaluate(async () =>
      (await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })).violations);
    expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await frCtx.close();
  });
});
