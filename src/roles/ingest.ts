import type { Component, Node } from '../node.js';
import type { CachedStory } from '../actors/store/feed-items.js';
import { startIngest, type IngestService } from '../actors/ingest/service.js';
import type { RawArticle } from '../actors/ingest/types.js';

/** The ingest and processing roles: the ingest log and the pipeline behind it. */
export interface IngestComponent extends Component {
  /** raw articles into the ingest log (publishers, WebSub, the crawler, the demo) */
  ingest(articles: readonly RawArticle[]): Promise<void>;
  drain(): Promise<void>;
  /** listeners for written stories (live updates) */
  onStories(fn: (stories: CachedStory[]) => void): void;
}

export function ingestComponent(): IngestComponent {
  let service: IngestService | null = null;
  const listeners: ((s: CachedStory[]) => void)[] = [];
  return {
    name: 'ingest',
    async start(node: Node) {
      service = await startIngest({
        system: node.system,
        sql: node.sql,
        databaseUrl: node.sql.url,
        cache: node.cache,
        pool: node.tasks,
        dedupWindowMs: node.config.dedupWindowHours * 3_600_000,
        activeWindowMs: node.config.activeWindowHours * 3_600_000,
        log: node.log,
        metrics: node.metrics,
        onStories: (s) => {
          for (const l of listeners) l(s);
        },
      });
    },
    async stop() {
      // drains the ingest log: everything accepted is stored before the node exits
      await service?.stop();
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
