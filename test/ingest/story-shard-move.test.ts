import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DedupIndex } from '../../src/actors/dedup/dedup-index.js';
import { DECISION_TTL_MS } from '../../src/actors/ingest/decision-time.js';
import { Decider, type Decided, type DecideDeps } from '../../src/actors/ingest/decide.js';
import { DedupOwner, type DedupOwnerMsg } from '../../src/actors/ingest/dedup-owner.js';
import { SqlFingerprints } from '../../src/actors/ingest/fingerprints-sql.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { STORY_CLUSTER } from '../../src/actors/ingest/service.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { BatchWriter, DecisionExpiredError } from '../../src/actors/ingest/write.js';
import { existingUrlHashes, originalsOf } from '../../src/actors/store/articles.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { clusteredArticlesSince, databaseNow } from '../../src/actors/store/stories.js';
import { storyClusterBehaviour, type ClusterBatchReply, type ClusteredArticle, type ClusterItem, type StoryClusterMsg } from '../../src/actors/stories/story-cluster.js';
import { silentLogger } from '../../src/runtime/log.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { askVia, DEDUP_OWNER } from '../../src/roles/cluster.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { until } from '../helpers/cluster-nodes.js';

/**
 * The story (and dedup) shard moving while batches the old owner answered are still on their
 * way to the store (issue 12 follow-up). Story actors and dedup owners play the old owner and
 * the new one, each in its own actor system, rebuilding from one real PostgreSQL as a node's
 * would; process nodes are Deciders and BatchWriters, as a node's pipeline runs them. The
 * cluster's NATS only carries the asks between them, which here go straight to whichever owns
 * the shard, so each case orders the move and the late commit exactly.
 */

const NOW = Date.now();
const at = (min: number) => new Date(NOW - 3 * 3_600_000 + min * 60_000).toISOString();
const PUBLISHERS = ['wire', 'daily', 'herald', 'gazette'];

/** unrelated events (each test its own, so no story of an earlier test can take its articles) */
const EVENTS = [
  ['Harbour board of Qelmstead agrees ferry timetable after a long dispute over night crossings',
    'The harbour board of Qelmstead said night crossings would run from spring, with the union and operators agreeing to review staffing, fares and the winter schedule together.'],
  ['Copper smelter in Varnholt shut after acid leak reaches the river',
    'Regulators ordered the Varnholt copper smelter closed on Tuesday after sulphuric acid leaked into the river, killing fish for several kilometres downstream, the environment agency said.'],
  ['Orlavia central bank raises interest rates to curb inflation',
    'The central bank of Orlavia raised its main interest rate by half a point to 6.25 percent, citing food and energy prices that pushed inflation to a twelve-year high last month.'],
  ['Striker Tomas Breuning signs for Dunmore Athletic in record transfer',
    'Dunmore Athletic completed the signing of striker Tomas Breuning for a club record fee on Friday, beating two rivals to the forward who scored 31 goals last season.'],
  ['Wildfire forces evacuation of villages near Castrenna',
    'Firefighters battled a wildfire that forced the evacuation of four villages near Castrenna overnight, as strong winds and dry conditions spread the flames across the hills, officials said.'],
  ['Museum in Peldrath returns looted bronze statues to their temple',
    'The national museum in Peldrath handed back six bronze statues looted from a hill temple in the 1970s, after a three-year inquiry traced them through dealers in two countries.'],
  ['Rail workers in Suvanto vote to strike over pay and night shifts',
    'Members of the Suvanto rail union voted by a large majority to strike next month, saying a pay offer below inflation and longer night shifts left them no choice, the union said on Monday.'],
] as const;
const event = (n: number) => ({ title: EVENTS[n - 1]![0], summary: EVENTS[n - 1]![1] });

function raw(id: string, publisher: string, min: number, text: { title: string; summary: string }): RawArticle {
  return { id, url: `https://${publisher}.example/news/${id}`, ...text, publisher, published_at: at(min), publisher_country: 'GB' };
}

