import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm } from '../helpers/feed-farm.js';
import { owners, ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { OwnNatsServer } from '../helpers/nats.js';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';

const HOSTS = 2;
const FEEDS_PER_HOST = 4;
const ITEMS = 10;

/**
 * Honest roles: an ingest-only node polls and appends to the JetStream log and stores nothing;
 * a process node started later stores everything the log holds; each owns the shard kinds of
 * its roles. Without NATS an ingest-only node is refused at start.
 */
describe('roles on NATS', { timeout: 300_000 }, () => {
  let feedFarm: FeedFarm;
  let db: TestDb;
  let nats: OwnNatsServer;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];

  const args = (withNats = true): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-roles-'));
    dirs.push(dir);
    return [
      '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, ...(withNats ? ['--nats-url', nats.url] : []), '--workers', '1',
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn', '--admin-token', TOKEN,
    ];
  };

  beforeAll(async () => {
    feedFarm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS, seed: 'roles' }).start();
    for (const f of feedFarm.feeds) feedFarm.publish(f, ITEMS, Date.now() - 600_000);
    db = await scratchPostgres();
    await addPublishers(db.sql, feedFarm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    nats = await OwnNatsServer.start();
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await feedFarm?.close();
    await nats?.stop();
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const stored = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n;

  it('refuses an ingest-only node without NATS, with one line', async () => {
    await expect(startNode('lonely', ['--roles', 'ingest', ...args(false)])).rejects.toThrow(/exited \(2\)[\s\S]*--roles ingest without process needs --nats-url/);
  });

  it('an ingest node only appends to the log; a process node stores what it holds', async () => {
    const total = feedFarm.published.size;
    const ing = await startNode('ing', ['--roles', 'ingest', ...args()]);
    nodes.push(ing);
    await until('the ingest node owning every publisher shard', async () => ((await ownedShards(ing, 'publisher')) === 64 ? true : null), 60_000);
    expect(await ownedShards(ing, 'dedup')).toBe(0);
    expect(await ownedShards(ing, 'story')).toBe(0);
    expect(await ownedShards(ing, 'breaking')).toBe(0);
    // every feed polled, and every publisher's articles acknowledged by the log (validators moved on)
    const store = new SqlPublisherStore(db.sql, Date.now, Math.random);
    await until('every feed polled and acknowledged by the log', async () => {
      if (!feedFarm.feeds.every((f) => f.requests > 0)) return null;
      for (let i = 0; i < feedFarm.feeds.length; i++) {
        const s = await store.load(`farm-${i}`);
        if (!s || !s.etag || (s.unackedSince ?? null) !== null) return null;
      }
      return true;
    }, 90_000);
    expect(await stored()).toBe(0);

    const proc = await startNode('proc', ['--roles', 'process,api', ...args()]);
    nodes.push(proc);
    await until('every published article stored', async () => ((await stored()) >= total ? true : null), 120_000, 500);
    expect(await stored()).toBe(total);
    expect(await ownedShards(proc, 'dedup')).toBe(1);
    expect(await ownedShards(proc, 'story')).toBe(1);
    expect(await ownedShards(proc, 'breaking')).toBe(1);
    expect(await ownedShards(proc, 'publisher')).toBe(0);
    const owner = await owners(proc);
    expect(new Set(owner.values())).toEqual(new Set(['ing']));
    expect(feedFarm.feeds.every((f) => f.agents.every((a) => a === 'newsagg-test/ing'))).toBe(true);

    // a hub's verification reaching the process node is answered by the publisher's actor on the ingest node
    const feed = feedFarm.feeds[0]!;
    const q = `/websub/farm-0?hub.mode=subscribe&hub.topic=${encodeURIComponent(feed.url)}&hub.challenge=c123&hub.lease_seconds=600`;
    const direct = await fetch(`${ing.url}${q}`);
    const forwarded = await fetch(`${proc.url}${q}`);
    expect(forwarded.headers.get('content-type')).toMatch(/text\/plain/);
    expect({ status: forwarded.status, body: await forwarded.text() }).toEqual({ status: direct.status, body: await direct.text() });

    // both stop cleanly on SIGTERM (shards handed over, log consumer closed)
    for (const n of [proc, ing]) {
      n.child.kill('SIGTERM');
      expect(await n.exited).toBe(0);
    }
  });
});
