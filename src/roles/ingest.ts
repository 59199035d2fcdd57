import { ACCEPT, pageFetchFrom } from '../actors/html/fetch.js';
import { DedupOwner, type DedupOwnerMsg } from '../actors/ingest/dedup-owner.js';
import type { DedupDecision } from '../actors/dedup/coordinator.js';
import { STORY_CLUSTER, startIngest, type IngestService } from '../actors/ingest/service.js';
import { StoryOwner } from '../actors/ingest/story-owner.js';
import { ThumbnailJobs } from '../actors/ingest/thumbnails.js';
import { MAX_TEXT } from '../actors/ingest/caps.js';
import { fitOrSetAside } from '../actors/ingest/fit.js';
import type { RawArticle } from '../actors/ingest/types.js';
import type { CachedStory } from '../actors/model/index.js';
import { thumbnailFor } from '../actors/thumbs/pipeline.js';
import { ThumbnailStore } from '../actors/thumbs/store.js';
import { pooledMakeThumbnail } from '../actors/thumbs/task.js';
import type { ClusterBatchReply, StoryClusterMsg } from '../actors/stories/story-cluster.js';
import type { JetStreamWorkQueue } from '../runtime/work-queue-nats.js';
import type { Component, Node } from '../node.js';
import { askFenced, DEDUP_OWNER, type ClusterComponent } from './cluster.js';
import type { SharedFetcher } from './fetcher.js';
import { openIngestLog } from './ingest-log.js';

/**
 * The ingest log and, on a `process` node, the pipeline behind it (prepare, dedup, cluster,
 * store, announce) and thumbnails. Embedded mode: the in-process log, consumed here. Server mode
 * (`--nats-url`): the JetStream log; an ingest-only node only appends to it, a process node
 * consumes it, and in a cluster the dedup coordinator and the story clusterer are asked of the
 * node owning them (each one shard, rebuilt from the store by whoever acquires it).
 */
export interface IngestComponent extends Component {
  /**
   * raw articles into the ingest log (publishers, WebSub, the crawler, the demo); resolves once
   * they are stored, rejects when they could not be (the caller offers them again later)
   */
  ingest(articles: readonly RawArticle[]): Promise<void>;
  drain(): Promise<void>;
  /** listeners for written stories (live updates) */
  onStories(fn: (stories: CachedStory[]) => void): void;
}

