import { existingUrlHashes, originalsOf } from '../store/articles.js';
import type { CachedStory } from '../model/index.js';
import { pruneRejected } from '../store/rejected.js';
import { storyClusterBehaviour, type ClusterBatchReply, type StoryClusterMsg } from '../stories/story-cluster.js';
import { sqlStoryStore } from './story-store-sql.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import { siblingModule } from '../../runtime/module-url.js';
import type { Sql } from '../../runtime/sql.js';
import type { ActorSystem } from '../../runtime/system.js';
import type { TaskPool } from '../../runtime/task-pool.js';
import { MemoryWorkQueue, type WorkQueue } from '../../runtime/work-queue.js';
import { AuthorityTable } from '../store/authority.js';
import { Announcer } from './announce.js';
import { Decider, type DecideDeps } from './decide.js';
import { openLocalDedup, type LocalDedup } from './dedup-local.js';
import { SqlFingerprints } from './fingerprints-sql.js';
import { IngestPipeline, type Prepared } from './pipeline.js';
import type { PrepareTask } from './prepare-task.js';
import { prepareBatch } from './prepare.js';
import type { ThumbnailJob } from './thumbnails.js';
import type { RawArticle } from './types.js';
import { BatchWriter } from './write.js';

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
  /** how often the story clusterer writes its snapshot (default 5 min; 0 = never) */
  storySnapshotMs?: number;
  maxBatch?: number;
  /** raw articles waiting in the ingest log before appends wait (default 5,000) */
  queueMax?: number;
  /** how often expired dedup entries are dropped (default: a quarter of the window, at most 10 min) */
  expireEveryMs?: number;
  /** how long work may wait without a batch stored before the node reports not ready (default 60 s) */
  stallMs?: number;
  queue?: WorkQueue<RawArticle>;
  /**
   * a cluster: dedup decisions and story clustering are asked of the nodes owning them (each a
   * single shard) instead of being run here; the StoryCluster behaviour is still registered here
   * so this node can host it when it owns the story shard
   */
  remote?: { dedup: DecideDeps['dedup']; cluster: DecideDeps['cluster'] };
  log?: Logger;
  metrics?: Metrics;
  now?: () => number;
  onStories?: (stories: CachedStory[]) => void;
  thumbnails?: { enqueue(jobs: ThumbnailJob[]): void };
}

export interface IngestService {
  /** append raw articles to the ingest log; resolves once they are stored (rejects when they could not be) */
  ingest(articles: readonly RawArticle[]): Promise<void>;
  /** resolves once everything appended so far is stored and announced */
  drain(): Promise<void>;
  readonly pending: number;
  /** throws when work has waited `stallMs` with no batch stored (a readiness check) */
  checkProgress(): void;
  /** stops intake, stores what is queued (up to `timeoutMs`); what is left is given up, never half-written */
  stop(timeoutMs?: number): Promise<void>;
}

export const STORY_CLUSTER = 'story-cluster/0';

/** Rejected-article records are kept this long after they were last seen. */
const REJECTED_KEEP_MS = 30 * 86_400_000;

/** Ingest made no progress for too long with work waiting: the node is not ready. */
export class IngestStalledError extends Error {
  readonly code = 'INGEST_STALLED';
}

/** The in-process ingest log as a node runs it. */
export function ingestQueue(o: { maxBatch?: number | undefined; queueMax?: number | undefined; log?: Logger; onGiveUp?: () => void } = {}): MemoryWorkQueue<RawArticle> {
  return new MemoryWorkQueue<RawArticle>({
    maxBatch: o.maxBatch ?? 500,
    lingerMs: 10,
    highWater: o.queueMax ?? 5_000,
    // prepare, decide, store and announce work on consecutive batches at once
    concurrency: 4,
    ...(o.log ? { log: o.log } : {}),
    ...(o.onGiveUp ? { onGiveUp: o.onGiveUp } : {}),
  });
}

/**
 * Wires the ingest path of a node: the ingest log, the CPU stage on the shared pool, the dedup
 * shards in their own worker (rebuilt from stored fingerprints), the StoryCluster actor
 * (replaying its window from stored articles) and the pipeline that stores each batch before
 * the log acknowledges it.
 */
