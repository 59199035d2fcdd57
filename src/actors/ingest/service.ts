import { DedupCoordinator } from '../dedup/coordinator.js';
import { shardKey, type DedupItem, type DedupShardMessage, type DedupShardReply } from '../dedup/dedup-shard.js';
import { block } from '../dedup/simhash.js';
import type { AddResult } from '../stories/clusterer.js';
import { storyClusterBehaviour, type StoryClusterMsg } from '../stories/story-cluster.js';
import type { CachedStory } from '../store/feed-items.js';
import type { Cache } from '../../runtime/cache.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import { siblingModule } from '../../runtime/module-url.js';
import type { Sql } from '../../runtime/sql.js';
import type { ActorSystem } from '../../runtime/system.js';
import type { TaskPool } from '../../runtime/task-pool.js';
import { WorkerGroup } from '../../runtime/worker-group.js';
import { MemoryWorkQueue, type WorkQueue } from '../../runtime/work-queue.js';
import { AuthorityTable } from '../store/authority.js';
import { SqlFingerprints } from './fingerprints-sql.js';
import { IngestPipeline, type Prepared } from './pipeline.js';
import { prepareBatch } from './prepare.js';
import { SqlStoryStore } from './story-store-sql.js';
import type { ThumbnailJob } from './thumbnails.js';
import type { PreparedArticle, RawArticle, RejectedArticle } from './types.js';

export interface IngestServiceOptions {
  system: ActorSystem;
  sql: Sql;
  /**
   * PostgreSQL URL the dedup worker reloads its shards from; null (embedded mode: PGlite takes one
   * connection) = this thread loads the fingerprints and sends them to the shards instead
   */
  databaseUrl: string | null;
  cache: Cache;
  /** the shared CPU pool; null runs the CPU stage on this thread (tests, tiny nodes) */
  pool: TaskPool | null;
  /** dedup shards per block table */
  partitions?: number;
  dedupWindowMs?: number;
  activeWindowMs?: number;
  maxBatch?: number;
  /** how often expired dedup entries are dropped (default 10 min) */
  expireEveryMs?: number;
  queue?: WorkQueue<RawArticle>;
  log?: Logger;
  metrics?: Metrics;
  now?: () => number;
  onStories?: (stories: CachedStory[]) => void;
  thumbnails?: { enqueue(jobs: ThumbnailJob[]): void };
}

export interface IngestService {
  /** append raw articles to the ingest log (waits when it is full) */
  ingest(articles: readonly RawArticle[]): Promise<void>;
  /** resolves once everything appended so far is stored */
  drain(): Promise<void>;
  readonly pending: number;
  stop(): Promise<void>;
}

export const STORY_CLUSTER = 'story-cluster/0';

/**
 * Wires the ingest path of a node: the ingest log, the CPU stage on the shared pool, the dedup
 * shards in their own worker (rebuilt from stored fingerprints), the StoryCluster actor
 * (replaying its window from stored articles) and the pipeline that writes each batch.
 */
