import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { owners, ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm, type FarmFeed } from '../helpers/feed-farm.js';
import { OwnNatsServer } from '../helpers/nats.js';

/** The polling policy's minimum interval (DEFAULT_POLICY.minIntervalMs). */
const MIN_INTERVAL_MS = 60_000;
/** A poll's start (when the node takes it) and the request's arrival may differ by a queue wait: crawl delay and connection set-up. */
const QUEUE_SLACK_MS = 5_000;
/** Each feed answers at once but takes this long to send its body. */
const SLOW_MS = 45_000;

/**
 * One poller per feed during a planned shard move: two nodes (the CLI, as an operator runs it)
 * on one PostgreSQL and NATS, feeds that take 45 s to answer. The first node polls all of them;
 * while those fetches run, a second node joins and takes about half the publisher shards. The
 * feed servers must never see two requests to one feed in flight, nor two polls closer than the
 * minimum interval. Before, release waited at most 4 s for a poll in progress, nothing aborted
 * the fetch, and the new owner polled within seconds.
 */
describe('publisher shards moving while their feeds are slow', { timeout: 300_000 }, () => {
  let farm: FeedFarm;
  let db: TestDb;
  let nats: OwnNatsServer;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];

  const args = (): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-handover-'));
    dirs.push(dir);
    return [
      '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', nats.url, '--workers', '1',
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn', '--admin-token', TOKEN,
    ];
  };

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: 8, feedsPerHost: 2, keep: 20, seed: 'handover', slowBodyMs: SLOW_MS }).start();
    for (const f of farm.feeds) farm.publish(f, 5, Date.now() - 600_000);
    db = await scratchPostgres();
    await addPublishers(db.sql, farm.feeds.map((f, i) => ({ id: `slow-${i}`, name: `Slow ${f.name}`, feed_url: f.url })));
    nats = await OwnNatsServer.start();
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await farm?.close();
    await nats?.stop();
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const by = (f: FarmFeed, id: string) => f.hits.filter((h) => h.agent === `newsagg-test/${id}`);

  it('aborts the polls of moved publishers; the new owner polls each feed a minimum interval later, never alongside', async () => {
    const n1 = await startNode('h1', args());
    nodes.push(n1);
    // every feed's first poll is under way on h1 (their bodies take 45 s)
    await until('h1 polling every feed', () => (farm.feeds.every((f) => f.inFlight === 1) ? true : null), 90_000, 100);

    const n2 = await startNode('h2', args());
    nodes.push(n2);
    await until('h2 owning publisher shards', async () => ((await ownedShards(n2, 'publisher')) > 0 ? true : null), 60_000);
    const moveAt = Date.now();
    const owner = await until('publishers placed on both nodes', async () => {
      const o = await owners(n2);
      return new Set(o.values()).size === 2 ? o : null;
    }, 30_000);
    const moved = farm.feeds.filter((_, i) => owner.get(`slow-${i}`) === 'h2');
    expect(moved.length).toBeGreaterThan(0);
    // the move came while h1's requests to those feeds were still being answered
    expect(moved.filter((f) => by(f, 'h1').some((h) => h.at > moveAt - SLOW_MS + 5_000))).not.toEqual([]);

    // the new owner polls every moved feed, once the minimum interval after h1's poll has passed
    await until('h2 polling every moved feed', () => (moved.every((f) => by(f, 'h2').length > 0) ? true : null), 150_000, 250);

    for (const f of farm.feeds) {
      expect(f.maxInFlight, f.name).toBe(1);
      const at = f.hits.map((h) => h.at).sort((a, b) => a - b);
      for (let k = 1; k < at.length; k++) expect(at[k]! - at[k - 1]!, `${f.name}: polls ${at.map((t) => t - at[0]!).join(', ')} ms`).toBeGreaterThanOrEqual(MIN_INTERVAL_MS - QUEUE_SLACK_MS);
    }
    for (const f of moved) expect(by(f, 'h1').length, f.name).toBe(1);
  });
});
