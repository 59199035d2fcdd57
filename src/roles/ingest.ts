import { ACCEPT, pageFetchFrom } from '../actors/html/fetch.js';
import { startIngest, type IngestService } from '../actors/ingest/service.js';
import { ThumbnailJobs } from '../actors/ingest/thumbnails.js';
import type { RawArticle } from '../actors/ingest/types.js';
import type { CachedStory } from '../actors/store/feed-items.js';
import { thumbnailFor } from '../actors/thumbs/pipeline.js';
import { ThumbnailStore } from '../actors/thumbs/store.js';
import { pooledMakeThumbnail } from '../actors/thumbs/task.js';
import type { Component, Node } from '../node.js';
import type { SharedFetcher } from './fetcher.js';

/** The ingest and processing roles: the ingest log, the pipeline behind it, and thumbnails. */
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

export function ingestComponent(opts: { fetcher: SharedFetcher }): IngestComponent {
  let service: IngestService | null = null;
  let thumbs: ThumbnailJobs | null = null;
  let stopBudgetMs = 10_000;
  const listeners: ((s: CachedStory[]) => void)[] = [];
  return {
    name: 'ingest',
    async start(node: Node) {
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
      service = await startIngest({
        system: node.system,
        sql: node.sql,
        databaseUrl: node.sql.mode === 'postgres' ? node.sql.url : null,
        cache: node.cache,
        pool: node.tasks,
        dedupWindowMs: node.config.dedupWindowHours * 3_600_000,
        activeWindowMs: node.config.activeWindowHours * 3_600_000,
        queueMax: node.config.ingestQueueMax,
        stallMs: node.config.ingestStallSeconds * 1000,
        log: node.log,
        metrics: node.metrics,
        thumbnails: thumbs,
        onStories: (s) => {
          for (const l of listeners) l(s);
        },
      });
      const s = service;
      // not ready while articles wait and none gets stored (a stuck pipeline must not look healthy)
      node.readiness.ingest = async () => s.checkProgress();
      stopBudgetMs = Math.max(1_000, node.config.shutdownTimeoutMs - 5_000);
    },
    async stop() {
      // stores what the ingest log holds, within the shutdown budget; what is left was never
      // acknowledged, so its publishers fetch it again after the restart
      await service?.stop(stopBudgetMs);
      // thumbnails are best effort: queued ones are dropped, running ones get a moment
      thumbs?.clear();
      await Promise.race([thumbs?.idle(), new Promise((r) => setTimeout(r, 3_000).unref())]);
    },
    ingest(articles) {
      if (!service) return Promise.reject(new Error('ingest is not running'));
      return service.ingest(articles);
    },
    drain() {
      return service?.drain() ?? Promise.resolve();
    },
    onStories(fn) {
      listeners.push(fn);
    },
  };
}
