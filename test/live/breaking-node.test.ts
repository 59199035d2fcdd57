import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakingMsg } from '../../src/actors/breaking/actor.js';
import { regionForCountry } from '../../src/actors/enrich/gazetteer.js';
import type { PublisherReply } from '../../src/actors/publisher/actor.js';
import { publisherIdFor } from '../../src/actors/publisher/opml.js';
import type { PublisherStatus } from '../../src/actors/publisher/state.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { breakingComponent } from '../../src/roles/breaking.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent } from '../../src/roles/ingest.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { RawWs } from '../helpers/raw-ws.js';

/**
 * The whole way of a breaking story through one node: simulated publishers push over WebSub,
 * the pipeline writes stories, the detector sees a burst, and then the story is stored as
 * breaking, pushed to WebSocket clients, put first in the feed, the tier-1 publishers of its
 * region poll faster, and two hours after its last spike (the detector's clock is moved) it cools down.
 */
describe('breaking news in a node fed by simulated publishers', { timeout: 240_000 }, () => {
  let sim: Simulator;
  let db: TestDb;
  let node: Node;
  let dir: string;
  let offset = 0;
  const breaking = { component: null as ReturnType<typeof breakingComponent> | null };
  const clients: RawWs[] = [];
  let breakingStory = '';
  const tiers = new Map<string, { tier: number; region: string }>();

  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 120_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v !== null && v !== undefined && v !== false) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const get = async (path: string) => (await (await fetch(`${node.url}${path}`)).json()) as { items: { story_id: string; breaking_since?: string }[] };

  beforeAll(async () => {
    sim = await startSimulator({ publishers: 80, seed: 'breaking-node', host: '127.0.0.1', port: 0 });
    db = await scratchPostgres();
    dir = mkdtempSync(join(tmpdir(), 'newsagg-breaking-'));
    // every other publisher is tier 1, in the edition of its country
    const rows = sim.publishers.map((p, i) => ({
      id: publisherIdFor(p.feed_url), name: p.name, feed_url: p.feed_url, site_url: p.site_url, country: p.country,
      region: regionForCountry(p.country), category: p.section, tier: i % 2 === 0 ? 1 : 2,
    }));
    for (const r of rows) tiers.set(r.id, { tier: r.tier, region: r.region });
    await addPublishers(db.sql, rows);
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.1', '--log-level', 'warn'], {});
    const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
    const ingest = ingestComponent({ fetcher });
    breaking.component = breakingComponent({ ingest, now: () => Date.now() + offset });
    const publishers = publishersComponent({ emit: (a) => ingest.ingest(a), fetcher, publicUrl: 'self', firstPollSpreadMs: 500 });
    node = await startNode(config, { components: [fetcher, ingest, breaking.component, publishers, apiComponent({ fetcher })] });
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await node?.stop();
    await sim?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('raises nothing while the node takes in its publishers', async () => {
    const withHub = sim.publishers.filter((p) => p.hub_url).length;
    await until('WebSub subscriptions', async () => {
      const { rows } = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM publishers WHERE websub_lease_expires_at IS NOT NULL');
      return rows[0]!.n >= Math.ceil(withHub * 0.8);
    });
    await until('articles stored', async () => (await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n > 300);
    await new Promise((r) => setTimeout(r, 1500)); // one detector flush after the first flood
    expect(await breaking.component!.active()).toEqual([]);
    expect((await get('/v1/breaking')).items).toEqual([]);
  });

  it('turns a burst into a breaking story: pushed over WebSocket, first in the feed, the publishers that covered its editions or section accelerated', async () => {
    const all = await RawWs.open(node.port);
    const regional = await RawWs.open(node.port);
    clients.push(all, regional);
    all.json({ type: 'subscribe', topics: ['breaking'] });
    regional.json({ type: 'subscribe', topics: ['breaking:us', 'breaking:uk', 'breaking:eu', 'breaking:apac', 'breaking:latam', 'breaking:mea', 'breaking:global'] });
    await until('subscribed', () => all.messages().some((m) => m.type === 'subscribed') && regional.messages().some((m) => m.type === 'subscribed'));

    const { rows: subscribed } = await node.sql.query<{ feed_url: string }>('SELECT feed_url FROM publishers WHERE websub_lease_expires_at IS NOT NULL');
    const urls = new Set(subscribed.map((r) => r.feed_url));
    const outlets = sim.publishers.filter((p) => p.kind === 'outlet' && p.behaviour === 'ok' && urls.has(p.feed_url)).map((p) => p.id);
    expect(outlets.length).toBeGreaterThanOrEqual(35);
    const t0 = Date.now();
    const b = sim.burst({ publishers: outlets.slice(0, 40), withinMs: 20_000 });

    const alert = await until('a breaking push', () => all.messages().find((m) => m.type === 'breaking'));
    const pushMs = Date.now() - t0;
    expect(alert.active).toBe(true);
    const story = alert.story as { story_id: string; breaking_since: string; coverage_count: number; title: string };
    breakingStory = story.story_id;
    // the story is the burst's: most of the burst's articles are in it
    const burstUrls = sim.truth().items.filter((i) => i.event_id === b.event_id).map((i) => i.url);
    const { rows: inStory } = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE story_id = $1 AND url = ANY($2::text[])', [breakingStory, burstUrls]);
    expect(inStory[0]!.n).toBeGreaterThanOrEqual(12);
    expect(Number.isFinite(Date.parse(story.breaking_since))).toBe(true);
    expect(pushMs).toBeGreaterThan(0);

    // one push per connection, however many of its topics match
    await until('regional push', () => regional.messages().some((m) => m.type === 'breaking'));
    await new Promise((r) => setTimeout(r, 500));
    expect(regional.messages().filter((m) => m.type === 'breaking' && (m.story as { story_id: string }).story_id === breakingStory)).toHaveLength(1);

    // readable from the API, and first in the feed
    const listed = await get('/v1/breaking');
    expect(listed.items.map((i) => i.story_id)).toEqual([breakingStory]);
    expect(listed.items[0]!.breaking_since).toBe(story.breaking_since);
    await until('the story first in the feed', async () => (await get('/v1/feed?limit=5')).items[0]?.story_id === breakingStory, 30_000);

    // accelerated: the publishers that covered the story's editions or its section, whatever their tier, no one else
    const accelerated = new Set<string>();
    for (const id of tiers.keys()) {
      const st = (await node.system.ask<PublisherReply>(`publisher/${id}`, { type: 'status' })) as PublisherStatus;
      if (st.accelUntil > Date.now()) accelerated.add(id);
    }
    expect(accelerated.size).toBeGreaterThan(0);
    const { rows: meta } = await node.sql.query<{ regions: string[]; category: string | null }>(
      'SELECT b.regions, s.category FROM breaking_stories b JOIN stories s ON s.id = b.story_id WHERE b.story_id = $1', [breakingStory]);
    const { regions, category } = meta[0]!;
    const { rows: covered } = await node.sql.query<{ publisher_id: string }>(
      `SELECT DISTINCT publisher_id FROM articles WHERE region = ANY($1::text[]) OR ($2 AND region IS NULL) OR category = $3`,
      [regions, regions.includes('global'), category]);
    const coverers = new Set(covered.map((r) => r.publisher_id));
    for (const id of accelerated) expect(coverers.has(id)).toBe(true);
  });

  it('cools down two hours after its last spike', async () => {
    const all = clients[0]!;
    offset = 121 * 60_000;
    node.system.send<BreakingMsg>('breaking/0', { type: 'tick' });
    const ended = await until('the cool-down push', () => all.messages().find((m) => m.type === 'breaking' && m.active === false));
    expect((ended.story as { story_id: string }).story_id).toBe(breakingStory);
    expect(await breaking.component!.active()).toEqual([]);
    await until('no longer listed', async () => (await get('/v1/breaking')).items.length === 0, 20_000);
    const { rows } = await node.sql.query<{ ended: boolean }>('SELECT ended_at IS NOT NULL AS ended FROM breaking_stories WHERE story_id = $1', [breakingStory]);
    expect(rows).toEqual([{ ended: true }]);
  });
});