export async function startIngest(o: IngestServiceOptions): Promise<IngestService> {
  const log = o.log ?? silentLogger;
  const now = o.now ?? Date.now;
  const partitions = o.partitions ?? 4;
  const dedupWindowMs = o.dedupWindowMs ?? 72 * 3_600_000;
  const fingerprints = new SqlFingerprints(o.sql);

  const group = new WorkerGroup({
    name: 'dedup',
    kinds: { dedup: siblingModule(import.meta.url, './dedup-shard-worker.js').filename },
    workerData: { databaseUrl: o.databaseUrl, partitions, windowMs: dedupWindowMs },
    log,
  });
  o.system.hostInWorkers(group);
  // while shards are being refilled from this thread, lookups wait (in order) behind the refill
  let refill: Promise<void> = Promise.resolve();
  const dedup = new DedupCoordinator(
    {
      ask: async (i, p, msg: DedupShardMessage) => {
        await refill;
        return o.system.ask<DedupShardReply>(`dedup/${shardKey(i, p)}`, msg, 60_000);
      },
    },
    partitions,
    fingerprints,
  );
  const stored = await fingerprints.loadAll(now() - dedupWindowMs);
  dedup.restore(stored);
  if (!o.databaseUrl) {
    const fill = async (records: readonly DedupItem[]) => {
      for (let t = 0; t < 4; t++) {
        const byShard = new Map<number, DedupItem[]>();
        for (const r of records) {
          const part = block(r.hi, r.lo, t) % partitions;
          let list = byShard.get(part);
          if (!list) byShard.set(part, (list = []));
          list.push(r);
        }
        for (const [part, items] of byShard) await o.system.ask(`dedup/${shardKey(t, part)}`, { type: 'rebuild', items } satisfies DedupShardMessage, 120_000);
      }
    };
    refill = fill(stored);
    await refill;
    group.onWorkerFailed = () => {
      refill = refill.then(async () => fill(await fingerprints.loadAll(now() - dedupWindowMs))).catch((err: unknown) => log.warn({ err: String(err) }, 'dedup shard refill failed'));
    };
  }

  const stories = new SqlStoryStore(o.sql);
  // source authority (tier and record, recomputed by the maintenance pass) feeds the lead choice
  const authority = new AuthorityTable(o.sql);
  await authority.load().catch((err: unknown) => log.warn({ err: String(err) }, 'publisher authorities not loaded; leads use the default'));
  const authorityReload = setInterval(() => {
    authority.load().catch((err: unknown) => log.warn({ err: String(err) }, 'publisher authorities not reloaded'));
  }, 10 * 60_000);
  authorityReload.unref();
  o.system.register(storyClusterBehaviour({ store: stories, clusterer: { windowMs: o.activeWindowMs ?? 48 * 3_600_000, lead: { authority: authority.get } } }));

  const prepareUrl = siblingModule(import.meta.url, './prepare-task.js').filename;
  const prepare = o.pool
    ? (items: RawArticle[]) => o.pool!.run<{ items: RawArticle[]; now: number }, { ok: PreparedArticle[]; rejected: RejectedArticle[] }>(prepareUrl, { items, now: now() })
    : async (items: RawArticle[]) => prepareBatch(items, now());

  const pipeline = new IngestPipeline({
    sql: o.sql,
    cache: o.cache,
    prepare,
    dedup,
    fingerprints,
    cluster: (items) => o.system.ask<AddResult[]>(STORY_CLUSTER, { type: 'add-batch', items } as StoryClusterMsg, 120_000),
    stories,
    log,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    ...(o.onStories ? { onStories: o.onStories } : {}),
    ...(o.thumbnails ? { thumbnails: o.thumbnails } : {}),
  });
  const queue = o.queue ?? new MemoryWorkQueue<RawArticle>({ maxBatch: o.maxBatch ?? 500, lingerMs: 10, log });
  // entries past the dedup window leave the shard tables and the fingerprint table
  const expiry = setInterval(() => {
    void (async () => {
      const removed = await dedup.expire(now());
      const pruned = await fingerprints.prune(now() - dedupWindowMs);
      log.debug({ removed, pruned }, 'dedup window expired');
    })().catch((err: unknown) => log.warn({ err: String(err) }, 'dedup expiry failed'));
  }, o.expireEveryMs ?? 10 * 60_000);
  expiry.unref();
  // Four stages in flight on consecutive batches: while one batch is announced (feed cache,
  // events), the next is written (one transaction), the one after is deduplicated and
  // clustered, and the one after that is prepared on the CPU pool. Each stage handles batches
  // in order; a failing stage is retried, never dropped.
  const retrying = async <T>(what: string, size: number, fn: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        log.warn({ err: String(err), size }, `ingest batch ${what} failed; retrying`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  let deciding: Promise<unknown> = Promise.resolve();
  let writing: Promise<unknown> = Promise.resolve();
  let announcing: Promise<void> = Promise.resolve();
  // the last few batches' writes and announcements, newest last: how far behind a stage may fall
  const writes: Promise<unknown>[] = [];
  const announcements: Promise<unknown>[] = [];
  queue.consume(async (batch) => {
    const prepared: Prepared = await pipeline.prepare(batch);
    const previousDecide = deciding;
    const decided = previousDecide.then(() => retrying('decide', prepared.ok.length, () => pipeline.decide(prepared)));
    deciding = decided;
    const written = Promise.all([decided, writing]).then(async ([d]) => {
      await retrying('write', d.rows.length, () => pipeline.write(d));
      return d;
    });
    writing = written;
    announcing = Promise.all([written, announcing]).then(async ([d]) => {
      const r = await retrying('announce', d.rows.length, () => pipeline.announce(d));
      log.debug(r, 'ingest batch stored');
    });
    writes.push(written);
    announcements.push(announcing);
    if (writes.length > 3) writes.shift();
    if (announcements.length > 4) announcements.shift();
    // the next batch is prepared while this one is decided, the one before written and the one
    // before that announced: wait for the decide before this, the write two back, the announcement three back
    await Promise.all([previousDecide, writes.length === 3 ? writes[0] : undefined, announcements.length === 4 ? announcements[0] : undefined]);
  });
  const drain = async () => {
    await queue.drain();
    await deciding;
    await writing;
    await announcing;
  };
  return {
    ingest: (articles) => queue.append(articles),
    drain,
    get pending() {
      return queue.pending;
    },
    async stop() {
      clearInterval(expiry);
      clearInterval(authorityReload);
      await queue.close();
      await deciding;
      await writing;
      await announcing;
    },
  };
}
