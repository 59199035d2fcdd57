import { publisherBehaviour, type PublisherMsg, type PublisherReply } from '../actors/publisher/actor.js';
import { BufferedPublisherStore } from '../actors/publisher/buffered-store.js';
import { FirstPolls } from '../actors/publisher/first-poll.js';
import { countedEffects } from '../actors/publisher/poll-metrics.js';
import type { PolicyConfig } from '../actors/publisher/policy.js';
import { pooledParse } from '../actors/publisher/pooled-parse.js';
import { spawnAll, watchUnscheduled } from '../actors/publisher/roster.js';
import { SqlPublisherStore } from '../actors/publisher/sql-store.js';
import { WebSubIntents } from '../actors/publisher/websub-intents.js';
import type { RawArticle } from '../actors/ingest/types.js';
import { TrustedProxies } from '../api/client-address.js';
import { registerWebSubRoutes } from '../api/routes/websub.js';
import type { Component, Node } from '../node.js';
import type { SharedFetcher } from './fetcher.js';

export interface PublishersOptions {
  /** where publishers put what they find (the ingest component); resolves once it is stored */
  emit(articles: RawArticle[]): Promise<void>;
  /** the node's shared safe fetcher */
  fetcher: SharedFetcher;
  /** base URL hubs call back: --public-url by default; 'self' = this node's own URL (a local hub) */
  publicUrl?: 'self';
  /** a never-polled publisher polls within this window (default 20 s; feeds sharing an origin are spaced by the crawl delay) */
  firstPollSpreadMs?: number;
  /** the polling policy (default: DEFAULT_POLICY; the soak benchmark polls faster) */
  policy?: PolicyConfig;
}

export interface PublishersComponent extends Component {
  /** start actors for publishers added after start (admin API, OPML import) */
  added(ids: readonly string[]): void;
  removed(ids: readonly string[]): void;
}

const address = (id: string) => `publisher/${id}`;

/**
 * The publishers role: one PublisherActor per feed, all sharing the node's timer heap, the safe
 * fetcher and the CPU pool for parsing, emitting into the ingest log. Actors start for every
 * stored publisher and load their persisted polling state, so a restarted node continues where
 * it stopped; rows added behind the node's back are found within seconds. WebSub callbacks are
 * routed to the actor of the publisher they name.
 */
export function publishersComponent(opts: PublishersOptions): PublishersComponent {
  let node: Node | null = null;
  let store: BufferedPublisherStore | null = null;
  let stopWatch: (() => void) | null = null;
  const intents = new WebSubIntents();

  return {
    name: 'publishers',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const f = opts.fetcher.get();
      const configured = cfg.publicUrl ? cfg.publicUrl.replace(/\/$/, '') : null;
      const publicUrl = opts.publicUrl === 'self' ? () => n.url : configured ? () => configured : null;
      store = new BufferedPublisherStore(new SqlPublisherStore(n.sql, Date.now, Math.random, opts.policy), { log: n.log });
      const firstPolls = new FirstPolls({ windowMs: opts.firstPollSpreadMs ?? 20_000, spacingMs: f.crawlDelayMs, random: Math.random });
      const fx = countedEffects(n.metrics, {
        fetch: (req) => f.fetch({ url: req.url, etag: req.etag, lastModified: req.lastModified }),
        parse: pooledParse(() => n.tasks),
        emit: (articles) => opts.emit(articles),
      });
      n.system.register(
        publisherBehaviour({
          // emit resolves once the articles are stored: only then do the feed's validators move on
          ...fx,
          store,
          maxEntriesPerPoll: cfg.maxEntriesPerPoll,
          ...(opts.policy ? { policy: opts.policy } : {}),
          now: Date.now,
          random: Math.random,
          firstPollAt: (url, now) => firstPolls.at(url, now),
          ...(publicUrl
            ? {
                websub: {
                  callbackUrl: (id: string) => `${publicUrl()}/websub/${encodeURIComponent(id)}`,
                  post: (r) => f.postForm(r.url, r.headers, r.body),
                  intents,
                },
              }
            : {}),
        }),
      );
      registerWebSubRoutes(n.router, {
        sql: n.sql,
        ask: (id, msg, timeoutMs) => n.system.ask<PublisherReply, PublisherMsg>(address(id), msg, timeoutMs),
        send: (id, msg) => n.system.send(address(id), msg),
        intents,
        perPublisher: { rps: cfg.websubRateLimitRps, burst: cfg.websubRateLimitBurst },
        perClient: { rps: cfg.rateLimitRps, burst: cfg.rateLimitBurst },
        trustProxy: cfg.trustProxy.length > 0 ? new TrustedProxies(cfg.trustProxy) : null,
      });
      const spawn = (id: string) => n.system.spawn(address(id));
      await spawnAll(n.sql, spawn);
      stopWatch = watchUnscheduled(n.sql, spawn, { log: n.log });
      n.log.info({ publishers: n.system.count('publisher') }, 'publishers started');
    },
    async stop() {
      stopWatch?.();
      // states the database could not take during an outage get one last try
      await store?.flush();
    },
    added(ids) {
      for (const id of ids) node?.system.spawn(address(id));
    },
    removed(ids) {
      for (const id of ids) {
        intents.forget(id);
        node?.system.stop(address(id));
      }
    },
  };
}
