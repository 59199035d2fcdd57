import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm } from '../helpers/feed-farm.js';
import { owners, ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { OwnNatsServer, TcpProxy } from '../helpers/nats.js';

const HOSTS = 3;
const FEEDS_PER_HOST = 4;
const ITEMS = 10;

/**
 * A partition: node A reaches NATS through a proxy that the test cuts silently (no RST, no FIN)
 * while A is polling its first feeds; A keeps its database and the feeds. A must stop polling
 * its publishers before B starts polling them (leases: A gives a lease up TTL/2 after its last
 * renewal, B can take it only TTL after it), every article is stored once, and A takes a share
 * again once the link heals.
 */
describe('a node cut off from NATS', { timeout: 300_000 }, () => {
  let feedFarm: FeedFarm;
  let db: TestDb;
  let nats: OwnNatsServer;
  let proxy: TcpProxy;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];

  const args = (natsUrl: string): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-partition-'));
    dirs.push(dir);
    return [
      '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', natsUrl, '--workers', '1',
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn', '--admin-token', TOKEN,
    ];
  };

  beforeAll(async () => {
    feedFarm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS, seed: 'partition', delayMs: 100 }).start();
    for (const f of feedFarm.feeds) feedFarm.publish(f, ITEMS, Date.now() - 600_000);
    db = await scratchPostgres();
    await addPublishers(db.sql, feedFarm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    nats = await OwnNatsServer.start();
    proxy = await TcpProxy.start(nats.port);
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await proxy?.close();
    await feedFarm?.close();
    await nats?.stop();
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const stored = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n;

  it('stops polling before another node starts, stores everything once, and rejoins after the link heals', async () => {
    const total = feedFarm.published.size;
    const [a, b] = await Promise.all([startNode('a', args(proxy.url)), startNode('b', args(nats.url))]);
    nodes.push(a, b);
    await until('publisher shards split over both nodes', async () => {
      const counts = await Promise.all([ownedShards(a, 'publisher'), ownedShards(b, 'publisher')]);
      return counts.every((c) => c > 0) && counts[0]! + counts[1]! === 64 ? true : null;
    }, 60_000);
    const ownerBefore = await owners(b);
    await until('node a polling', () => feedFarm.feeds.some((f) => f.agents.includes('newsagg-test/a')), 90_000, 50);
    const cutAt = Date.now();
    proxy.cut();

    await until('node b owning every publisher shard', async () => ((await ownedShards(b, 'publisher')) === 64 ? true : null), 60_000);
    await until('every published article stored', async () => ((await stored()) >= total ? true : null), 150_000, 500);
    expect(await stored()).toBe(total);

    // per feed of a's shards: a's last request came before b's first one after the cut
    let takenOver = 0;
    feedFarm.feeds.forEach((f, i) => {
      if (ownerBefore.get(`farm-${i}`) !== 'a') return;
      const bFirst = Math.min(...f.hits.filter((h) => h.agent === 'newsagg-test/b' && h.at >= cutAt).map((h) => h.at));
      if (!Number.isFinite(bFirst)) return;
      takenOver++;
      const aLast = Math.max(...f.hits.filter((h) => h.agent === 'newsagg-test/a').map((h) => h.at));
      if (Number.isFinite(aLast)) expect(aLast, f.name).toBeLessThan(bFirst);
    });
    expect(takenOver).toBeGreaterThan(0);
    expect(feedFarm.feeds.filter((f) => f.maxInFlight > 1).map((f) => f.name)).toEqual([]);

    // the link heals: a is back and owns a share again
    proxy.heal();
    await until('node a owning publisher shards again', async () => ((await ownedShards(a, 'publisher')) > 0 ? true : null), 90_000);
    expect(await stored()).toBe(total);
  });
});
