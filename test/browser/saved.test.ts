import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { QUAKE, chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

/** Saving stories in the browser (card button, `s` shortcut, Full Coverage) and finding them under Saved; choosing a Local city. */
describe.skipIf(!chromiumAvailable)('saved stories in headless Chromium', { timeout: 60_000 }, () => {
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
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  const savedIds = () => page.$$eval('.saved-list > [data-story-id]', (els) => els.map((e) => e.getAttribute('data-story-id') ?? ''));

  it('saves a story from its card and finds it under Saved', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
    const save = page.locator(`.story[data-story-id="${QUAKE.id}"] button.save-story`);
    expect(await save.getAttribute('aria-pressed')).toBe('false');
    await save.click();
    await page.waitForFunction((id: string) => document.querySelector(`.story[data-story-id="${id}"] button.save-story`)?.getAttribute('aria-pressed') === 'true', QUAKE.id);
    expect(await page.locator('#save-status').textContent()).toContain('Saved');
    await page.locator('#sections a[data-section="saved"]').click();
    await page.waitForURL(/\/saved$/);
    await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length > 0);
    expect(await savedIds()).toEqual([QUAKE.id]);
    expect(await page.locator('#sections a[aria-current="page"]').textContent()).toBe('Saved');
  });

  it('`s` saves the story in focus; Full Coverage saves too; all of them are under Saved after a reload', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
    const second = await page.$$eval('.story-list > .story', (els) => els[1]!.getAttribute('data-story-id') ?? '');
    expect(second).not.toBe(QUAKE.id);
    await page.locator(`.story[data-story-id="${second}"] .headline a`).focus();
    await page.keyboard.press('s');
    await page.waitForFunction((id: string) => document.querySelector(`.story[data-story-id="${id}"] button.save-story`)?.getAttribute('aria-pressed') === 'true', second);
    // Full Coverage of a third story: its Save button, and the page marks the story read
    const third = await page.$$eval('.story-list > .story', (els) => els[2]!.getAttribute('data-story-id') ?? '');
    await page.goto(api.url + '/story/' + third);
    const save = page.locator('.story-head button.save-story');
    await save.waitFor();
    await save.click();
    await page.waitForFunction(() => document.querySelector('.story-head button.save-story')?.getAttribute('aria-pressed') === 'true');
    await page.goto(api.url + '/saved');
    await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 3);
    expect(await savedIds()).toEqual([third, second, QUAKE.id]);
    // the Full Coverage visit marked it read, for the same reader (the cookie)
    const read = await page.evaluate(() => fetch('/v1/me/read').then((r: any) => r.json()));
    expect(read.story_ids).toContain(third);
    // unsaving on the Saved page takes the card away
    await page.locator(`.saved-list .story[data-story-id="${second}"] button.save-story`).click();
    await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 2);
    expect(await savedIds()).toEqual([third, QUAKE.id]);
    expect(pageErrors).toEqual([]);
  });

  it('Local: the reader chooses a city by name; the choice is kept with the reader', async () => {
    await page.goto(api.url + '/local');
    await page.waitForFunction(() => /Choose your city/.test(document.querySelector('.local-view .status')?.textContent ?? ''));
    await page.locator('#local-city').fill('Lyon');
    await page.locator('.local-choose button[type="submit"]').click();
    await page.waitForFunction(() => document.querySelector('.local-view h1')?.textContent === 'Local · Lyon');
    expect(await page.locator('#local-city').inputValue()).toBe('Lyon, France');
    const me = await page.evaluate(() => fetch('/v1/me/local').then((r: any) => r.json()));
    expect(me.city.id).toBe('fr-lyon');
    // a reload shows the same city
    await page.reload();
    await page.waitForFunction(() => document.querySelector('.local-view h1')?.textContent === 'Local · Lyon');
    expect(await page.locator('#sections a[aria-current="page"]').textContent()).toBe('Local');
    expect(pageErrors).toEqual([]);
  });
});
