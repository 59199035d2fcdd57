import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm, type FarmFeed } from '../helpers/feed-farm.js';
import { owners, ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { OwnNatsServer } from '../helpers/nats.js';

const HOSTS = 8;
const FEEDS_PER_HOST = 5;
const ITEMS = 20;
const PAIRS = 12;

/**
 * Three nodes against one PostgreSQL and one NATS (our own nats-server, so restarting it
 * disturbs nobody), polling local feeds that honour ETag. One node is killed with SIGKILL in
 * the middle of ingest, then NATS is restarted, then a fourth node joins: every published
 * article is stored exactly once, the killed node's publishers are polled by the survivors, no
 * feed is ever polled by two nodes at once, and wire copies whose publishers ran on different
 * nodes are still matched to their original.
 */
describe('a three-node cluster on NATS', { timeout: 420_000 }, () => {
  let farm: FarmFeed[];
  let feedFarm: FeedFarm;
  let db: TestDb;
  let nats: OwnNatsServer;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];
  const wire: { original: string; copy: string; a: number; b: number }[] = [];

  const args = (): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-cluster-'));
    dirs.push(dir);
    return [
      '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', nats.url, '--workers', '1',
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn', '--admin-token', TOKEN,
    ];
  };

  beforeAll(async () => {
    feedFarm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS + 10, seed: 'cluster', delayMs: 150 }).start();
    farm = feedFarm.feeds;
    const now = Date.now();
    for (const f of farm) feedFarm.publish(f, ITEMS, now - 600_000);
    // wire copies: one text on two feeds of different hosts, the copy published a minute later
    for (let k = 0; k < PAIRS; k++) {
      const a = k;
      const b = (k + 17) % farm.length;
      const title = `Harbour board of Qelmstead ${k} agrees ferry timetable after a long dispute over night crossings`;
      const description = `${title}. The board said crossings number ${k} would run from spring, with the union and operators agreeing to review staffing, fares and the winter schedule together.`;
      const [orig] = feedFarm.publish(farm[a]!, 1, now - 120_000, () => ({ title, description }));
      const [copy] = feedFarm.publish(farm[b]!, 1, now - 60_000, () => ({ title, description }));
      wire.push({ original: orig!.link, copy: copy!.link, a, b });
    }
    db = await scratchPostgres();
    await addPublishers(db.sql, farm.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
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
  const polledBy = (f: FarmFeed, id: string) => f.agents.includes(`newsagg-test/${id}`);

  it('survives kill -9 and a NATS restart, takes in a fourth node, and dedups across nodes', async () => {
    const total = feedFarm.published.size;
    nodes.push(...(await Promise.all(['n1', 'n2', 'n3'].map((id) => startNode(id, args())))));
    // every node owns a share of the publisher shards, and together all of them
    await until('publisher shards spread over three nodes', async () => {
      const counts = await Promise.all(nodes.map((n) => ownedShards(n, 'publisher')));
      return counts.every((c) => c > 0) && counts.reduce((a, b) => a + b, 0) === 64 ? counts : null;
    }, 60_000);
    const ownerBefore = await owners(nodes[0]!);
    expect(new Set(ownerBefore.values())).toEqual(new Set(['n1', 'n2', 'n3']));

    // kill -9 the victim once it has polled and articles are being stored
    const victim = nodes[1]!;
    await until('ingest under way on the victim', async () => farm.some((f) => polledBy(f, victim.id)) && (await stored()) > 0, 90_000, 50);
    const polledBeforeKill = new Set(farm.filter((f) => polledBy(f, victim.id)).map((f) => f.name));
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivors = nodes.filter((n) => n !== victim);

    // NATS away and back while the survivors take over and ingest
    await nats.kill();
    await new Promise((r) => setTimeout(r, 1_000));
    await nats.up();

    await until('every published article stored', async () => ((await stored()) >= total ? true : null), 240_000, 500);
    const { rows } = await db.sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles');
    expect(rows[0]).toEqual({ n: total, urls: total });
    const urls = new Set((await db.sql.query<{ url: string }>('SELECT url FROM articles')).rows.map((r) => r.url));
    expect([...feedFarm.published].filter((u) => !urls.has(u))).toEqual([]);

    // the victim's publishers that it had not polled were polled by survivors
    const victims = farm.filter((f, i) => ownerBefore.get(`farm-${i}`) === victim.id && !polledBeforeKill.has(f.name));
    expect(victims.length).toBeGreaterThan(0);
    for (const f of victims) expect(survivors.some((s) => polledBy(f, s.id))).toBe(true);
    // the survivors hold every publisher shard between them
    await until('the survivors own every publisher shard', async () => {
      const counts = await Promise.all(survivors.map((n) => ownedShards(n, 'publisher')));
      return counts.reduce((a, b) => a + b, 0) === 64 ? true : null;
    }, 60_000);

    // wire copies: one original, the other pointing at it, one story; pairs split across nodes among them
    const byUrl = new Map(
      (await db.sql.query<{ id: string; url: string; duplicate_of: string | null; story_id: string }>('SELECT id, url, duplicate_of, story_id FROM articles')).rows.map((r) => [r.url, r]),
    );
    let split = 0;
    const apart: string[] = [];
    for (const p of wire) {
      const a = byUrl.get(p.original)!;
      const b = byUrl.get(p.copy)!;
      const linked = (a.duplicate_of === null && b.duplicate_of === a.id) || (b.duplicate_of === null && a.duplicate_of === b.id);
      expect(linked, `${p.original} / ${p.copy}`).toBe(true);
      if (a.story_id !== b.story_id) apart.push(`${p.original} / ${p.copy}`);
      if (ownerBefore.get(`farm-${p.a}`) !== ownerBefore.get(`farm-${p.b}`)) split++;
    }
    expect(split).toBeGreaterThan(0);
    // A copy follows its original's story, also when the story shard moved (the kill and the NATS
    // restart can move it) while the original's batch was on its way to the store: the copy's
    // process node names the original's story, and the new owner catches up with late batches
    expect(apart, apart.join(', ')).toEqual([]);

    // a fourth node joins and takes a share of the publisher shards
    const fourth = await startNode('n4', args());
    nodes.push(fourth);
    await until('the fourth node owning publisher shards', async () => ((await ownedShards(fourth, 'publisher')) > 0 ? true : null), 60_000);
    const after = await owners(fourth);
    expect([...after.values()].some((o) => o === 'n4')).toBe(true);
    expect([...after.values()].every((o) => o === 'n1' || o === 'n3' || o === 'n4')).toBe(true);

    // no feed was ever polled by two nodes at once; nothing stored twice after all of it
    expect(farm.filter((f) => f.maxInFlight > 1).map((f) => f.name)).toEqual([]);
    expect(await stored()).toBe(total);
    // story counts equal their rows, though several nodes wrote to the same stories at once
    const drift = await db.sql.query<{ id: string; article_count: number; n: number }>(
      `SELECT s.id, s.article_count, (SELECT count(*)::int FROM articles a WHERE a.story_id = s.id) AS n FROM stories s
        WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)`,
    );
    expect(drift.rows).toEqual([]);
  });
});