export async function startIngest(o: IngestServiceOptions): Promise<IngestService> {
  const log = o.log ?? silentLogger;
  const now = o.now ?? Date.now;
  const partitions = o.partitions ?? 4;
  const dedupWindowMs = o.dedupWindowMs ?? 72 * 3_600_000;
  const fingerprints = new SqlFingerprints(o.sql);

  // the dedup coordinator and its shards: here (one node), or on the node owning them (a cluster)
  let local: LocalDedup | null = null;
  if (!o.remote) {
    local = await openLocalDedup({ system: o.system, sql: o.sql, databaseUrl: o.databaseUrl, partitions, windowMs: dedupWindowMs, log, now });
  }
  const dedup: DecideDeps['dedup'] = o.remote?.dedup ?? local!.coordinator;

  const activeWindowMs = o.activeWindowMs ?? 48 * 3_600_000;
  // source authority (tier and record, recomputed by the maintenance pass) feeds the lead choice
  const authority = new AuthorityTable(o.sql);
  await authority.load().catch((err: unknown) => log.warn({ err: String(err) }, 'publisher authorities not loaded; leads use the default'));
  const authorityReload = setInterval(() => {
    authority.load().catch((err: unknown) => log.warn({ err: String(err) }, 'publisher authorities not reloaded'));
  }, 10 * 60_000);
  authorityReload.unref();
  o.system.register(
    storyClusterBehaviour({
      // after its replay the actor catches up with batches a previous owner decided (story-cluster.ts)
      // and loads its latest snapshot, replaying only what was stored since
      store: sqlStoryStore(o.sql),
      clusterer: { windowMs: activeWindowMs, lead: { authority: authority.get } },
      ...(o.storySnapshotMs !== undefined ? { snapshotEveryMs: o.storySnapshotMs } : {}),
    }),
  );

  const prepareUrl = siblingModule(import.meta.url, './prepare-task.js').filename;
  const prepare = o.pool
    ? (items: RawArticle[]) => o.pool!.run<PrepareTask, Prepared>(prepareUrl, { items, now: now() })
    : async (items: RawArticle[]) => prepareBatch(items, now());

  const decider = new Decider({
    urls: { lookup: (hashes) => existingUrlHashes(o.sql, hashes) },
    // a wire copy of a stored article takes its category and joins its story (one probe per original, copies only)
    originals: { lookup: (ids) => originalsOf(o.sql, ids) },
    dedup,
    // a few ms of clustering per ask: I/O callbacks (the previous batch's transaction, the API) run between
    clusterSlice: 10,
    // in a cluster a copy's original may be in a batch another node is still storing, decided by
    // a previous owner of the story shard: its story is looked for a little longer
    ...(o.remote ? { originalWaitMs: 2_000 } : {}),
    cluster: o.remote?.cluster ?? ((items) => o.system.ask<ClusterBatchReply, StoryClusterMsg>(STORY_CLUSTER, { type: 'add-batch', items } satisfies StoryClusterMsg, 120_000)),
  });
  const pipeline = new IngestPipeline({
    prepare,
    decider,
    writer: new BatchWriter(o.sql, fingerprints, log),
    announcer: new Announcer({
      sql: o.sql,
      cache: o.cache,
      log,
      ...(o.onStories ? { onStories: o.onStories } : {}),
      ...(o.thumbnails ? { thumbnails: o.thumbnails } : {}),
    }),
    log,
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
  const givenUp = o.metrics?.counter('newsagg_ingest_batches_given_up_total', 'Ingest batches given up after repeated failures (their publishers offer them again)');
  const queue = o.queue ?? ingestQueue({ maxBatch: o.maxBatch, queueMax: o.queueMax, log, onGiveUp: () => givenUp?.inc(1) });
  const queued = o.metrics?.gauge('newsagg_ingest_queue_items', 'Raw articles in the ingest log not yet stored', [], (g) => g.set(queue.pending));
  void queued;

  // entries past the dedup window leave the shard tables and the fingerprint table
  const expiry = setInterval(() => {
    void (async () => {
      const removed = local ? await local.coordinator.expire(now()) : 0;
      const pruned = await fingerprints.prune(now() - dedupWindowMs);
      const rejected = await pruneRejected(o.sql, now() - REJECTED_KEEP_MS);
      log.debug({ removed, pruned, rejected }, 'dedup window expired');
    })().catch((err: unknown) => log.warn({ err: describeError(err) }, 'dedup expiry failed'));
  }, o.expireEveryMs ?? Math.min(10 * 60_000, Math.max(1_000, dedupWindowMs / 4)));
  expiry.unref();

  queue.consume(async (batch) => {
    const r = await pipeline.handle(batch);
    log.debug(r, 'ingest batch stored');
  });

  // progress: when work began waiting, and when a batch was last stored
  let busySince = 0;
  const stallMs = o.stallMs ?? 60_000;
  return {
    ingest: (articles) => {
      if (queue.pending === 0) busySince = Date.now();
      return queue.append(articles);
    },
    async drain() {
      await queue.drain();
      await pipeline.settled();
    },
    get pending() {
      return queue.pending;
    },
    checkProgress() {
      if (queue.pending === 0) return;
      const since = Math.max(busySince, pipeline.lastStoredAt);
      const idle = Date.now() - since;
      if (idle > stallMs) throw new IngestStalledError(`ingest stored nothing for ${Math.round(idle / 1000)} s with ${queue.pending} articles waiting`);
    },
    async stop(timeoutMs) {
      clearInterval(expiry);
      clearInterval(authorityReload);
      const started = Date.now();
      await queue.close(timeoutMs);
      // announcements of what was stored; a stuck one is not worth the rest of the shutdown
      const left = timeoutMs === undefined ? undefined : Math.max(0, timeoutMs - (Date.now() - started));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pipeline.settled(), ...(left === undefined ? [] : [new Promise<void>((r) => (timer = setTimeout(r, left)))])]);
      clearTimeout(timer);
    },
  };
}