export function ingestComponent(opts: { fetcher: SharedFetcher; process?: boolean; cluster?: ClusterComponent }): IngestComponent {
  let service: IngestService | null = null;
  let log: JetStreamWorkQueue<RawArticle> | null = null;
  let thumbs: ThumbnailJobs | null = null;
  let host: Node | null = null;
  let stopping: Promise<void> | null = null;
  let fitted: ((articles: readonly RawArticle[]) => Promise<RawArticle[]>) | null = null;
  const listeners: ((s: CachedStory[]) => void)[] = [];
  /**
   * Stops consuming: the batches in hand are stored within what is left of the shutdown budget
   * but 3 s (for the rest of the shutdown); what is left was never acknowledged (the JetStream
   * log delivers it again, the in-process log's publishers fetch it again after the restart).
   */
  const stopConsuming = () =>
    (stopping ??= (async () => {
      const started = Date.now();
      const budget = Math.max(500, (host?.stopBudgetLeftMs() ?? 10_000) - 3_000);
      await service?.stop(budget);
      host?.log.info({ ms: Date.now() - started, budget_ms: budget }, 'ingest stopped consuming');
    })());
  return {
    name: 'ingest',
    async start(node: Node) {
      host = node;
      if (node.nats) {
        const l = (log = await openIngestLog(node.nats, { log: node.log }));
        fitted = (articles) => fitOrSetAside(articles, l.maxItemBytes, node);
      }
      if (opts.process === false) return;
      const f = opts.fetcher.get();
      const store = new ThumbnailStore(node.config.dataDir);
      const make = pooledMakeThumbnail(node.tasks);
      thumbs = new ThumbnailJobs({
        sql: node.sql,
        cache: node.cache,
        make: (url) => thumbnailFor(url, { fetch: pageFetchFrom(f, ACCEPT.image), store, make }),
        log: node.log,
        metrics: node.metrics,
      });
      const dedupWindowMs = node.config.dedupWindowHours * 3_600_000;
      const databaseUrl = node.sql.mode === 'postgres' ? node.sql.url : null;
      const wiring = opts.cluster?.get() ?? null;
      let remote: Parameters<typeof startIngest>[0]['remote'];
      if (wiring) {
        const owner = new DedupOwner({
          system: node.system, sql: node.sql, databaseUrl, partitions: 4, windowMs: dedupWindowMs, log: node.log, now: Date.now,
          expireEveryMs: Math.min(10 * 60_000, Math.max(1_000, dedupWindowMs / 4)),
        });
        const dedupRoute = wiring.route('dedup-owner', 'dedup', owner, owner, () => 0);
        const sys = node.system;
        const activeWindowMs = node.config.activeWindowHours * 3_600_000;
        const snapshotMs = node.config.storySnapshotMinutes * 60_000;
        // PostgreSQL: the clusterer lives in a worker of its own (its state is built there, the
        // heartbeats go on here); PGlite (one connection): on this thread, its replay in slices
        const storyRoute = databaseUrl
          ? (() => {
              const owner = new StoryOwner({ databaseUrl, windowMs: activeWindowMs, snapshotMs, log: node.log, fence: () => wiring.cluster.ownership.fence('story', 0), address: STORY_CLUSTER });
              return wiring.route('story-cluster', 'story', owner, owner, () => 0);
            })()
          : wiring.route('story-cluster', 'story', sys, {
              // the clusterer builds its state from the store in `init`: ready once it answers
              acquired: async () => void (await sys.ask<unknown, StoryClusterMsg>(STORY_CLUSTER, { type: 'get', story_id: '' }, 300_000)),
              released: () => sys.stop(STORY_CLUSTER),
            }, () => 0);
        remote = {
          // answers carry their owner's fencing token: the batch's write is refused if that owner was deposed since
          dedup: { submit: (batch) => askFenced<DedupDecision[], DedupOwnerMsg>(dedupRoute, DEDUP_OWNER, { type: 'submit', batch: [...batch] }) },
          cluster: (items) => askFenced<ClusterBatchReply, StoryClusterMsg>(storyRoute, STORY_CLUSTER, { type: 'add-batch', items } satisfies StoryClusterMsg),
        };
      }
      service = await startIngest({
        system: node.system,
        sql: node.sql,
        databaseUrl,
        cache: node.cache,
        pool: node.tasks,
        dedupWindowMs,
        activeWindowMs: node.config.activeWindowHours * 3_600_000,
        storySnapshotMs: node.config.storySnapshotMinutes * 60_000,
        queueMax: node.config.ingestQueueMax,
        stallMs: node.config.ingestStallSeconds * 1000,
        log: node.log,
        metrics: node.metrics,
        thumbnails: thumbs,
        ...(log ? { queue: log } : {}),
        ...(remote ? { remote } : {}),
        onStories: (s) => {
          for (const l of listeners) l(s);
        },
      });
      const s = service;
      // not ready while articles wait and none gets stored (a stuck pipeline must not look healthy)
      node.readiness.ingest = async () => s.checkProgress();
      // in a cluster the batches in hand need the dedup and story shards: done before they are handed over
      opts.cluster?.beforeHandover(stopConsuming);
    },
    async stop() {
      await stopConsuming();
      // an ingest-only node: appends in flight finish, nothing is consumed here
      if (!service) await log?.close();
      // thumbnails are best effort: queued ones are dropped, running ones get a moment
      thumbs?.clear();
      const left = Math.min(3_000, (host?.stopBudgetLeftMs() ?? 3_000) - 2_000);
      if (thumbs && left > 0) await Promise.race([thumbs.idle(), new Promise((r) => setTimeout(r, left).unref())]);
    },
    async ingest(articles) {
      let trimmed = articles.map((a) => (a.text && a.text.length > MAX_TEXT ? { ...a, text: a.text.slice(0, MAX_TEXT) } : a));
      // one article too large for a message of the log must not fail the others with it
      if (fitted) trimmed = await fitted(trimmed);
      if (trimmed.length === 0) return;
      if (service) return log ? appendRetrying({ append: (a) => service!.ingest(a) }, trimmed) : service.ingest(trimmed);
      if (log) return appendRetrying(log, trimmed);
      throw new Error('ingest is not running');
    },
    drain() {
      return service?.drain() ?? log?.drain() ?? Promise.resolve();
    },
    onStories(fn) {
      listeners.push(fn);
    },
  };
}

/**
 * An append to the JetStream log, retried for a while when NATS is away (a restart, a failover):
 * publishers then wait for their acknowledgement instead of polling again a minute later.
 */
async function appendRetrying(log: { append(items: readonly RawArticle[]): Promise<void> }, items: readonly RawArticle[]): Promise<void> {
  const end = Date.now() + 20_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await log.append(items);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code !== 'QUEUE_APPEND_FAILED' && code !== 'QUEUE_FULL') || Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, Math.min(2_000, 250 * 2 ** (attempt - 1))));
    }
  }
}
