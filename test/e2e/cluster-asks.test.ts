import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers } from '../../src/actors/store/publishers.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { openIngestLog } from '../../src/roles/ingest-log.js';
import { silentLogger } from '../../src/runtime/log.js';
import { connectNats, subjectToken, type NatsLink } from '../../src/runtime/nats-connect.js';
import type { JetStreamWorkQueue } from '../../src/runtime/work-queue-nats.js';
import { ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { OwnNatsServer } from '../helpers/nats.js';

/** an hour: an ask left waiting for the dead owner would hold its batch far beyond this test */
const ASK_TIMEOUT_S = 3600;
const PUBLISHERS = ['north', 'south', 'east', 'west'];

/**
 * Issue 20: asks in flight to a story or dedup owner that dies are answered by the new owner at
 * once, not after the ask timeout. Three process nodes (their own processes, one PostgreSQL, a
 * nats-server of this test's own with monitoring) with `--ask-timeout-seconds 3600`. The owner of
 * the story shard is frozen (SIGSTOP) so the other nodes' questions about a new batch of
 * articles reach it and stay unanswered (the server reports them delivered to its inbox), then
 * killed (SIGKILL). Every article must still be stored, once: only possible if those asks went
 * to the new owner instead of waiting out the hour.
 */
describe('asks to a story owner killed with them in flight', { timeout: 300_000 }, () => {
  let db: TestDb;
  let nats: OwnNatsServer;
  let link: NatsLink;
  let ingestLog: JetStreamWorkQueue<RawArticle>;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, PUBLISHERS.map((p) => ({ id: p, name: `The ${p}`, feed_url: `https://${p}.example/feed` })));
    nats = await OwnNatsServer.start({ monitor: true });
    link = await connectNats({ url: nats.url, reconnectWaitMs: 100 });
    ingestLog = await openIngestLog(link, { log: silentLogger });
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await ingestLog?.close().catch(() => undefined);
    await link?.close().catch(() => undefined);
    await nats?.stop();
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const args = (): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-asks-'));
    dirs.push(dir);
    return [
      '--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', nats.url, '--workers', '1',
      '--roles', 'process,api', '--ask-timeout-seconds', String(ASK_TIMEOUT_S), '--log-level', 'warn', '--admin-token', TOKEN,
    ];
  };
  const article = (n: number): RawArticle => {
    const p = PUBLISHERS[n % PUBLISHERS.length]!;
    return {
      id: `asks-${n}`, url: `https://${p}.example/news/asks-${n}`, publisher: p, publisher_country: 'GB',
      published_at: new Date(Date.now() - 600_000 + n * 1000).toISOString(),
      title: `Council ${n} of Qelmstead votes on harbour plan number ${n} after long night debate`,
      summary: `Members of council ${n} debated the harbour expansion plan ${n}, its dredging costs and berths, before a late vote.`,
    };
  };
  const stored = async (ids: string[]) =>
    (await db.sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles WHERE url = ANY($1::text[])', [ids.map((i) => article(Number(i)).url)])).rows[0]!;

  /** the one node owning the story shard, once exactly one does */
  const storyOwner = () =>
    until('the story shard owned by one node', async () => {
      const counts = await Promise.all(nodes.map((n) => ownedShards(n, 'story')));
      return counts.filter((c) => c === 1).length === 1 && counts.reduce((a, b) => a + b, 0) === 1 ? nodes[counts.indexOf(1)]! : null;
    }, 120_000);

  it('stores every article of a batch whose asks were waiting for the killed owner', async () => {
    nodes.push(...(await Promise.all(['a1', 'a2', 'a3'].map((id) => startNode(id, args())))));
    // ingest under way on every node
    const warm = Array.from({ length: 12 }, (_, i) => i);
    await ingestLog.append(warm.map(article));
    await until('the first articles stored', async () => ((await stored(warm.map(String))).urls === warm.length ? true : null), 120_000, 250);

    // freeze the owner: its inbox still takes the others' questions about a new batch, and nobody
    // answers them. The question must reach it before the others drop it from the members (3.5 s
    // without heartbeats); on a machine too busy for that, the owner is thawed and it is tried again.
    const batch: number[] = [];
    let owner: RunningNode | null = null;
    for (let attempt = 0; attempt < 5 && !owner; attempt++) {
      const o = await storyOwner();
      const inbox = `${link.prefix}.node.${subjectToken(o.id)}`;
      const before = await nats.delivered(o.id, inbox);
      o.child.kill('SIGSTOP');
      const more = Array.from({ length: 10 }, (_, i) => 100 + attempt * 10 + i);
      batch.push(...more);
      await ingestLog.append(more.map(article));
      const reached = await until('a question to reach the frozen owner', async () => ((await nats.delivered(o.id, inbox)) > before ? true : null), 2_500, 50).catch(() => false);
      if (reached) owner = o;
      else {
        o.child.kill('SIGCONT');
        await until('the batch stored', async () => ((await stored(batch.map(String))).urls === batch.length ? true : null), 180_000, 250);
      }
    }
    expect(owner).not.toBeNull();
    owner!.child.kill('SIGKILL');
    await owner!.exited;

    await until('every article stored', async () => ((await stored(batch.map(String))).urls === batch.length ? true : null), 180_000, 500);
    expect(await stored(batch.map(String))).toEqual({ n: batch.length, urls: batch.length });
    // a survivor took the story shard over
    const survivors = nodes.filter((n) => n !== owner);
    await until('a survivor owning the story shard', async () => ((await Promise.all(survivors.map((n) => ownedShards(n, 'story')))).reduce((a, b) => a + b, 0) === 1 ? true : null), 60_000);
  });
});
