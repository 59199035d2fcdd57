import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertBreaking } from '../../src/actors/store/breaking.js';
import type { FeedItem } from '../../src/actors/store/feed-items.js';
import { cacheLiveEvents } from '../../src/actors/store/live-events.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { SCRIPT_TITLE, stories } from '../api/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) console.warn(`skipping browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/**
 * The live module of the web UI against a real API node: the WebSocket subscribes to the topics
 * of the view, the breaking banner fires (and goes), coverage counts follow updates, new stories
 * show a pill that reloads the feed, and the console stays clean.
 */
describe.skipIf(!available)('live updates in the web UI (headless Chromium)', () => {
  let db: TestDb;
  let node: Node;
  let dir: string;
  let browser: Browser;
  let page: Page;
  const api = apiComponent();
  const consoleErrors: string[] = [];
  let publish: ReturnType<typeof cacheLiveEvents>['publish'];
  let items: Map<string, FeedItem>;

  async function until<T>(what: string, probe: () => T | null | undefined | false): Promise<T> {
    const end = Date.now() + 30_000;
    for (;;) {
      const v = probe();
      if (v !== null && v !== undefined && v !== false) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    db = await scratchPostgres();
    dir = mkdtempSync(join(tmpdir(), 'newsagg-live-ui-'));
    const config = resolveConfig(['--roles', 'api', '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--log-level', 'warn', '--rate-limit-rps', '1000', '--rate-limit-burst', '1000'], {});
    node = await startNode(config, { components: [api] });
    const now = Date.now();
    const recent = stories(30, 's', 0).map((s, i) => ({ ...s, updatedAt: new Date(now - (40 + i) * 60_000).toISOString().replace('.000', '') }));
    await seedStories(db.sql, node.cache, [...recent, { id: 'xss', publisher: 'p3', category: 'politics', region: 'us', updatedAt: new Date(now - 3 * 60_000).toISOString().replace('.000', ''), title: SCRIPT_TITLE }]);
    publish = cacheLiveEvents(node.cache).publish;
    const feed = (await (await fetch(`${node.url}/v1/feed?limit=50`)).json()) as { items: FeedItem[] };
    items = new Map(feed.items.map((i) => [i.story_id, i]));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400) consoleErrors.push(`${r.status()} ${r.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await node?.stop();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('subscribes to the topics of the view and follows view changes', async () => {
    await page.goto(node.url + '/');
    await page.waitForFunction(() => document.querySelectorAll('#feed [data-story-id] .coverage-count').length >= 20);
    expect(await page.evaluate(() => [...document.querySelectorAll('script')].map((s: any) => s.getAttribute('src').replace(/\?v=.*$/, '')))).toEqual(['/live.js', '/app.js']);
    await until('subscribed to the front page', () => api.hub!.subscribers('breaking') === 1 && api.hub!.subscribers('feed:global:top') === 1);
    await page.selectOption('#edition', 'uk');
    await until('subscribed to the UK edition', () => api.hub!.subscribers('breaking:uk') === 1 && api.hub!.subscribers('feed:uk:top') === 1);
    expect(api.hub!.subscribers('feed:global:top')).toBe(0);
    expect(api.hub!.subscribers('breaking')).toBe(0);
    await page.selectOption('#edition', 'global');
    await until('back on the front page', () => api.hub!.subscribers('feed:global:top') === 1);
    expect(api.hub!.connections).toBe(1);
  });

  it('shows the breaking banner when a story breaks, as text, and hides it when it cools down', async () => {
    const xss = items.get('xss')!;
    const story = { ...xss, breaking_since: new Date().toISOString() };
    await publish({ type: 'breaking', story, regions: ['us'], active: true });
    await page.waitForFunction(() => !document.getElementById('breaking').hidden);
    expect(await page.textContent('#breaking strong')).toBe('Breaking');
    expect(await page.textContent('#breaking a')).toBe(SCRIPT_TITLE);
    expect(await page.getAttribute('#breaking a', 'href')).toBe(`/story/${xss.story_id}`);
    expect(await page.evaluate(() => document.querySelectorAll('#breaking b, #breaking script').length)).toBe(0);
    await publish({ type: 'breaking', story, regions: ['us'], active: false });
    await page.waitForFunction(() => document.getElementById('breaking').hidden);
  });

  it('shows a story already breaking when the page opens', async () => {
    const quake = items.get('s0001')!;
    await upsertBreaking(db.sql, [{ story_id: 's0001', since: Date.now(), last_spike_at: Date.now(), ended_at: null, regions: ['us'], signal: 's:s0001', articles: 30, publishers: 30, baseline: 8 }]);
    api.breaking!.invalidate();
    await page.reload();
    await page.waitForFunction(() => !document.getElementById('breaking').hidden);
    expect(await page.textContent('#breaking a')).toBe(quake.title);
    await db.sql.query('UPDATE breaking_stories SET ended_at = now()');
    await publish({ type: 'breaking', story: { ...quake, breaking_since: new Date().toISOString() }, regions: ['us'], active: false });
    await page.waitForFunction(() => document.getElementById('breaking').hidden);
  });

  it('updates coverage counts of the stories on the page', async () => {
    await until('subscribed', () => api.hub!.subscribers('feed:global:top') === 1);
    const id = (await page.getAttribute("#feed [data-story-id]:nth-child(3)", "data-story-id"))!;
    const it0 = items.get(id)!;
    await publish({ type: 'stories', stories: [{ item: { ...it0, coverage_count: 42 }, regions: [it0.region!] }] });
    await page.waitForFunction((sid: string) => document.querySelector(`#feed [data-story-id="${sid}"] .coverage-count`)?.textContent === '42', id);
    expect(await page.evaluate(() => document.getElementById('new-stories').hidden)).toBe(true);
  });

  it('counts new stories in a pill that reloads the feed', async () => {
    const published = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await seedStories(db.sql, node.cache, [
      { id: 'fresh1', publisher: 'p2', category: 'science', region: 'us', updatedAt: published, title: 'Fresh one' },
      { id: 'fresh2', publisher: 'p4', category: 'health', region: 'uk', updatedAt: published, title: 'Fresh two' },
    ]);
    const feed = (await (await fetch(`${node.url}/v1/feed?limit=50`)).json()) as { items: FeedItem[] };
    const fresh = feed.items.filter((i) => i.story_id.startsWith('fresh'));
    expect(fresh).toHaveLength(2);
    await publish({ type: 'stories', stories: fresh.map((item) => ({ item, regions: [item.region!] })) });
    await page.waitForFunction(() => document.getElementById('new-stories').textContent === '2 new stories');
    expect(await page.isVisible('#new-stories')).toBe(true);
    expect(await page.$('#feed [data-story-id="fresh1"]')).toBeNull();
    await page.click('#new-stories');
    await page.waitForFunction(() => document.querySelector('#feed [data-story-id="fresh1"]') !== null);
    expect(await page.evaluate(() => document.getElementById('new-stories').hidden)).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});
