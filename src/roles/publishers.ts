import { publisherBehaviour, type PublisherMsg, type PublisherReply } from '../actors/publisher/actor.js';
import { BufferedPublisherStore } from '../actors/publisher/buffered-store.js';
import { FirstPolls } from '../actors/publisher/first-poll.js';
import { countedEffects, skippedCounter } from '../actors/publisher/poll-metrics.js';
import { PollsInFlight } from '../actors/publisher/polls-in-flight.js';
import { degradedSources, SourceHealth } from '../actors/publisher/source-health.js';
import type { PolicyConfig } from '../actors/publisher/policy.js';
import { pooledParse } from '../actors/publisher/pooled-parse.js';
import { spawnAll, watchUnscheduled } from '../actors/publisher/roster.js';
import { SqlPublisherStore } from '../actors/publisher/sql-store.js';
import { WebSubIntents } from '../actors/publisher/websub-intents.js';
import type { RawArticle } from '../actors/ingest/types.js';
import { TrustedProxies } from '../api/client-address.js';
import type { KnownPublishers } from '../api/known-publishers.js';
import { registerWebSubRoutes } from '../api/routes/websub.js';
import type { Component, Node } from '../node.js';
import type { Route } from '../runtime/system.js';
import { AskTimeoutError, describeError } from '../runtime/errors.js';
import { askVia, type ClusterComponent } from './cluster.js';
import type { SharedFetcher } from './fetcher.js';
import { PublisherShards } from './publisher-shards.js';

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
  /** server mode: only the publishers of the publisher shards this node owns run here */
  cluster?: ClusterComponent;
}

/** Topic on which any node announces publishers added or removed (admin API, OPML import). */
export const PUBLISHERS_CHANGED = 'publishers-changed';

export interface PublishersComponent extends Component {
  /** start actors for publishers added after start (admin API, OPML import) */
  added(ids: readonly string[]): void;
  removed(ids: readonly string[]): void;
  /** ask a publisher's actor wherever it runs (the owning node in a cluster) */
  ask(id: string, msg: PublisherMsg, timeoutMs: number): Promise<PublisherReply>;
  send(id: string, msg: PublisherMsg): void;
}

const address = (id: string) => `publisher/${id}`;

