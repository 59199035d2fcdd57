import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { ingestComponent } from '../../src/roles/ingest.js';
import { opmlComponent } from '../../src/roles/opml.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/** The whole slice: simulated publishers → fetch → parse → dedup → stories → store → API. */
describe('a node ingesting from simulated publishers', () => {
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
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.1', '--log-level', 'warn'], {});
    const ingest = ingestComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
    const publishers = publishersComponent({ emit: (a) => ingest.ingest(a), allowlist: ['127.0.0.1'], crawlDelayMs: 0, publicUrl: 'self', firstPollSpreadMs: 500 });
    node = await startNode(config, { components: [ingest, opmlComponent(opml), publishers, apiComponent()] });
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
    const { rows } = await node.sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url_hash)::int AS urls FROM articles');
    expect(rows[0]!.n).toBeGreaterThan(20);
    expect(rows[0]!.urls).toBe(rows[0]!.n);
    const dups = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE duplicate_of IS NOT NULL');
    expect(dups.rows[0]!.n).toBeGreaterThan(0);
    const story = await get(`/v1/stories/${encodeURIComponent(items[0]!.story_id)}`);
    expect(story.status).toBe(200);
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
    const { rows: before } = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles');
    await until('the pushed item to be stored', async () => {
      const { rows } = await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles');
      return rows[0]!.n > before[0]!.n ? true : null;
    }, 30_000);
  });
});
