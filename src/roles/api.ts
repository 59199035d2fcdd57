import { pageFetchFrom } from '../actors/html/fetch.js';
import { findSiteSource } from '../actors/html/source.js';
import { liveEventsFor } from '../actors/store/live-events.js';
import type { Component, Node } from '../node.js';
import type { SharedFetcher } from './fetcher.js';
import { BreakingService } from '../api/breaking.js';
import { CursorCodec } from '../api/cursor.js';
import { FeedService } from '../api/feed.js';
import { LiveHub } from '../api/live/hub.js';
import { registerApiRoutes } from '../api/routes.js';
import { keepCommonLexemesFresh } from '../actors/store/search.js';
import { TrustedProxies } from '../api/client-address.js';
import { startReaderServices, type ReaderServices } from '../api/services.js';
import type { PushComponent } from './push.js';

/**
 * The API role of a node: the feed service (hot pages, snapshots, invalidation events, breaking
 * stories first), the reader services (profiles, the personalised feed, trending, publisher
 * authorities), the public routes on the node's router, and the live hub (WebSocket `/v1/live` on
 * the same port) fed by live events from every node. Registered before the server listens.
 */
export function apiComponent(
  opts: {
    onPublishersChanged?: (change: { added: string[]; removed: string[] }) => void;
    ownerOf?: (publisherId: string) => string | null;
    fetcher?: SharedFetcher;
    /** how long a rendered feed page is kept in process (default 5 s; tests lengthen it) */
    hotTtlMs?: number;
    /** push alerts (started before this component): their routes are served here */
    push?: PushComponent;
  } = {},
): Component & { readonly hub: LiveHub | null; readonly breaking: BreakingService | null } {
  let feed: FeedService | null = null;
  let breaking: BreakingService | null = null;
  let hub: LiveHub | null = null;
  let readers: ReaderServices | null = null;
  let stopLexemes: (() => void) | null = null;
  return {
    name: 'api',
    get hub() {
      return hub;
    },
    get breaking() {
      return breaking;
    },
    async start(node: Node) {
      const cfg = node.config;
      const codec = new CursorCodec(node.cursorSecret);
      const events = liveEventsFor(node.cache, node.broadcast, node.log);
      const fs: FeedService = (feed = new FeedService({ sql: node.sql, cache: node.cache, codec, log: node.log, ...(opts.hotTtlMs !== undefined ? { hotTtlMs: opts.hotTtlMs } : {}), breaking: (region: string): Promise<string[]> => b.ids(region) }));
      const b: BreakingService = (breaking = new BreakingService({ sql: node.sql, stories: (ids: string[]) => fs.stories(ids), log: node.log }));
      // the breaking set is dropped before the feed's hot pages (same channel order as the detector announces)
      await breaking.start(events);
      await feed.start();
      hub = new LiveHub({
        maxSubscriptions: cfg.liveMaxSubscriptions,
        maxFrameBytes: cfg.liveMaxFrameBytes,
        maxConnectionsPerClient: cfg.liveMaxConnectionsPerClient,
        maxBufferBytes: cfg.liveMaxBufferBytes,
        heartbeatSeconds: cfg.liveHeartbeatSeconds,
        upgrades: { rps: cfg.liveConnectRps, burst: cfg.liveConnectBurst },
        trustProxy: cfg.trustProxy.length > 0 ? new TrustedProxies(cfg.trustProxy) : null,
        breaking: (region) => b.items(region),
        log: node.log,
        metrics: node.metrics,
      });
      hub.attach(node.http.app);
      await hub.start(events);
      const h = hub;
      node.http.beforeClose(() => h.close());
      // breaking stories also open every reader's personalised page
      const breakingIds = async (region: string): Promise<ReadonlySet<string>> => new Set(await b.ids(region));
      readers = await startReaderServices({ sql: node.sql, cache: node.cache, feed, codec, log: node.log, breaking: breakingIds });
      // which search words are common enough to be planned for their literal (autovacuum's statistics)
      stopLexemes = keepCommonLexemesFresh(node.sql, node.log);
      // admin: a publisher added by its site URL alone is looked up through the safe fetcher
      const f = opts.fetcher;
      registerApiRoutes(node.router, {
        ...(f ? { findSource: (site: string) => findSiteSource(site, pageFetchFrom(f.get())) } : {}),
        sql: node.sql,
        cache: node.cache,
        feed,
        breaking,
        codec,
        adminToken: cfg.adminToken ?? null,
        rateLimit: { rps: cfg.rateLimitRps, burst: cfg.rateLimitBurst },
        apiTokens: cfg.apiTokens,
        trustProxy: cfg.trustProxy.length > 0 ? new TrustedProxies(cfg.trustProxy) : null,
        profiles: readers.profiles,
        personal: readers.personal,
        trending: readers.trending,
        ...(opts.push ? { push: opts.push.routes() } : {}),
        dataDir: cfg.dataDir,
        log: node.log,
        ...(opts.onPublishersChanged ? { onPublishersChanged: opts.onPublishersChanged } : {}),
        ...(opts.ownerOf ? { ownerOf: opts.ownerOf } : {}),
      });
    },
    async stop() {
      stopLexemes?.();
      await hub?.close();
      await readers?.stop();
      await breaking?.stop();
      await feed?.stop();
    },
  };
}
