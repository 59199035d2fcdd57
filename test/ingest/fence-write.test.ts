import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DedupIndex } from '../../src/actors/dedup/dedup-index.js';
import { Decider } from '../../src/actors/ingest/decide.js';
import { SqlFingerprints } from '../../src/actors/ingest/fingerprints-sql.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { STORY_CLUSTER } from '../../src/actors/ingest/service.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { BatchWriter } from '../../src/actors/ingest/write.js';
import { existingUrlHashes, originalsOf } from '../../src/actors/store/articles.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { clusteredArticlesSince, databaseNow } from '../../src/actors/store/stories.js';
import { storyClusterBehaviour, type ClusterBatchReply, type ClusteredArticle, type ClusterItem, type StoryClusterMsg } from '../../src/actors/stories/story-cluster.js';
import { Fenced, SqlShardFences, type FenceToken } from '../../src/runtime/fence.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/**
 * A deposed story shard owner's late decisions (issue 20): the owner's answers carry the fencing
 * token of its lease; once a successor has raised the shard's fence, a batch carrying the old
 * token is refused at the write, nothing of it stored, and decided again by the new owner.
 */
describe('a write carrying a deposed shard owner\'s decisions', { timeout: 120_000 }, () => {
  let db: TestDb;
  const systems: ActorSystem[] = [];
  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, [{ id: 'wire', name: 'The wire', feed_url: 'https://wire.example/feed' }]);
  }, 60_000);
  afterAll(async () => {
    for (const s of systems) await s.shutdown();
    await db?.cleanup();
  });

  /** a story shard owner as a node hosts it (its replay done), answering under `token` */
  async function storyOwner(token: FenceToken) {
    const system = new ActorSystem();
    systems.push(system);
    system.register(storyClusterBehaviour({
      store: { loadSince: async (since, storedSince) => (await clusteredArticlesSince(db.sql, since, storedSince)) as ClusteredArticle[], now: () => databaseNow(db.sql) },
    }));
    await system.ask<unknown, StoryClusterMsg>(STORY_CLUSTER, { type: 'get', story_id: '' });
    return async (items: ClusterItem[]) =>
      new Fenced(await system.ask<ClusterBatchReply, StoryClusterMsg>(STORY_CLUSTER, { type: 'add-batch', items }), token);
  }

  const raw = (id: string): RawArticle => ({
    id, url: `https://wire.example/news/${id}`, publisher: 'wire', publisher_country: 'GB', published_at: new Date(Date.now() - 600_000).toISOString(),
    title: 'Harbour board of Qelmstead agrees ferry timetable after a long dispute over night crossings',
    summary: 'The harbour board said night crossings would run from spring, with the union and operators agreeing to review staffing and fares.',
  });

  it('is refused once the successor raised the fence, stores nothing, and goes through when decided again', async () => {
    const fences = new SqlShardFences(db.sql);
    const writer = new BatchWriter(db.sql, new SqlFingerprints(db.sql));
    const dedup = await DedupIndex.create({ partitions: 2 });
    const old: FenceToken = { key: 'b/story.0', gen: 1_000, rev: 5 };
    const next: FenceToken = { key: 'b/story.0', gen: 1_000, rev: 8 };
    // A acquires (raises the fence to its token) and answers; the route to the owner moves to B later
    await fences.raise(old);
    const route = { cluster: await storyOwner(old) };
    const decider = new Decider({
      urls: { lookup: (h) => existingUrlHashes(db.sql, h) },
      originals: { lookup: (ids) => originalsOf(db.sql, ids) },
      dedup,
      cluster: (items) => route.cluster(items),
    });
    const d = await decider.decide(prepareBatch([raw('late-1')], Date.now()));
    expect(d.fences).toEqual([old]);

    // A is deposed: B takes the shard, raises the fence, rebuilds; A's decided batch arrives late
    await fences.raise(next);
    route.cluster = await storyOwner(next);
    await expect(writer.write(d)).rejects.toMatchObject({ code: 'FENCED_OFF' });
    decider.release(d);
    const count = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM articles WHERE url = 'https://wire.example/news/late-1'")).rows[0]!.n;
    expect(await count()).toBe(0);

    // the batch comes back (the ingest log redelivers it) and is decided by B: stored once
    const again = await decider.decide(prepareBatch([raw('late-1')], Date.now()));
    expect(again.fences).toEqual([next]);
    await writer.write(again);
    decider.release(again);
    expect(await count()).toBe(1);
  });
});
