import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { QUAKE, chromiumAvailable, launch, seedNewsroom } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;

/**
 * WCAG 2.1 A and AA on every page: axe-core (all its rules of those levels, injected as in
 * contrast.test.ts) finds no serious or critical violation on the front page, Full Coverage,
 * search, For you, Saved and admin, in light and in dark, nor with the shortcuts dialog or the
 * offline notice open;
 * and every control of the front page is reached with Tab.
 */
const TOKEN = 'a11y-admin-token-0123456789abcdef';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.skipIf(!chromiumAvailable)('accessibility of the web UI (axe-core, headless Chromium)', { timeout: 120_000 }, () => {
  let db: TestDb;
  let api: ApiHarness;
  let browser: Browser;

  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache(), { adminToken: TOKEN });
    await seedNewsroom(db.sql, api.dataDir);
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  async function open(scheme: 'light' | 'dark'): Promise<{ ctx: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width: 1200, height: 900 }, bypassCSP: true, reducedMotion: 'reduce' });
    await ctx.addInitScript((t: string) => window.sessionStorage.setItem('newsagg_admin_token', t), TOKEN);
    const page = await ctx.newPage();
    page.setDefaultTimeout(20_000);
    return { ctx, page };
  }

  /** Serious and critical WCAG 2.1 A/AA violations on the page, as `rule: target (help)`. */
  async function violations(page: Page, where: string): Promise<string[]> {
    if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: AXE });
    const found: Violation[] = await page.evaluate(async () => {
      const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
      return r.violations;
    });
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${where} ${v.id}: ${n.target.join(' ')} (${v.help})`));
  }

  it.each(['light', 'dark'] as const)('no serious or critical violation on any page (%s)', async (scheme) => {
    const { ctx, page } = await open(scheme);
    try {
      const found: string[] = [];
      await page.goto(api.url + '/');
      await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
      await page.waitForSelector('.side .rank-list li');
      // the check can fail: a picture without a text alternative (critical) is found
      await page.evaluate(() => document.getElementById('view').append(Object.assign(document.createElement('img'), { id: 'planted', src: '/icon.svg' })));
      expect((await violations(page, '/')).join('\n')).toContain('image-alt: #planted');
      await page.evaluate(() => document.getElementById('planted').remove());
      found.push(...await violations(page, '/'));
      await page.keyboard.press('?');
      await page.locator('#help [role="dialog"]').waitFor({ state: 'visible' });
      found.push(...await violations(page, '/ (shortcuts)'));
      await page.keyboard.press('Escape');
      // the offline notice, as the browser going offline shows it
      await page.evaluate(() => window.dispatchEvent(new Event('offline')));
      await page.locator('#offline').waitFor({ state: 'visible' });
      found.push(...await violations(page, '/ (offline notice)'));

      await page.locator(`.story[data-story-id="${QUAKE.id}"] button.save-story`).click();
      await page.waitForFunction((id: string) => document.querySelector(`.story[data-story-id="${id}"] button.save-story`)?.getAttribute('aria-pressed') === 'true', QUAKE.id);

      await page.goto(api.url + '/story/' + QUAKE.id);
      await page.waitForSelector('.all-articles li');
      found.push(...await violations(page, '/story'));

      await page.goto(api.url + '/search?q=earthquake');
      await page.waitForSelector('#feed .story');
      found.push(...await violations(page, '/search'));

      await page.goto(api.url + '/for-you');
      await page.waitForSelector('.interests .topic-toggles');
      await page.click('.topic-toggles button.follow[data-value="science"]');
      await page.waitForFunction(() => document.querySelector('.topic-toggles button.follow[data-value="science"]')?.getAttribute('aria-pressed') === 'true');
      await page.waitForSelector('#feed .story');
      found.push(...await violations(page, '/for-you'));

      await page.goto(api.url + '/saved');
      await page.waitForFunction(() => document.querySelectorAll('.saved-list > [data-story-id]').length === 1);
      found.push(...await violations(page, '/saved'));

      await page.goto(api.url + '/admin');
      await page.waitForSelector('table.publishers tbody tr');
      found.push(...await violations(page, '/admin'));
      expect(found).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('every control of the front page is reached with Tab, in order, and shows its focus', async () => {
    const { ctx, page } = await open('light');
    try {
      await page.goto(api.url + '/');
      await page.waitForFunction(() => document.querySelectorAll('.story-list > .story').length >= 10);
      await page.waitForSelector('.side .rank-list li');
      // controls of the page, as the reader sees them: links, buttons, fields (visible ones)
      const controls: number = await page.evaluate(() => {
        let n = 0;
        for (const e of document.querySelectorAll('a[href], button, input, select, textarea')) {
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.height > 0 && !e.closest('[hidden]')) {
            e.setAttribute('data-control', String(n++));
          }
        }
        return n;
      });
      expect(controls).toBeGreaterThan(40);
      const reached = new Set<string>();
      const unmarked: string[] = [];
      // the list grows as the focus nears its end (the next page loads), so there are more stops than counted
      for (let i = 0; i < 500 && reached.size < controls; i++) {
        await page.keyboard.press('Tab');
        const [id, outline] = await page.evaluate(() => {
          const a = document.activeElement;
          return [a?.getAttribute('data-control') ?? null, a ? window.getComputedStyle(a).outlineStyle + ' ' + (a.id || a.className) : 'none'];
        });
        if (id === null) continue;
        reached.add(id);
        if (outline.startsWith('none')) unmarked.push(outline);
      }
      const missed: string[] = await page.evaluate((got: string[]) => [...document.querySelectorAll('[data-control]')]
        .filter((e) => !got.includes(e.getAttribute('data-control')))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${(e.textContent || '').trim().slice(0, 30)} tabindex=${e.getAttribute('tabindex')}`), [...reached]);
      expect(missed).toEqual([]);
      expect(unmarked).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