describe('a shard moving while batches it answered are being stored', { timeout: 120_000 }, () => {
  let db: TestDb;
  let dedup: DedupIndex;
  let writer: BatchWriter;
  const systems: ActorSystem[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, PUBLISHERS.map((p) => ({ id: p, name: `The ${p}`, feed_url: `https://${p}.example/feed` })));
    // the dedup shard stays where it is: one index for both process nodes
    dedup = await DedupIndex.create({ partitions: 2 });
    writer = new BatchWriter(db.sql, new SqlFingerprints(db.sql));
  }, 60_000);
  afterAll(async () => {
    for (const s of systems) await s.shutdown();
    await db?.cleanup();
  });

  /** A story shard owner as a node hosts it: the actor replays the store when it starts. */
  async function owner(catchUpAfterMs: number[] = []): Promise<{ system: ActorSystem; add(items: ClusterItem[]): Promise<ClusterBatchReply> }> {
    const system = new ActorSystem();
    systems.push(system);
    system.register(storyClusterBehaviour({
      store: { loadSince: async (since, storedSince) => (await clusteredArticlesSince(db.sql, since, storedSince)) as ClusteredArticle[], now: () => databaseNow(db.sql) },
      catchUpAfterMs,
    }));
    // acquiring: ready once it answers, its replay done
    await system.ask<unknown, StoryClusterMsg>(STORY_CLUSTER, { type: 'get', story_id: '' });
    return { system, add: (items) => system.ask<ClusterBatchReply, StoryClusterMsg>(STORY_CLUSTER, { type: 'add-batch', items }) };
  }

  /** A process node: asks whichever actor `route.to` names, a slice of `slice` articles at a time. */
  function processNode(
    route: { to: { add(items: ClusterItem[]): Promise<ClusterBatchReply> } },
    o: { slice?: number; now?: () => number; dedup?: DecideDeps['dedup']; originalWaitMs?: number } = {},
  ): Decider {
    return new Decider({
      urls: { lookup: (hashes) => existingUrlHashes(db.sql, hashes) },
      originals: { lookup: (ids) => originalsOf(db.sql, ids) },
      dedup: o.dedup ?? dedup,
      clusterSlice: o.slice ?? 10,
      now: o.now ?? Date.now,
      originalWaitMs: o.originalWaitMs ?? 0,
      cluster: (items) => route.to.add(items),
    });
  }

  const decide = (node: Decider, articles: RawArticle[]): Promise<Decided> => node.decide(prepareBatch(articles, Date.now()));
  async function store(node: Decider, d: Decided): Promise<void> {
    try {
      await writer.write(d);
    } finally {
      node.release(d);
    }
  }
  async function stored(...ids: string[]): Promise<Map<string, { id: string; story_id: string; duplicate_of: string | null }>> {
    const { rows } = await db.sql.query<{ id: string; url: string; story_id: string; duplicate_of: string | null }>(
      'SELECT id, url, story_id, duplicate_of FROM articles WHERE url = ANY($1::text[])',
      [ids.map((id) => `https://${PUBLISHERS.find((p) => id.startsWith(p))}.example/news/${id}`)],
    );
    return new Map(rows.map((r) => [r.url.slice(r.url.lastIndexOf('/') + 1), r]));
  }

  it('a wire copy joins its original stored after the new owner replayed', async () => {
    const a = await owner();
    const route = { to: a };
    const p1 = processNode(route);
    const p2 = processNode(route);
    // A clusters the original; the shard moves and B replays before the original's batch is stored
    const d1 = await decide(p1, [raw('wire-1', 'wire', 0, event(1))]);
    route.to = await owner();
    await store(p1, d1);
    // the copy, on another process node, is clustered by B, which never saw the original
    const d2 = await decide(p2, [raw('daily-1', 'daily', 30, event(1))]);
    await store(p2, d2);
    const r = await stored('wire-1', 'daily-1');
    expect(r.get('daily-1')!.duplicate_of).toBe(r.get('wire-1')!.id);
    expect(r.get('daily-1')!.story_id).toBe(r.get('wire-1')!.story_id);
  });

  it('a wire copy joins its original decided in the same batch when the shard moves between slices', async () => {
    const route = { to: await owner() };
    let asks = 0;
    const moving = {
      add: async (items: ClusterItem[]) => {
        // the second slice goes to a new owner, which replayed without the first
        if (asks++ === 1) route.to = await owner();
        return route.to.add(items);
      },
    };
    const p1 = processNode({ to: moving }, { slice: 1 });
    const d = await decide(p1, [raw('wire-2', 'wire', 0, event(2)), raw('herald-2', 'herald', 20, event(2))]);
    expect(asks).toBe(2);
    await store(p1, d);
    const r = await stored('wire-2', 'herald-2');
    expect(r.get('herald-2')!.duplicate_of).toBe(r.get('wire-2')!.id);
    expect(r.get('herald-2')!.story_id).toBe(r.get('wire-2')!.story_id);
  });

  it('a wire copy joins its original still being stored by the same process node', async () => {
    const route = { to: await owner() };
    const p1 = processNode(route);
    const d1 = await decide(p1, [raw('wire-3', 'wire', 0, event(3))]);
    route.to = await owner();
    // decided while the original's batch is not stored yet
    const d2 = await decide(p1, [raw('gazette-3', 'gazette', 40, event(3))]);
    await store(p1, d1);
    await store(p1, d2);
    const r = await stored('wire-3', 'gazette-3');
    expect(r.get('gazette-3')!.duplicate_of).toBe(r.get('wire-3')!.id);
    expect(r.get('gazette-3')!.story_id).toBe(r.get('wire-3')!.story_id);
  });

  it('a wire copy clustered while another process node is still storing its original waits for the original\'s story', async () => {
    const route = { to: await owner() };
    const p1 = processNode(route);
    const p2 = processNode(route, { originalWaitMs: 30_000 });
    const d1 = await decide(p1, [raw('wire-7', 'wire', 0, event(7))]);
    route.to = await owner();
    // the copy reaches the new owner before its original is stored, and waits for it
    const copy = decide(p2, [raw('herald-7', 'herald', 30, event(7))]);
    await store(p1, d1);
    await store(p2, await copy);
    const r = await stored('wire-7', 'herald-7');
    expect(r.get('herald-7')!.duplicate_of).toBe(r.get('wire-7')!.id);
    expect(r.get('herald-7')!.story_id).toBe(r.get('wire-7')!.story_id);
  });

  it('the new owner catches up with a batch stored after its replay: a later report of the event joins its story', async () => {
    const route = { to: await owner() };
    const p1 = processNode(route);
    const d1 = await decide(p1, [raw('wire-4', 'wire', 0, event(4))]);
    // B's catch-up pass is sent by hand below (its timer would come long after the test)
    const b = await owner([3_600_000]);
    route.to = b;
    await store(p1, d1);
    const x = (await stored('wire-4')).get('wire-4')!;
    expect(await b.system.ask<string | null, StoryClusterMsg>(STORY_CLUSTER, { type: 'story-of', article_id: x.id })).toBeNull();
    b.system.send<StoryClusterMsg>(STORY_CLUSTER, { type: 'catch-up', pass: 0 });
    await until('the new owner knows the late article', async () => (await b.system.ask<string | null, StoryClusterMsg>(STORY_CLUSTER, { type: 'story-of', article_id: x.id })) === x.story_id, 30_000, 50);
    // another publisher's own report of the event (not a copy) finds its story at B
    const report = {
      title: 'Dunmore Athletic land Tomas Breuning for club record fee',
      summary: 'Tomas Breuning joined Dunmore Athletic on Friday for a record fee, the club said, after the striker scored 31 goals last season and drew interest from two rival clubs.',
    };
    const d2 = await decide(p1, [raw('herald-4', 'herald', 60, report)]);
    await store(p1, d2);
    const r = await stored('wire-4', 'herald-4');
    expect(r.get('herald-4')!.duplicate_of).toBeNull();
    expect(r.get('herald-4')!.story_id).toBe(x.story_id);
  });

  it('refuses to store a decision older than the decision time, so it is decided again', async () => {
    const clock = { now: Date.now() };
    const route = { to: await owner() };
    const p1 = processNode(route, { now: () => clock.now });
    const late = new BatchWriter(db.sql, new SqlFingerprints(db.sql), undefined, () => clock.now);
    const d = await decide(p1, [raw('wire-5', 'wire', 0, event(5))]);
    clock.now += DECISION_TTL_MS + 1;
    await expect(late.write(d)).rejects.toBeInstanceOf(DecisionExpiredError);
    p1.release(d);
    expect((await stored('wire-5')).size).toBe(0);
    // decided again (the same owner answers the same story) and stored in time
    const again = await decide(p1, [raw('wire-5', 'wire', 0, event(5))]);
    expect(again.rows[0]!.story_id).toBe(d.rows[0]!.story_id);
    await late.write(again);
    p1.release(again);
    expect((await stored('wire-5')).get('wire-5')!.story_id).toBe(d.rows[0]!.story_id);
  });

  it('a new dedup shard owner catches up with fingerprints stored after its rebuild: a later copy is still a copy', async () => {
    const story = { to: await owner() };
    const dedupOwner = async (catchUpAfterMs: number[], lines?: string[]) => {
      const system = new ActorSystem();
      systems.push(system);
      const log = lines ? pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }) : silentLogger;
      const o = new DedupOwner({ system, sql: db.sql, databaseUrl: db.url, partitions: 2, windowMs: 72 * 3_600_000, log, now: Date.now, expireEveryMs: 600_000, catchUpAfterMs });
      await o.acquired();
      return { owner: o, submit: (batch: Parameters<DecideDeps['dedup']['submit']>[0]) => askVia<Awaited<ReturnType<DecideDeps['dedup']['submit']>>, DedupOwnerMsg>(o, DEDUP_OWNER, { type: 'submit', batch: [...batch] }) };
    };
    const d1 = await dedupOwner([]);
    const p1 = processNode(story, { dedup: d1 });
    // the old dedup owner numbers the original; the shard moves and the new owner rebuilds before it is stored
    const dx = await decide(p1, [raw('wire-6', 'wire', 0, event(6))]);
    await d1.owner.released();
    const lines: string[] = [];
    const d2 = await dedupOwner([1_000, 2_000, 4_000], lines);
    await store(p1, dx);
    await until('the new dedup owner caught up', () => lines.some((l) => l.includes('dedup shard caught up')), 30_000, 50);
    const p2 = processNode(story, { dedup: d2 });
    const dy = await decide(p2, [raw('daily-6', 'daily', 30, event(6))]);
    await store(p2, dy);
    const r = await stored('wire-6', 'daily-6');
    expect(r.get('daily-6')!.duplicate_of).toBe(r.get('wire-6')!.id);
    expect(r.get('daily-6')!.story_id).toBe(r.get('wire-6')!.story_id);
    await d2.owner.released();
  });
});
