/**
 * The publisher simulator: one local HTTP server playing N synthetic news publishers, for tests,
 * benchmarks and the demo. Typical use:
 *
 *   const sim = await startSimulator({ publishers: 300, seed: 7, now: () => T0, misbehaving: { error500: 3 } });
 *   // poll sim.publishers[i].feed_url (honest ETag / Last-Modified / 304), or import `${sim.url}/opml.xml`
 *   sim.tick(60 * 60_000);            // an hour of simulated time: quiet outlets mostly stay 304
 *   sim.burst({ publishers: 40, withinMs: 5 * 60_000 }); sim.tick(5 * 60_000);   // breaking news
 *   const { items, events } = sim.truth();   // gold event (story) and wire group per item
 *   await sim.close();
 *
 * Layout: sites are path prefixes `/s/{id}/` on one host (home page, feed, `a/{n}-{slug}.html`
 * articles); `/robots.txt` (one file for the host: disallows the `robotsDisallow` sites and lists
 * sitemaps), `/opml.xml`, `/img/{id}-{n}.png` thumbnails, `/hub` (WebSub), `/_sim/stats.json`,
 * `/_sim/truth.json` and `/_sim/publishers.json` (every publisher as `sim.publishers` lists it). With `vhosts: true` every site is its own host `{id}.sim.test:{port}` with its
 * own robots.txt (resolve with `sim.lookup`). With an injected `now`, the world only moves by
 * `tick`, `publish` and `burst`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCatalogue, MISBEHAVIOURS, type SimBehaviour, type SimFeedFormat, type MisbehaviourMix, type PublisherSpec } from './catalogue.js';
import { SimulatorConfigError } from './errors.js';
import { WebSubHub } from './hub.js';
import type { Section } from './lexicon.js';
import { DEFAULT_MISBEHAVIOUR, type MisbehaviourOptions } from './misbehaviour.js';
import { SimServer } from './server.js';
import { SimStats, type PublisherCounters, type StatsSnapshot } from './stats.js';
import { truthEvent, truthItem, type TruthEvent, type TruthItem } from './truth.js';
import { simLookup, type LookupFunction } from './lookup.js';
import { SimUrls } from './urls.js';
import { World } from './world.js';

export type { SimBehaviour, SimFeedFormat, MisbehaviourMix, Section, StatsSnapshot, TruthEvent, TruthItem, PublisherCounters };
export type { Delivery, Subscription } from './hub.js';
export { WebSubHub } from './hub.js';

/** A simulated publisher as clients see it. */
export interface PublisherInfo {
  id: string;
  name: string;
  feed_url: string;
  site_url: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  section: Section;
  format: SimFeedFormat;
  behaviour: SimBehaviour;
  kind: 'outlet' | 'wire';
  items_per_hour: number;
  hub_url: string | null;
  ttl_minutes: number | null;
  max_age_seconds: number | null;
}

export interface SimulatorOptions {
  publishers: number;
  seed?: string | number;
  port?: number;
  host?: string;
  /** the clock simulated time starts from and runs with; `tick(ms)` adds to it (default Date.now) */
  now?: () => number;
  /** per misbehaviour mode: a count (>= 1) or a fraction of all publishers (< 1) */
  misbehaving?: MisbehaviourMix;
  /** tunables: slow delay, huge size, Retry-After window */
  misbehaviour?: Partial<MisbehaviourOptions>;
  /** run the WebSub hub and advertise it in feeds (default true) */
  websub?: boolean;
  /** wire agencies among the publishers (default: 1 per ~150 publishers, none under 10) */
  wires?: number;
  /** simulated history before the start (default 12 h) */
  backfillMs?: number;
  /** multiplies every publisher's publishing rate (default 1) */
  rateScale?: number;
  /** keep ground truth for every item (default true; turn off for very large, long runs) */
  truth?: boolean;
  /** items per feed (default 20) */
  feedSize?: number;
  /**
   * give every site its own host `{id}.sim.test:{port}` (per-host politeness and robots.txt as on
   * the real web); clients resolve those names with `sim.lookup` (default false: `/s/{id}/` paths)
   */
  vhosts?: boolean;
  /** publish due items on a real-time timer every this many ms (default 1000 with the real clock, off with an injected one) */
  autoAdvanceMs?: number;
}

export interface BurstOptions {
  /** an existing event id; default: a new breaking event */
  event?: string;
  /** how many outlets (honest ones first), or exactly which */
  publishers: number | string[];
  withinMs: number;
  /** event kind for a new event (default `earthquake`) */
  kind?: string;
}

