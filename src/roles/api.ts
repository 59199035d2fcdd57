import { pageFetchFrom } from '../actors/html/fetch.js';
import { findSiteSource } from '../actors/html/source.js';
import type { Component, Node } from '../node.js';
import type { SharedFetcher } from './fetcher.js';
import { CursorCodec } from '../api/cursor.js';
import { FeedService } from '../api/feed.js';
import { registerApiRoutes } from '../api/routes.js';
import { keepCommonLexemesFresh } from '../actors/store/search.js';
import { TrustedProxies } from '../api/client-address.js';
import type { BreakingProvider } from '../api/personal/service.js';
import { startReaderServices, type ReaderServices } from '../api/services.js';

/**
 * The API role of a node: the feed service (hot pages, snapshots, invalidation events), the
 * reader services (profiles, the personalised feed, trending, publisher authorities) and the
 * public routes on the node's router. Registered before the server listens.
 */
export function apiComponent(
  opts: {
    onPublishersChanged?: (change: { added: string[]; removed: string[] }) => void;
    fetcher?: SharedFetcher;
    /** breaking stories per edition, first on personalised pages (wired to the breaking detector) */
    breaking?: BreakingProvider;
  } = {},
): Component {
  let feed: FeedService | null = null;
  let readers: ReaderServices | null = null;
  let stopLexemes: (() => void) | null = null;
  return {
    name: 'api',
    async start(node: Node) {
      const codec = new CursorCodec(node.cursorSecret);
      feed = new FeedService({ sql: node.sql, cache: node.cache, codec, log: node.log });
      await feed.start();
      readers = await startReaderServices({ sql: node.sql, cache: node.cache, feed, codec, log: node.log, ...(opts.breaking ? { breaking: opts.breaking } : {}) });
      // which search words are common enough to be planned for their literal (autovacuum's statistics)
      stopLexemes = keepCommonLexemesFresh(node.sql, node.log);
      // admin: a publisher added by its site URL alone is looked up through the safe fetcher
      const f = opts.fetcher;
      registerApiRoutes(node.router, {
        ...(f ? { findSource: (site: string) => findSiteSource(site, pageFetchFrom(f.get())) } : {}),
        sql: node.sql,
        cache: node.cache,
        feed,
        codec,
        adminToken: node.config.adminToken ?? null,
        rateLimit: { rps: node.config.rateLimitRps, burst: node.config.rateLimitBurst },
        apiTokens: node.config.apiTokens,
        trustProxy: node.config.trustProxy.length > 0 ? new TrustedProxies(node.config.trustProxy) : null,
        profiles: readers.profiles,
        personal: readers.personal,
        trending: readers.trending,
        dataDir: node.config.dataDir,
        log: node.log,
        ...(opts.onPublishersChanged ? { onPublishersChanged: opts.onPublishersChanged } : {}),
      });
    },
    async stop() {
      stopLexemes?.();
      await readers?.stop();
      await feed?.stop();
    },
  };
}
