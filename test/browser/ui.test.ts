import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { SCRIPT_TITLE, iso, seedCoverage, stories } from '../api/fixtures.js';
import { startApi, type ApiHarness } from '../api/harness.js';

// The callbacks below run inside the page; the project's TypeScript has no DOM library, so the
// few browser globals they use are declared loosely here.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
type HTMLImageElement = any;
type HTMLDialogElement = any;

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`skipping browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!available)('web UI in headless Chromium', () => {
  let db: TestDb;
  let api: ApiHarness;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    const seedCache = new MemoryCache();
    await seedStories(db.sql, seedCache, stories(60, 's', 0));
    await seedStories(db.sql, seedCache, [{ id: 'xss', publisher: 'p3', category: 'politics', region: 'us', updatedAt: iso(200), title: SCRIPT_TITLE }]);
    await seedCoverage(db.sql, seedCache, 'cov', 150);
    const webp = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#c33' } }).webp().toBuffer();
    const hash = createHash('sha256').update(webp).digest('hex');
    // the API starts on an empty cache, so it reads these rows (thumbnail included) from PostgreSQL
    await db.sql.query('UPDATE articles SET thumbnail_url = $1 WHERE id = $2', [`/thumbs/${hash.slice(0, 2)}/${hash}.webp`, 'a-cov']);
    api = await startApi(db.sql, new MemoryCache());
    mkdirSync(join(api.dataDir, 'thumbs', hash.slice(0, 2)), { recursive: true });
    writeFileSync(join(api.dataDir, 'thumbs', hash.slice(0, 2), `${hash}.webp`), webp);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await db?.cleanup();
  });

  const storyIds = () => page.$$eval('#feed li.card', (els) => els.map((e) => e.getAttribute('data-story') ?? ''));

  it('loads top stories, shows a <script> title as text, with relative times and thumbnails', async () => {
    await page.goto(api.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('#feed li.card').length >= 20);
    const xss = page.locator('#feed li.card[data-story="xss"] .title');
    expect(await xss.textContent()).toBe(SCRIPT_TITLE);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // only app.js and the live module
    expect(await page.evaluate(() => [...document.querySelectorAll('script')].map((s: any) => s.getAttribute('src')))).toEqual(['/live.js', '/app.js']);
    expect(await page.evaluate(() => document.querySelectorAll('#feed b').length)).toBe(0);
    const times = await page.$$eval('#feed time', (els) => els.map((e) => e.textContent ?? ''));
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(t).toMatch(/ago|yesterday|now|in |tomorrow|\d/);
    const img = page.locator('#feed li.card[data-story="cov"] img.thumb');
    await img.waitFor();
    await page.waitForFunction(() => {
      const i = document.querySelector('#feed li.card[data-story="cov"] img.thumb') as HTMLImageElement | null;
      return !!i && i.complete && i.naturalWidth > 0;
    });
    expect(await page.locator('#topics button[aria-pressed="true"]').textContent()).toBe('top');
  });

  it('scrolls two more pages without repeats', async () => {
    for (const want of [40, 60]) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForFunction((n) => document.querySelectorAll('#feed li.card').length >= n, want);
    }
    const ids = await storyIds();
    expect(ids.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('opens Full Coverage with every article and publisher of the story', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('#feed li.card[data-story="cov"] button.coverage');
    await page.waitForFunction(() => document.querySelectorAll('#coverage-articles li').length === 4);
    expect(await page.evaluate(() => (document.getElementById('coverage') as HTMLDialogElement).open)).toBe(true);
    expect(await page.textContent('#coverage-title')).toBe('Probe lands on comet');
    const pubs = await page.$$eval('#coverage-publishers li', (els) => els.map((e) => e.textContent));
    expect(pubs).toHaveLength(3);
    expect(pubs).toContain('Extra Daily (1)');
    await page.click('#coverage-close');
  });

  it('switches topic tabs and searches', async () => {
    await page.click('#topics button[data-value="science"]');
    await page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('#feed li.card')];
      return cards.length > 0 && cards.every((c: any) => c.querySelector('.cat')?.textContent === 'science');
    });
    await page.fill('#q', 'comet landing');
    await page.press('#q', 'Enter');
    await page.waitForFunction(() => (document.getElementById('heading')?.textContent ?? '').includes('comet landing'));
    await page.waitForFunction(() => document.querySelectorAll('#feed li.card').length > 0);
    const ids = await page.$$eval('#feed li.card', (els) => els.map((e) => e.getAttribute('data-article')));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    for (const id of ids) expect(id).toMatch(/^a-cov/);
    expect(pageErrors).toEqual([]);
  });
});