export interface Simulator {
  readonly url: string;
  readonly port: number;
  readonly publishers: PublisherInfo[];
  readonly hub: WebSubHub | null;
  /** a `dns.lookup` that maps `*.sim.test` to the simulator (for undici `connect.lookup`) */
  readonly lookup: LookupFunction;
  /** the simulated clock */
  now(): number;
  /** advances simulated time and publishes what falls due; returns the new items */
  tick(ms: number): TruthItem[];
  /** forces `n` new items now (from one publisher if given) */
  publish(n: number, publisherId?: string): TruthItem[];
  /** a breaking-news burst: many outlets on one event within `withinMs` (simulated) */
  burst(opts: BurstOptions): { event_id: string; schedule: { publisher_id: string; at: number }[] };
  /** ground truth: every item with its event and wire original, and every event */
  truth(): { items: TruthItem[]; events: TruthEvent[] };
  /** the current feed body of a publisher, as served to a client without validators */
  feedBody(publisherId: string): string;
  stats(): StatsSnapshot;
  publisherStats(publisherId: string): PublisherCounters;
  /** changes how a publisher behaves from now on (e.g. `error500`, later back to `ok`) */
  setBehaviour(publisherId: string, behaviour: SimBehaviour): void;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function info(urls: SimUrls, s: PublisherSpec, websub: boolean, rate: number): PublisherInfo {
  return {
    id: s.id, name: s.name, feed_url: urls.feed(s), site_url: urls.site(s.id), country: s.city.country,
    section: s.section, format: s.format, behaviour: s.behaviour, kind: s.kind,
    items_per_hour: Math.round(rate * 100) / 100,
    hub_url: websub && s.format !== 'sitemap' ? urls.hub() : null,
    ttl_minutes: s.ttlMinutes, max_age_seconds: s.maxAgeSeconds,
  };
}

/** Starts one local HTTP server that plays `publishers` news publishers (see README of the issue). */
export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const seed = opts.seed ?? 1;
  const websub = opts.websub ?? true;
  const clock = opts.now ?? Date.now;
  const specs = buildCatalogue({ publishers: opts.publishers, seed, wires: opts.wires, misbehaving: opts.misbehaving });
  let sim: SimServer | null = null;
  const http = createServer((req, res) => {
    if (sim) sim.handle(req, res);
    else res.writeHead(503).end();
  });
  http.keepAliveTimeout = 5000;
  const addr = await listen(http, opts.port ?? 0, opts.host ?? '127.0.0.1');
  const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const base = `http://${hostPart}:${addr.port}`;
  const urls = new SimUrls(base, opts.vhosts ? addr.port : null);
  const hub = websub
    ? new WebSubHub({ url: urls.hub(), now: () => world.now(), content: (topic) => sim?.topicContent(topic) ?? null })
    : null;
  const world: World = new World(specs, {
    seed, now: clock, backfillMs: opts.backfillMs, rateScale: opts.rateScale, keepTruth: opts.truth,
    onChanged: (changed) => {
      if (!hub || !sim) return;
      for (const p of changed) {
        if (p.spec.format === 'sitemap') continue;
        const topic = urls.feed(p.spec);
        if (hub.subscriptions(topic).length > 0) void hub.publish(topic);
      }
    },
  });
  const stats = new SimStats(() => ({
    itemsPublished: world.published,
    hub: {
      subscriptions: hub?.subscriptions().length ?? 0,
      verifications: hub?.verifications ?? 0,
      deliveries: hub?.deliveries.length ?? 0,
      failedDeliveries: hub?.deliveries.filter((d) => !d.ok).length ?? 0,
    },
  }));
  const truth = (): { items: TruthItem[]; events: TruthEvent[] } => ({
    items: world.allItems().map((i) => truthItem(urls, i, world.wireOriginals)),
    events: [...world.newsroom.events.values()].map(truthEvent),
  });
  const server = new SimServer({
    ctx: { urls, world, websub, feedSize: opts.feedSize ?? 20 },
    world, specs, hub, stats, misbehaviour: { ...DEFAULT_MISBEHAVIOUR, ...opts.misbehaviour },
    opmlTitle: `newsagg simulator (seed ${seed}, ${specs.length} publishers)`,
    truthJson: () => JSON.stringify(truth()),
    // what a node needs to register the publishers as its sources (`start --demo --demo-url`)
    publishersJson: () => JSON.stringify({ publishers }),
  });
  sim = server;
  const autoMs = opts.autoAdvanceMs ?? (opts.now ? 0 : 1000);
  const timer = autoMs > 0 ? setInterval(() => world.advance(), autoMs) : null;
  timer?.unref();
  const publishers = specs.map((s) => info(urls, s, websub, world.rateOf(s)));
  const toTruth = (items: ReturnType<World['advance']>): TruthItem[] => items.map((i) => truthItem(urls, i, world.wireOriginals));
  return {
    url: base,
    port: addr.port,
    publishers,
    hub,
    lookup: simLookup(addr.address, addr.family === 'IPv6' ? 6 : 4),
    now: () => world.now(),
    tick: (ms) => toTruth(world.tick(ms)),
    publish: (n, id) => toTruth(world.publish(n, id)),
    burst: (b) => {
      const r = world.burst(b);
      return { event_id: r.event.id, schedule: r.schedule };
    },
    truth,
    feedBody: (id) => server.feed(world.publisher(id)).body.toString('utf8'),
    stats: () => stats.snapshot(),
    publisherStats: (id) => stats.publisher(id),
    setBehaviour: (id, behaviour) => {
      if (behaviour !== 'ok' && !(MISBEHAVIOURS as readonly string[]).includes(behaviour)) {
        throw new SimulatorConfigError(`unknown behaviour: ${String(behaviour)}`);
      }
      server.setBehaviour(world.publisher(id), behaviour);
      const p = publishers.find((x) => x.id === id);
      if (p) p.behaviour = behaviour;
    },
    close: async () => {
      if (timer) clearInterval(timer);
      server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await hub?.close();
    },
  };
}
