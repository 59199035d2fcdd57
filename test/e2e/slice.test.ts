import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { publisherIdFor } from '../../src/actors/publisher/opml.js';
import { apiComponent } from '../../src/roles/api.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent } from '../../src/roles/ingest.js';
import { opmlComponent } from '../../src/roles/opml.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

const ADMIN = 'e2e-admin-token-0123456789';

/** The whole slice: simulated publishers → fetch → parse → dedup → stories → store → API. */
// each test may wait up to 90 s in `until` (90 s + 30 s for the push): the test timeout must not cut
// those waits short (at the default 30 s a slow machine fails on the bare timeout, long before `until`)
describe('a node ingesting from simulated publishers', { timeout: 150_000 }, () => {
  let sim: Simulator;
  let db: TestDb;
  let node: Node;
  let dir: string;

  const get = async (path: string) => {
    const r = await fetch(`${node.url}${path}`);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 90_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v !== null) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    sim = await startSimulator({ publishers: 24, seed: 'e2e', host: '127.0.0.1', port: 0, misbehaving: { error500: 1, malformed: 1 } });
    db = await scratchPostgres();
    dir = mkdtempSync(join(tmpdir(), 'newsagg-e2e-'));
    const opml = join(dir, 'feeds.opml');
    writeFileSync(opml, await (await fetch(`${sim.url}/opml.xml`)).text());
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.1', '--log-level', 'warn', '--admin-token', ADMIN], {});
    const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
    const ingest = ingestComponent({ fetcher });
    const publishers = publishersComponent({ emit: (a) => ingest.ingest(a), fetcher, publicUrl: 'self', firstPollSpreadMs: 500 });
    node = await startNode(config, { components: [fetcher, ingest, opmlComponent(opml), publishers, apiComponent({ fetcher })] });
  }, 180_000);

  afterAll(async () => {
    await node?.stop();
    await sim?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fills the feed with stories, each article stored once, copies pointing at originals', async () => {
    const items = await until('a full first page', async () => {
      const r = await get('/v1/feed?limit=20');
      const list = r.body.items as { story_id: string }[];
      return list.length >= 10 ? list : null;
    });
    expect(new Set(items.map((i) => i.story_id)).size).toBe(items.length);
    // the feed fills as stories open; articles keep arriving behind it (a page of 10 stories may hold only 15)
    const counts = await until('more than 20 stored articles', async () => {
      const { rows } = await node.sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url_hash)::int AS urls FROM articles');
      return rows[0]!.n > 20 ? rows[0]! : null;
    });
    expect(counts.urls).toBe(counts.n);
    // articles carry their publisher's id; the feed shows the publisher's name
    const orphans = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles a LEFT JOIN publishers p ON p.id = a.publisher_id WHERE p.id IS NULL');
    expect(orphans.rows[0]!.n).toBe(0);
    // wire copies arrive as outlets are polled: some are marked as copies of their original
    await until('a wire copy marked as a duplicate', async () => {
      const dups = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE duplicate_of IS NOT NULL');
      return dups.rows[0]!.n > 0 ? true : null;
    });
    const story = await get(`/v1/stories/${encodeURIComponent(items[0]!.story_id)}`);
    expect(story.status).toBe(200);
  });

  it("shows headlines of other publishers under a story's lead, read when the story is written", async () => {
    type Item = { publisher_id: string; publisher_name: string; related?: { article_id: string; publisher_name: string; title: string }[] };
    const item = await until('a feed item with headlines of other publishers', async () => {
      const r = await get('/v1/feed?limit=50&related=true');
      return (r.body.items as Item[]).find((i) => (i.related?.length ?? 0) > 0) ?? null;
    });
    expect(item.related!.length).toBeLessThanOrEqual(3);
    const names = item.related!.map((r) => r.publisher_name);
    expect(names).not.toContain(item.publisher_name);
    expect(new Set(names).size).toBe(names.length);
    const { rows } = await node.sql.query<{ publisher_id: string }>('SELECT publisher_id FROM articles WHERE id = ANY($1::text[])', [item.related!.map((r) => r.article_id)]);
    expect(rows.map((r) => r.publisher_id)).not.toContain(item.publisher_id);
  });

  it('makes thumbnails after storing and serves them at the URL the article names', async () => {
    const url = await until('an article with a thumbnail', async () => {
      const { rows } = await node.sql.query<{ thumbnail_url: string }>('SELECT thumbnail_url FROM articles WHERE thumbnail_url IS NOT NULL LIMIT 1');
      return rows[0]?.thumbnail_url ?? null;
    });
    // a path under /thumbs/, never a file system path of the node
    expect(url).toMatch(/^\/thumbs\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    const r = await fetch(`${node.url}${url}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('adds a publisher by its site URL alone (the feed is discovered), and says when a site has none', { timeout: 120_000 }, async () => {
    const post = (body: unknown) =>
      fetch(`${node.url}/v1/publishers`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const rss = sim.publishers.find((p) => p.format === 'rss')!;
    // the simulator's feeds are already imported from its OPML: finding the same feed is a conflict
    const known = await post({ site_url: rss.site_url });
    expect(known.status).toBe(409);
    // a site with no feed and no sitemap anywhere
    const empty = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not here'));
    await new Promise<void>((r) => empty.listen(0, '127.0.0.1', r));
    const none = await post({ site_url: `http://127.0.0.1:${(empty.address() as AddressInfo).port}/` });
    empty.close();
    expect(none.status).toBe(422);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('no_feed_found');
  });

  it('polls sites without feeds through their news sitemaps', async () => {
    const sitemapSites = sim.publishers.filter((p) => p.format === 'sitemap' && p.behaviour === 'ok');
    expect(sitemapSites.length).toBeGreaterThan(0);
    const ids = sitemapSites.map((p) => publisherIdFor(p.feed_url));
    await until('articles from a sitemap-only site', async () => {
      const { rows } = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE publisher_id = ANY($1::text[])', [ids]);
      return rows[0]!.n > 0 ? true : null;
    });
  });

  it('keeps failing publishers visible with their reason instead of dropping them', async () => {
    const failing = await until('a failing publisher to be recorded', async () => {
      const { rows } = await node.sql.query<{ id: string; circuit_reason: string | null; consecutive_failures: number }>(
        'SELECT id, circuit_reason, consecutive_failures FROM publishers WHERE consecutive_failures > 0',
      );
      return rows.length > 0 ? rows : null;
    });
    expect(failing[0]!.circuit_reason).toBeTruthy();
  });

  it('takes WebSub pushes: a newly published item reaches the feed without waiting for a poll', async () => {
    await until('an active WebSub subscription', async () => {
      const { rows } = await node.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM publishers WHERE websub_lease_expires_at IS NOT NULL");
      return rows[0]!.n > 0 ? true : null;
    });
    const { rows: subs } = await node.sql.query<{ feed_url: string }>('SELECT feed_url FROM publishers WHERE websub_lease_expires_at IS NOT NULL');
    const subscribed = new Set(subs.map((s) => s.feed_url));
    const target = sim.publishers.find((p) => subscribed.has(p.feed_url))!;
    const [item] = sim.publish(1, target.id);
    expect(item).toBeDefined();
    // the pushed item itself is stored, in a story the API serves
    const storyId = await until('the pushed item to be stored', async () => {
      const { rows } = await node.sql.query<{ story_id: string | null }>('SELECT story_id FROM articles WHERE url = $1', [item!.url]);
      return rows[0]?.story_id ?? null;
    }, 30_000);
    const story = await get(`/v1/stories/${encodeURIComponent(storyId)}`);
    expect(story.status).toBe(200);
    expect(JSON.stringify(story.body)).toContain(item!.url);
  });
});
