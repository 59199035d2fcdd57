import type { Address, Message } from '../runtime/actor.js';
import { ActorUnavailableError, describeError } from '../runtime/errors.js';
import { openCluster, type Cluster } from '../runtime/cluster.js';
import { Fenced, SqlShardFences } from '../runtime/fence.js';
import type { ShardHost } from '../runtime/ownership.js';
import { ShardRoute } from '../runtime/shard-route.js';
import type { Route } from '../runtime/system.js';
import { serveSystem } from '../runtime/transport.js';
import type { Component, Node } from '../node.js';

/**
 * Shard counts of a cluster: every node must use the same. Publishers are hashed into 64
 * shards (a node joining or leaving moves about 1/n of them). Dedup, stories and breaking news
 * are one shard each: the dedup coordinator numbers articles (handles stored with their
 * fingerprints), the story clusterer holds the active stories and the breaking detector the
 * counts of every process node's stories, so each lives on exactly one node and every process
 * node asks (or tells) it, which gives the same answers whether one node or three processed the
 * articles.
 */
export const CLUSTER_KINDS = { publisher: { shards: 64 }, dedup: { shards: 1 }, story: { shards: 1 }, breaking: { shards: 1 } } as const;

/** The one address of each singleton shard kind (the owner's local route serves it). */
export const DEDUP_OWNER: Address = 'dedup-owner/0';
export const STORY_OWNER_KIND = 'story';

/** What the roles see of the cluster (server mode only; embedded mode has none). */
export interface ClusterWiring {
  readonly cluster: Cluster;
  /**
   * Routes addresses of `actorKind` to the node owning their shard of `shardKind` (`local`
   * delivers on this node, gated by ownership); messages from other nodes for that actor kind
   * go through the same gate. `place` defaults to hashing the address key into the kind's shards.
   */
  route(actorKind: string, shardKind: string, local: Route, host: ShardHost, place?: (to: Address) => number): ShardRoute;
  /** a route to actors of a kind this node does not host (it takes none of `shardKind`'s shards) */
  client(shardKind: string, place?: (to: Address) => number): ShardRoute;
  /** the node a shard of `kind` is placed on now (null while no live node takes the kind) */
  ownerOfKey(kind: string, key: string): string | null;
}

export interface ClusterComponent extends Component {
  /** the cluster after start in server mode (`--nats-url`), null in embedded mode */
  get(): ClusterWiring | null;
  /** started last: takes shards once every role has attached its hosts; stopped first (hands them over) */
  readonly go: Component;
  /**
   * work to finish before the shards are handed over at stop: the ingest pipeline's batches in
   * hand still need this node's dedup and story shards (handed over first, they would wait for
   * an owner until the shutdown budget ran out)
   */
  beforeHandover(fn: () => Promise<void>): void;
}

/** ask through a route, as a promise */
export function askVia<R, M extends Message = Message>(route: Route, to: Address, msg: M): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    try {
      route.deliver(to, msg, (err, v) => (err ? reject(err) : resolve(v as R)));
    } catch (err) {
      reject(err as Error);
    }
  });
}

/** ask through a route, as a promise of the answer with the fencing token of the shard owner that gave it */
export function askFenced<R, M extends Message = Message>(route: Route, to: Address, msg: M): Promise<Fenced<R>> {
  return new Promise<Fenced<R>>((resolve, reject) => {
    try {
      route.deliver(to, msg, (err, v, fence) => (err ? reject(err) : resolve(new Fenced(v as R, fence ?? null))));
    } catch (err) {
      reject(err as Error);
    }
  });
}

/**
 * The node's place in a cluster: transport, membership (heartbeats), leases and shard
 * ownership over NATS. A node takes the shard kinds its roles run (`ingest`: publisher shards,
 * `process`: dedup, story and breaking); an `api`-only node takes none but still knows who owns what.
 */
export function clusterComponent(): ClusterComponent {
  let wiring: ClusterWiring | null = null;
  let cluster: Cluster | null = null;
  let log: Node['log'] | null = null;
  const beforeHandover: (() => Promise<void>)[] = [];
  const here = new Map<string, Route>();
  return {
    name: 'cluster',
    async start(node: Node) {
      log = node.log;
      if (!node.nats) return;
      const roles = new Set<string>(node.config.roles);
      const takes = [...(roles.has('ingest') ? ['publisher'] : []), ...(roles.has('process') ? ['dedup', 'story', 'breaking'] : [])];
      const c = await openCluster({ nodeId: node.nodeId, nats: node.nats, kinds: CLUSTER_KINDS, takes, fences: new SqlShardFences(node.sql), log: node.log });
      cluster = c;
      serveSystem(node.system, c.transport, { here });
      node.ownedShards.track((k) => c.ownership.count(k));
      wiring = {
        cluster: c,
        route(actorKind, shardKind, local, host, place) {
          c.ownership.attach(shardKind, host);
          const r = shardRoute(shardKind, local, place);
          here.set(actorKind, r.here);
          return r;
        },
        client(shardKind, place) {
          // (placement never names this node for a kind it does not take)
          return shardRoute(shardKind, { deliver: (to) => { throw new ActorUnavailableError(to, 'not hosted on this node'); } }, place);
        },
        ownerOfKey: (kind, key) => c.ownership.ownerOfKey(kind, key),
      };
      function shardRoute(shardKind: string, local: Route, place?: (to: Address) => number): ShardRoute {
        return new ShardRoute({
          transport: c.transport,
          ownership: c.ownership,
          local,
          place: place ? (to) => ({ kind: shardKind, shard: place(to) }) : (to) => ({ kind: shardKind, shard: c.ownership.shardOf(shardKind, to.slice(to.indexOf('/') + 1)) }),
          // a dedup or story ask waits behind the owner's queue of batches; a publisher's for a slow poll
          // (an owner that leaves, or a NATS link that drops, does not make it wait: it is asked anew)
          askTimeoutMs: node.config.askTimeoutSeconds * 1000,
          readyWaitMs: 30_000,
          log: node.log,
        });
      }
    },
    async stop() {
      // (normally done by `go`; a failed start stops here)
      await cluster?.stop().catch(() => undefined);
      cluster = null;
    },
    get: () => wiring,
    beforeHandover(fn) {
      beforeHandover.push(fn);
    },
    go: {
      name: 'cluster-ownership',
      start(node: Node) {
        if (!cluster) return;
        cluster.start();
        node.log.info({ node_id: node.nodeId }, 'cluster joined');
      },
      async stop() {
        // shards handed over first (publisher actors stop, their leases go to the survivors at once),
        // once the work that needs them is done
        const c = cluster;
        cluster = null;
        for (const fn of beforeHandover.splice(0)) {
          await fn().catch((err: unknown) => log?.warn({ err: describeError(err) }, 'work before the shard handover failed'));
        }
        await c?.stop();
      },
    },
  };
}
