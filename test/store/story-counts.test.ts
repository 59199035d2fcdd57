import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DedupIndex } from '../../src/actors/dedup/dedup-index.js';
import { Decider, type Decided } from '../../src/actors/ingest/decide.js';
import { SqlFingerprints } from '../../src/actors/ingest/fingerprints-sql.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { STORY_CLUSTER } from '../../src/actors/ingest/service.js';
import { BatchWriter } from '../../src/actors/ingest/write.js';
import { existingUrlHashes, originalsOf, upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { applyRetention } from '../../src/actors/store/retention.js';
import { StoryCountCheck } from '../../src/actors/store/story-count-check.js';
import { clusteredArticlesSince, databaseNow, getStories, upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { storyClusterBehaviour, type ClusterBatchReply, type ClusteredArticle, type StoryClusterMsg } from '../../src/actors/stories/story-cluster.js';
import { Metrics } from '../../src/runtime/metrics.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/**
 * Story counts follow the stored rows: with two owners' transactions writing the same stories,
 * a batch delivered again after its write failed, retention dropping a month, and drift that
 * nothing else caught (injected here by SQL), which the periodic check repairs and counts.
 */

const DAY = 86_400_000;
const PUBLISHERS = ['p1', 'p2', 'p3', 'p4'];

function article(id: string, story: string | null, publishedAt: number, publisher = 'p1'): ArticleRow {
  return {
    id, url: `https://${publisher}.example/${id}`, url_hash: `uh-${id}`, simhash: null, title: `Title ${id}`, snippet: 'Some words about it', thumbnail_url: null,
    publisher_id: publisher, published_at: new Date(publishedAt).toISOString(), category: 'world', region: 'us', language: 'en',
    story_id: story, duplicate_of: null, entities: [], places: [],
  };
}

/** The story as a clusterer would describe it: its counts are what that clusterer saw, not the rows. */
function story(id: string, at: number, seen = 1): StoryRow {
  const t = new Date(at).toISOString();
  return { id, title: id, lead_article_id: null, article_count: seen, publisher_count: 1, first_seen: t, updated_at: t, category: 'world', regions: ['us'], entities: [], score: 0 };
}

function batch(rows: ArticleRow[], stories: StoryRow[]): Decided {
  return { outcomes: [], rows, refresh: [], stories, fingerprints: [], thumbnails: [], rejected: [], known: new Map(), originals: new Map(), storeBy: Infinity };
}

/** Stories whose stored counts differ from their rows. */
async function drift(sql: Sql): Promise<{ id: string; stored: number; rows: number }[]> {
  const { rows } = await sql.query<{ id: string; stored: number; rows: number }>(
    `SELECT s.id, s.article_count AS stored, (SELECT count(*)::int FROM articles a WHERE a.story_id = s.id) AS rows FROM stories s
      WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)
         OR s.publisher_count <> (SELECT count(DISTINCT publisher_id) FROM articles a WHERE a.story_id = s.id)
      ORDER BY s.id`,
  );
  return rows;
}

describe('story counts follow their rows', { timeout: 120_000 }, () => {
  let db: TestDb;
  let other: Sql;
  let a: BatchWriter;
  let b: BatchWriter;
  const now = Date.now();

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, PUBLISHERS.map((p) => ({ id: p, name: p, feed_url: `https://${p}.example/feed` })));
    // two process nodes: their own connections, their own writers
    other = await openSql({ databaseUrl: db.url!, dataDir: '' });
    a = new BatchWriter(db.sql, new SqlFingerprints(db.sql));
    b = new BatchWriter(other, new SqlFingerprints(other));
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await db?.cleanup();
  });

  it('two owners writing the same stories at once: every count is its rows', async () => {
    // each batch adds articles to the same three stories, its counts as its own clusterer saw them
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) {
      const w = i % 2 === 0 ? a : b;
      const rows = ['cs-1', 'cs-2', 'cs-3'].map((s, k) => article(`c${i}-${k}`, s, now - i * 60_000, PUBLISHERS[(i + k) % 4]));
      writes.push(w.write(batch(rows, ['cs-1', 'cs-2', 'cs-3'].map((s) => story(s, now, i + 1)))));
    }
    await Promise.all(writes);
    expect(await drift(db.sql)).toEqual([]);
    expect((await getStories(db.sql, ['cs-1'])).map((s) => [s.article_count, s.publisher_count])).toEqual([[24, 4]]);
  });

  it('one article in two owners\' batches with different stories: it stays in the first, both stories counted', async () => {
    await a.write(batch([article('m-base', 'ms-old', now)], [story('ms-old', now)]));
    await b.write(batch([article('m-base2', 'ms-new', now)], [story('ms-new', now)]));
    // the old owner's batch stored it in ms-old; the new owner's, delivered again meanwhile, in ms-new
    await a.write(batch([article('m-1', 'ms-old', now)], [story('ms-old', now, 2)]));
    await b.write(batch([article('m-1', 'ms-new', now)], [story('ms-new', now, 2)]));
    const { rows } = await db.sql.query<{ story_id: string }>('SELECT story_id FROM articles WHERE id = $1', ['m-1']);
    expect(rows).toEqual([{ story_id: 'ms-old' }]);
    expect((await getStories(db.sql, ['ms-old', 'ms-new'])).map((s) => [s.id, s.article_count]).sort()).toEqual([['ms-new', 1], ['ms-old', 2]]);
    expect(await drift(db.sql)).toEqual([]);
  });

  it('a batch storing an article in a story it does not describe recounts that story too', async () => {
    await a.write(batch([article('k-1', 'ks-1', now)], [story('ks-1', now)]));
    // the clusterer knew the article already (its first batch was decided and never stored): no summary
    await b.write(batch([article('k-2', 'ks-1', now, 'p2')], []));
    expect((await getStories(db.sql, ['ks-1'])).map((s) => [s.article_count, s.publisher_count])).toEqual([[2, 2]]);
    expect(await drift(db.sql)).toEqual([]);
  });

  it('a batch decided, not stored, and decided again stores its story with it', async () => {
    const system = new ActorSystem();
    try {
      system.register(storyClusterBehaviour({
        store: { loadSince: async (since, storedSince) => (await clusteredArticlesSince(db.sql, since, storedSince)) as ClusteredArticle[], now: () => databaseNow(db.sql) },
      }));
      const decider = new Decider({
        urls: { lookup: (hashes) => existingUrlHashes(db.sql, hashes) },
        originals: { lookup: (ids) => originalsOf(db.sql, ids) },
        dedup: await DedupIndex.create({ partitions: 2 }),
        cluster: (items) => system.ask<ClusterBatchReply, StoryClusterMsg>(STORY_CLUSTER, { type: 'add-batch', items }),
      });
      const raw = [
        { id: 'r-1', url: 'https://p1.example/news/r-1', title: 'Harbour board of Qelmstead agrees ferry timetable after long dispute', summary: 'Night crossings run from spring, the harbour board said.', publisher: 'p1', published_at: new Date(now).toISOString() },
        { id: 'r-2', url: 'https://p2.example/news/r-2', title: 'Copper smelter in Varnholt shut after acid leak reaches river', summary: 'Regulators closed the smelter after the leak.', publisher: 'p2', published_at: new Date(now).toISOString() },
      ];
      // the first decision's write fails (the database went away): the batch comes again
      const first = await decider.decide(prepareBatch(raw, now));
      decider.release(first);
      const again = await decider.decide(prepareBatch(raw, now));
      await a.write(again);
      decider.release(again);
      const ids = again.rows.map((r) => r.story_id!);
      expect(ids).toHaveLength(2);
      expect((await getStories(db.sql, ids)).map((s) => s.article_count)).toEqual([1, 1]);
      expect((await db.sql.query('SELECT 1 FROM articles a WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = a.story_id)')).rows).toEqual([]);
    } finally {
      await system.shutdown();
    }
  });

  it('retention dropping a month recounts the stories that kept articles of later months', async () => {
    const NOW = Date.parse('2026-11-20T12:00:00Z');
    const old = Date.parse('2026-06-20T00:00:00Z');
    await upsertArticles(db.sql, [
      article('rt-1', 'rt-span', old, 'p1'), article('rt-2', 'rt-span', old + DAY, 'p2'),
      article('rt-3', 'rt-span', Date.parse('2026-07-02T00:00:00Z'), 'p3'),
      article('rt-4', 'rt-span', NOW - DAY, 'p1'),
      article('rt-5', 'rt-old', old, 'p1'),
    ]);
    await upsertStories(db.sql, [{ ...story('rt-span', NOW - DAY), article_count: 4, publisher_count: 3 }, story('rt-old', old)]);
    // a row of that month kept in the default partition (written before its partition existed)
    await db.sql.query(`INSERT INTO articles_default (id, url, url_hash, title, publisher_id, published_at, story_id) VALUES ('rt-d', 'https://p4.example/rt-d', 'uh-rt-d', 'T', 'p4', '2026-05-02T00:00:00Z', 'rt-span')`);
    await db.sql.query(`UPDATE stories SET article_count = 5, publisher_count = 4 WHERE id = 'rt-span'`);
    expect(await drift(db.sql)).toEqual([]);

    const recounted: string[] = [];
    const r = await applyRetention(db.sql, Date.parse('2026-07-20T00:00:00Z'), NOW, { onRecounted: (ids) => void recounted.push(...ids) });
    expect(r.partitions).toEqual(['articles_2026_06']);
    expect(r.articles).toBe(1);
    expect(recounted).toEqual(['rt-span']);
    const [span] = await getStories(db.sql, ['rt-span']);
    // rt-3 (July) and rt-4 (November) are left, from two publishers
    expect([span!.article_count, span!.publisher_count]).toEqual([2, 2]);
    expect(await getStories(db.sql, ['rt-old'])).toEqual([]);
    expect(await drift(db.sql)).toEqual([]);
    expect((await db.sql.query('SELECT 1 FROM story_recounts')).rows).toEqual([]);
  });

  it('the periodic check finds drift nothing else caught, repairs it, and counts it', async () => {
    // stories written long ago (out of the recent look) and one written now
    const slow = Array.from({ length: 30 }, (_, i) => `pc-${String(i).padStart(2, '0')}`);
    await a.write(batch(slow.map((s, i) => article(`pca-${i}`, s, now - 3 * DAY)), slow.map((s) => story(s, now - 3 * DAY))));
    await db.sql.query(`UPDATE articles SET ingested_at = now() - interval '2 days' WHERE id LIKE 'pca-%'`);
    const metrics = new Metrics();
    const changed: string[] = [];
    const check = new StoryCountCheck({ sql: db.sql, metrics, slice: 7, recentMarginMs: 60_000, onChanged: (ids) => void changed.push(...ids) });
    // a first pass over clean data repairs nothing
    expect((await check.pass()).repaired).toEqual([]);

    await db.sql.query(`UPDATE stories SET article_count = article_count + 2 WHERE id IN ('pc-03', 'pc-27')`);
    await db.sql.query(`UPDATE stories SET publisher_count = 0 WHERE id = 'pc-15'`);
    await a.write(batch([article('pcn-1', 'pc-new', now)], [story('pc-new', now)]));
    await db.sql.query(`UPDATE stories SET article_count = 9 WHERE id = 'pc-new'`);
    expect((await drift(db.sql)).map((d) => d.id)).toEqual(['pc-03', 'pc-15', 'pc-27', 'pc-new']);

    // the recently written story is repaired at the next pass; the others as the rolling slice reaches them
    const first = await check.pass();
    expect(first.repaired.map((f) => f.id)).toContain('pc-new');
    expect(first.repaired.find((f) => f.id === 'pc-new')).toEqual({ id: 'pc-new', before: { articles: 9, publishers: 1 }, after: { articles: 1, publishers: 1 } });
    // (a whole round of the slices, from wherever the first pass left the cursor)
    for (let wraps = 0; wraps < 2; ) if ((await check.pass()).wrapped) wraps++;
    expect(await drift(db.sql)).toEqual([]);
    expect(changed.sort()).toEqual(['pc-03', 'pc-15', 'pc-27', 'pc-new']);
    expect(await metrics.sum('newsagg_story_count_repairs_total')).toBe(4);
    expect(await metrics.registry.metrics()).toMatch(/^newsagg_story_count_repairs_total 4$/m);
  });
});
