import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { breakingComponent } from '../../src/roles/breaking.js';
import { clusterComponent } from '../../src/roles/cluster.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent, type IngestComponent } from '../../src/roles/ingest.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';
import { RawWs } from '../helpers/raw-ws.js';

const OUTLETS = 12;
const TOKEN = 'brkf-admin-token-0123456789abcdef';

/**
 * Issue 23, item 2: one breaking view of the fleet. Three process nodes of one deployment in this
 * process (the shared PostgreSQL, Redis and NATS under a database, key prefix and subject prefix
 * of their own), each with the cluster, the ingest pipeline, the breaking component and the API.
 * A burst of twelve outlets on one event is appended one article at a time to the shared ingest
 * log, so the three nodes' consumers split it; a spike needs eight publishers, more than any
 * node alone would have counted of its own batches. One node owns the `breaking` shard and
 * counts the stories every node wrote: the story is flagged once, and the one alert reaches
 * the WebSocket clients of every node, once each. (With a detector per node, each node that
 * wrote part of the burst announced it on its own.)
 */
describe('one breaking detector for three process nodes', { timeout: 300_000 }, () => {
  let db: TestDb;
  const dirs: string[] = [];
  const nodes: Node[] = [];
  const ingests: IngestComponent[] = [];
  /** story ids each node wrote (its own batches) */
  const wrote: Set<string>[] = [];
  const clients: RawWs[] = [];
  const prefix = uniquePrefix('brkf');
  let seq = 0;

  const article = (outlet: number) => ({
    url: `https://outlet${outlet}.example/${prefix}/${++seq}`,
    title: 'Strong earthquake shakes Wellington, buildings evacuated across New Zealand capital',
    summary: 'A strong earthquake shook Wellington on Tuesday and office buildings across the New Zealand capital were evacuated, emergency services said, with no early reports of casualties.',
    publisher: `outlet-${outlet}`,
    published_at: new Date().toISOString(),
    publisher_country: 'NZ',
    feed_category: 'world',
  });
  const storyOf = async (url: string): Promise<string> => {
    let story: string | null = null;
    await until(async () => {
      const { rows } = await db.sql.query<{ story_id: string | null }>('SELECT story_id FROM articles WHERE url = $1', [url]);
      story = rows[0]?.story_id ?? null;
      return story !== null;
    }, `the article ${url} stored`, 60_000);
    return story!;
  };
  const alerts = (ws: RawWs, story: string) => ws.messages().filter((m) => m.type === 'breaking' && (m.story as { story_id: string }).story_id === story).length;

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, Array.from({ length: OUTLETS }, (_, i) => ({ id: `outlet-${i}`, name: `Outlet ${i}`, feed_url: `https://outlet${i}.example/feed`, country: 'NZ' })));
    for (const id of ['n1', 'n2', 'n3']) {
      const dir = mkdtempSync(join(tmpdir(), 'newsagg-brkf-'));
      dirs.push(dir);
      const config = resolveConfig(
        ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--redis-url', 'redis://127.0.0.1:6379',
          '--redis-prefix', `${prefix}:`, '--nats-url', SHARED_NATS_URL, '--nats-prefix', prefix, '--node-id', id, '--roles', 'process,api',
          '--workers', '1', '--log-level', 'warn', '--admin-token', TOKEN, '--breaking-min-publishers', '8', '--breaking-min-baseline', '1'],
        {},
      );
      const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
      const cluster = clusterComponent();
      const ingest = ingestComponent({ fetcher, process: true, cluster });
      const mine = new Set<string>();
      ingest.onStories((stories) => {
        for (const s of stories) mine.add(s.item.story_id);
      });
      const node = await startNode(config, { components: [fetcher, cluster, ingest, breakingComponent({ ingest, cluster }), apiComponent({ fetcher }), cluster.go] });
      nodes.push(node);
      ingests.push(ingest);
      wrote.push(mine);
    }
    // every shard kind owned by one of the three
    await until(async () => {
      const owners = await Promise.all(nodes.map(async (n) => (await (await fetch(`${n.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()).match(/newsagg_owned_shards\{kind="breaking"\} (\d+)/)?.[1]));
      return owners.filter((o) => o === '1').length === 1;
    }, 'one node owning the breaking shard', 120_000, 200);
  }, 240_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const n of nodes.reverse()) await n.stop().catch(() => undefined);
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('splits one burst over three nodes and raises one alert, once, on every node', async () => {
    for (const n of nodes) {
      const ws = await RawWs.open(n.port);
      clients.push(ws);
      ws.json({ type: 'subscribe', topics: ['breaking'] });
      await until(() => ws.messages().some((m) => m.type === 'subscribed'), 'subscribed', 60_000);
    }
    // one article at a time, from alternating nodes, so every consumer of the log gets a share
    const urls: string[] = [];
    for (let i = 0; i < OUTLETS; i++) {
      const a = article(i);
      urls.push(a.url);
      await ingests[i % 3]!.ingest([a]);
      await new Promise((r) => setTimeout(r, 150));
    }
    const stories = new Set(await Promise.all(urls.map(storyOf)));
    expect(stories.size, 'the burst is one story').toBe(1);
    const [story] = [...stories] as [string];
    const writers = wrote.filter((w) => w.has(story)).length;
    expect(writers, 'nodes that wrote part of the burst').toBeGreaterThanOrEqual(2);

    for (const [i, ws] of clients.entries()) await until(() => alerts(ws, story) > 0, `the alert on node n${i + 1}`, 60_000, 50);
    // more coverage of the same story (a refresh, not a new start), then time for any late duplicate
    const more = [article(0), article(1), article(2)];
    for (const [i, a] of more.entries()) await ingests[i]!.ingest([a]);
    await Promise.all(more.map((a) => storyOf(a.url)));
    await new Promise((r) => setTimeout(r, 3_000));
    for (const [i, ws] of clients.entries()) expect(alerts(ws, story), `alerts on node n${i + 1}`).toBe(1);
    const { rows } = await db.sql.query<{ publishers: number; ended_at: unknown }>('SELECT publishers, ended_at FROM breaking_stories WHERE story_id = $1', [story]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ended_at).toBeNull();
    // the one detector counted the whole fleet's articles
    expect(rows[0]!.publishers).toBeGreaterThanOrEqual(8);
  });
});
