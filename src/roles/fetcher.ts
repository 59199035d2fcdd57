import { Fetcher } from '../actors/fetch/index.js';
import type { Component, Node } from '../node.js';

/** The node's one safe fetcher, shared so per-origin limits, crawl delays and robots.txt hold across uses. */
export interface SharedFetcher extends Component {
  /** the fetcher (after start) */
  get(): Fetcher;
}

/**
 * One Fetcher per node: publishers, thumbnails and the admin API's feed discovery all reach
 * publishers' sites, and politeness is per origin, so they share one per-origin queue and one
 * robots.txt cache. Started first and stopped last.
 */
export function fetcherComponent(opts: { allowlist?: readonly string[]; crawlDelayMs?: number } = {}): SharedFetcher {
  let fetcher: Fetcher | null = null;
  return {
    name: 'fetcher',
    start(node: Node) {
      fetcher = new Fetcher({
        userAgent: node.config.userAgent,
        allowlist: [...node.config.fetchAllowlist, ...(opts.allowlist ?? [])],
        metrics: node.metrics,
        ...(opts.crawlDelayMs !== undefined ? { crawlDelayMs: opts.crawlDelayMs } : {}),
      });
    },
    async stop() {
      await fetcher?.close();
    },
    get() {
      if (!fetcher) throw new Error('the fetcher component has not started');
      return fetcher;
    },
  };
}
