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
  /** raw articles into the ingest log (publishers, WebSub, the crawler, the demo) */
  ingest(articles: readonly RawArticle[]): Promise<void>;
  drain(): Promise<void>;
  /** listeners for written stories (live updates) */
  onStories(fn: (stories: CachedStory[]) => void): void;
}

export function ingestComponent(opts: { fetcher: SharedFetcher }): IngestComponent {
  let service: IngestService | null = null;
  let thumbs: ThumbnailJobs | null = null;
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
        log: node.log,
        metrics: node.metrics,
        thumbnails: thumbs,
        onStories: (s) => {
          for (const l of listeners) l(s);
        },
      });
    },
    async stop() {
      // drains the ingest log: everything accepted is stored before the node exits
      await service?.stop();
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