/** A node's start-up, during which first polls keep their wide spread. */
const START_UP_MS = 60_000;
/** The spread of first polls after start-up (feeds just added, publishers taken over). */
const TAKEOVER_SPREAD_MS = 4_000;

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
  let shards: PublisherShards | null = null;
  let route: Route | null = null;
  let unsubscribe: (() => void) | null = null;
  let watchHealth: NodeJS.Timeout | null = null;
  const intents = new WebSubIntents();
  let known: KnownPublishers | null = null;

  const ask = (id: string, msg: PublisherMsg, timeoutMs: number): Promise<PublisherReply> => {
    if (!node) return Promise.reject(new Error('publishers are not running'));
    if (!route) return node.system.ask<PublisherReply, PublisherMsg>(address(id), msg, timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      askVia<PublisherReply, PublisherMsg>(route, address(id), msg),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new AskTimeoutError(address(id), msg.type, timeoutMs)), timeoutMs))),
    ]).finally(() => clearTimeout(timer));
  };
  const send = (id: string, msg: PublisherMsg): void => {
    if (!node) return;
    if (!route) return node.system.send(address(id), msg);
    try {
      route.deliver(address(id), msg);
    } catch (err) {
      // no live owner for the moment (a failover): the hub's next delivery or the next poll covers it
      node.log.debug({ publisher_id: id, type: msg.type, err: describeError(err) }, 'message to a publisher not delivered');
    }
  };

  return {
    name: 'publishers',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const f = opts.fetcher.get();
      const configured = cfg.publicUrl ? cfg.publicUrl.replace(/\/$/, '') : null;
      const publicUrl = opts.publicUrl === 'self' ? () => n.url : configured ? () => configured : null;
      const wiring = opts.cluster?.get() ?? null;
      // in a cluster a state save is refused once the publisher's shard has moved on (fence.ts)
      const fencing = wiring
        ? { tokenOf: (id: string) => wiring.cluster.ownership.fence('publisher', wiring.cluster.ownership.shardOf('publisher', id)), log: n.log }
        : undefined;
      store = new BufferedPublisherStore(new SqlPublisherStore(n.sql, Date.now, Math.random, opts.policy, fencing), { log: n.log });
      const firstPolls = new FirstPolls({ windowMs: opts.firstPollSpreadMs ?? 20_000, spacingMs: f.crawlDelayMs, random: Math.random });
      // Past its start-up a node spreads first polls (and re-polls of unacknowledged ones) over a
      // few seconds only: what starts then is a feed just added, or the publishers of a shard taken
      // over from a node that died, which should resume within seconds (a whole cluster or node
      // starting at once keeps the wider spread above).
      const startedAt = Date.now();
      const pastStartUp = () => Date.now() - startedAt > START_UP_MS;
      const polls = new PollsInFlight();
      // a node whose every source fails says so: /readyz "degraded" (still 200) and one warn line
      const health = new SourceHealth({ now: Date.now });
      const verdict = () => degradedSources(health.summary(), n.system.count('publisher'));
      n.readiness.sources = async () => {
        const why = verdict();
        return why === null ? undefined : { degraded: why };
      };
      let wasDegraded: string | null = null;
      watchHealth = setInterval(() => {
        const why = verdict();
        if (why !== null && wasDegraded === null) n.log.warn({ sources: health.summary() }, `sources failing: ${why}`);
        if (why === null && wasDegraded !== null) n.log.info({ sources: health.summary() }, 'sources answering again');
        wasDegraded = why;
      }, 2_000);
      watchHealth.unref();
      const fx = countedEffects(n.metrics, {
        fetch: (req) => f.fetch({ url: req.url, etag: req.etag, lastModified: req.lastModified, ...(req.signal ? { signal: req.signal } : {}) }),
        parse: pooledParse(() => n.tasks),
        emit: (articles) => opts.emit(articles),
      }, health);
      const behaviour = publisherBehaviour({
          // emit resolves once the articles are stored: only then do the feed's validators move on
          ...fx,
          store,
          polls,
          maxEntriesPerPoll: cfg.maxEntriesPerPoll,
          retentionMs: cfg.retentionDays * 86_400_000,
          skipped: skippedCounter(n.metrics),
          ...(opts.policy ? { policy: opts.policy } : {}),
          now: Date.now,
          random: Math.random,
          firstPollAt: (url, now) => (pastStartUp() ? firstPolls.at(url, now, Math.min(TAKEOVER_SPREAD_MS, opts.firstPollSpreadMs ?? 20_000)) : firstPolls.at(url, now)),
          get unackedRepollMs() {
            return pastStartUp() ? TAKEOVER_SPREAD_MS : 30_000;
          },
          ...(publicUrl
            ? {
                websub: {
                  callbackUrl: (id: string) => `${publicUrl()}/websub/${encodeURIComponent(id)}`,
                  post: (r) => f.postForm(r.url, r.headers, r.body),
                  intents,
                },
              }
            : {}),
        });
      if (wiring) {
        const s = new PublisherShards({
          sql: n.sql,
          system: n.system,
          shardOf: (id) => wiring.cluster.ownership.shardOf('publisher', id),
          flush: () => store!.flush(),
          polls,
          pollEndMs: f.deadlineMs + 5_000,
          log: n.log,
        });
        shards = s;
        n.system.register(s.guard(behaviour));
        route = wiring.route('publisher', 'publisher', n.system, s);
        // publishers added or removed on any node (admin API, OPML import) reach their owner at once
        unsubscribe = wiring.cluster.transport.subscribe(PUBLISHERS_CHANGED, (data) => {
          const c = data as { added?: unknown; removed?: unknown };
          const added = Array.isArray(c.added) ? c.added.filter((id): id is string => typeof id === 'string') : [];
          const removed = Array.isArray(c.removed) ? c.removed.filter((id): id is string => typeof id === 'string') : [];
          known?.changed({ added, removed });
          for (const id of added) s.spawn(id);
          for (const id of removed) (intents.forget(id), s.remove(id));
        });
      } else n.system.register(behaviour);
      ({ known } = registerWebSubRoutes(n.router, {
        sql: n.sql,
        ask,
        send,
        intents,
        perPublisher: { rps: cfg.websubRateLimitRps, burst: cfg.websubRateLimitBurst },
        perClient: { rps: cfg.rateLimitRps, burst: cfg.rateLimitBurst },
        trustProxy: cfg.trustProxy.length > 0 ? new TrustedProxies(cfg.trustProxy) : null,
      }));
      if (shards) {
        // actors start as this node acquires publisher shards (cluster-ownership, after every role)
        const s = shards;
        stopWatch = watchUnscheduled(n.sql, (id) => void s.spawn(id), { log: n.log });
        return;
      }
      const spawn = (id: string) => n.system.spawn(address(id));
      await spawnAll(n.sql, spawn);
      stopWatch = watchUnscheduled(n.sql, spawn, { log: n.log });
      n.log.info({ publishers: n.system.count('publisher') }, 'publishers started');
    },
    async stop() {
      if (watchHealth) clearInterval(watchHealth);
      unsubscribe?.();
      stopWatch?.();
      // states the database could not take during an outage get one last try
      await store?.flush();
    },
    added(ids) {
      known?.changed({ added: ids });
      for (const id of ids) {
        if (shards) shards.spawn(id);
        else node?.system.spawn(address(id));
      }
    },
    removed(ids) {
      known?.changed({ removed: ids });
      for (const id of ids) {
        intents.forget(id);
        if (shards) shards.remove(id);
        else node?.system.stop(address(id));
      }
    },
    ask,
    send,
  };
}
