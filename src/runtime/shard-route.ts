import { parseAddress, type Address, type Message } from './actor.js';
import type { ReplyFn } from './envelope.js';
import { ActorUnavailableError, NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import type { ShardOwnership } from './ownership.js';
import type { Route } from './system.js';
import type { Transport } from './transport.js';

/** A message reached a node that does not own (or not yet) the shard: the sender retries later. */
export class ShardNotOwnedError extends NewsaggError {
  constructor(to: Address, kind: string, shard: number, node: string) {
    super('SHARD_NOT_OWNED', `${kind} shard ${shard} (for ${to}) is not owned by node ${node}`);
  }
}

export interface ShardRouteOptions {
  transport: Transport;
  ownership: ShardOwnership;
  /** how this node reaches the actors of shards it owns (a system hosting the kind, a worker group) */
  local: Route;
  /**
   * The shard of an address. Default: shard kind = actor kind, shard = hash of the address key
   * (`publisher/<id>`). Kinds whose key *is* the shard (`dedup/2-17`) pass their own.
   */
  place?: (to: Address) => { kind: string; shard: number };
  /** timeout of an `ask` that crosses to another node */
  askTimeoutMs?: number;
  /** how long a message for a shard placed here waits for the shard to be ready (lease + rebuild) */
  readyWaitMs?: number;
  log?: Logger;
}

/**
 * Routes actor addresses to the node that owns their shard: the placement is rendezvous over
 * the live members (every node computes the same), the local delivery waits until this node
 * holds the shard's lease and has rebuilt it. A message that arrives from another node is
 * delivered here or refused with SHARD_NOT_OWNED, never forwarded again, so two nodes that
 * briefly disagree about the members cannot bounce a message between them.
 *
 * Wiring: `system.route(kind, route)` for the sharded kinds, and
 * `serveSystem(system, transport, { here: new Map([[kind, route.here]]) })`.
 */
export class ShardRoute implements Route {
  /** local delivery, gated by ownership: what other nodes' messages for these kinds go through */
  readonly here: Route;
  private readonly transport: Transport;
  private readonly ownership: ShardOwnership;
  private readonly local: Route;
  private readonly place: (to: Address) => { kind: string; shard: number };
  private readonly askTimeoutMs: number;
  private readonly readyWaitMs: number;
  private readonly log: Logger;

  constructor(opts: ShardRouteOptions) {
    this.transport = opts.transport;
    this.ownership = opts.ownership;
    this.local = opts.local;
    this.place = opts.place ?? ((to) => {
      const { kind, key } = parseAddress(to);
      return { kind, shard: this.ownership.shardOf(kind, key) };
    });
    this.askTimeoutMs = opts.askTimeoutMs ?? 5_000;
    this.readyWaitMs = opts.readyWaitMs ?? 10_000;
    this.log = opts.log ?? silentLogger;
    this.here = { deliver: (to, msg, reply) => this.deliverHere(to, msg, reply) };
  }

  /** the node a message for `to` goes to now */
  nodeFor(to: Address): string | null {
    const { kind, shard } = this.place(to);
    return this.ownership.owner(kind, shard);
  }

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    let node: string | null;
    try {
      node = this.nodeFor(to);
    } catch (err) {
      if (reply) return reply(err as Error);
      throw err;
    }
    if (node === this.transport.nodeId) return this.deliverHere(to, msg, reply);
    if (node === null) {
      const err = new ActorUnavailableError(to, 'no live node');
      if (reply) return reply(err);
      throw err;
    }
    if (!reply) return this.transport.send(node, { to, msg });
    this.transport.request(node, { to, msg }, this.askTimeoutMs).then(
      (v) => reply(null, v),
      (err: Error) => reply(err),
    );
  }

  private deliverHere(to: Address, msg: Message, reply?: ReplyFn): void {
    let kind: string;
    let shard: number;
    try {
      ({ kind, shard } = this.place(to));
    } catch (err) {
      if (reply) return reply(err as Error);
      throw err;
    }
    if (this.ownership.ready(kind, shard)) return this.local.deliver(to, msg, reply);
    void this.ownership.whenReady(kind, shard, this.readyWaitMs).then((ok) => {
      if (ok && this.ownership.ready(kind, shard)) {
        try {
          return this.local.deliver(to, msg, reply);
        } catch (err) {
          if (reply) return reply(err as Error);
          return this.log.warn({ to, type: msg.type, err: describeError(err) }, 'message to a shard not delivered');
        }
      }
      const err = new ShardNotOwnedError(to, kind, shard, this.transport.nodeId);
      if (reply) reply(err);
      else this.log.warn({ to, type: msg.type, kind, shard }, 'message for a shard this node does not own dropped');
    });
  }
}
