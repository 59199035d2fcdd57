import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStory, startPushNode, until, type PushNode } from '../push/harness.js';
import { chromiumAvailable, launch } from './fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const navigator: any;
declare const document: any;

/**
 * The push alert UI and service worker in headless Chromium: the story page and For you show the
 * opt-in controls, `/sw.js` registers, and a push delivered to it (through the DevTools protocol,
 * as a push service would deliver one) becomes a notification naming the story, with its page as
 * the click target and the stop action. Subscribing itself needs the browser vendor's push service,
 * which a test machine cannot reach; the delivery tests play that part (test/push).
 */
describe.skipIf(!chromiumAvailable)('push alerts in the web UI (headless Chromium)', { timeout: 60_000 }, () => {
  let db: TestDb;
  let n: PushNode;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    n = await startPushNode(db.url!);
    await seedStory(db.sql, { id: 'st_ui', count: 3, category: 'science' });
    browser = await launch();
    context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: n.node.url });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await n?.stop();
    await db?.cleanup();
  });

  it('shows the opt-in controls on a story page and on For you', async () => {
    await page.goto(`${n.node.url}/story/st_ui`);
    const button = page.locator('.story-head .alert-toggle');
    await button.waitFor();
    expect(await button.textContent()).toBe('Alert me about this story');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await page.goto(`${n.node.url}/for-you`);
    await page.locator('.alerts .alert-toggle').first().waitFor();
    expect(await page.locator('.alerts .alert-toggle').allTextContents()).toEqual(['Breaking news: off', 'Topics and places you follow: off']);
    expect(await page.locator('.alerts .link-button').textContent()).toBe('Stop all alerts');
    // turning topics on with nothing followed says what to do first
    await page.locator('.alerts .alert-toggle').nth(1).click();
    await until('the note', async () => ((await page.locator('.alerts .alert-note').nth(1).textContent()) || null));
    expect(await page.locator('.alerts .alert-note').nth(1).textContent()).toBe('Alerts not changed: follow a topic or a place first.');
    expect(await page.locator('.alerts .alert-toggle').nth(1).getAttribute('aria-pressed')).toBe('false');
    expect(consoleErrors).toEqual([]);
  });

  it('says so when the browser cannot subscribe (no push service reachable here)', async () => {
    // a browser of its own: after a failed subscribe, Chromium showed no push delivered through DevTools
    const own = await browser.newContext();
    await own.grantPermissions(['notifications'], { origin: n.node.url });
    const page = await own.newPage();
    await page.goto(`${n.node.url}/story/st_ui`);
    const button = page.locator('.story-head .alert-toggle');
    await button.click();
    const note = await until('the note', async () => ((await page.locator('.story-head .alert-note').textContent()) || null), 30_000);
    expect(note).toMatch(/^Alerts not changed: .+\.$/);
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect((await db.sql.query('SELECT 1 FROM push_subscriptions')).rowCount).toBe(0);
    await own.close();
  });

  it('turns a push into a notification carrying the story\'s page and the stop action', async () => {
    // a browser context of its own, as above: in the shared one, after the opt-in test's visits,
    // Chromium acknowledged pushes delivered through DevTools without showing them
    const own = await browser.newContext();
    await own.grantPermissions(['notifications'], { origin: n.node.url });
    const page = await own.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto(`${n.node.url}/story/st_ui`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js');
      await navigator.serviceWorker.ready;
    });
    const cdp = await own.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const reg = await until('the service worker registration', () => registrations.find((r) => r.scopeURL === `${n.node.url}/` && !r.isDeleted));
    const payload = {
      kind: 'breaking', title: 'Strong earthquake shakes the coast', body: 'Breaking news · Wire Service', url: '/story/st_ui',
      tag: 'story-st_ui', story_id: 'st_ui', stop_url: '/v1/me/push?stop=abc.def',
    };
    // DevTools' delivery is not the push service's: a push it hands over while the worker is still
    // settling can be dropped, so it is handed over again (same tag: one notification) until shown
    let delivered = 0;
    const shown = await until('the notification', async () => {
      if (Date.now() - delivered > 2_000) {
        delivered = Date.now();
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: n.node.url, registrationId: reg.registrationId, data: JSON.stringify(payload) });
      }
      const list = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.ready;
        return (await r.getNotifications()).map((x: any) => ({ title: x.title, body: x.body, tag: x.tag, data: x.data, actions: x.actions.map((a: any) => a.action) }));
      });
      return list.length > 0 ? list : null;
    });
    expect(shown).toEqual([{ title: payload.title, body: payload.body, tag: 'story-st_ui', data: { url: '/story/st_ui', stop_url: '/v1/me/push?stop=abc.def' }, actions: ['stop'] }]);

    // a payload pointing elsewhere gets no stop action (only same-origin paths are called)
    delivered = 0;
    const other = await until('the second notification', async () => {
      if (Date.now() - delivered > 2_000) {
        delivered = Date.now();
        await cdp.send('ServiceWorker.deliverPushMessage', { origin: n.node.url, registrationId: reg.registrationId, data: JSON.stringify({ ...payload, tag: 'story-x', stop_url: 'https://elsewhere.example/stop' }) });
      }
      const list = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications({ tag: 'story-x' })).map((x: any) => ({ data: x.data, actions: x.actions.length })));
      return list.length > 0 ? list[0] : null;
    });
    expect(other).toEqual({ data: { url: '/story/st_ui', stop_url: null }, actions: 0 });
    expect(await page.evaluate(() => document.title)).toMatch(/newsagg/);
    expect(consoleErrors).toEqual([]);
    await own.close();
  });
});
