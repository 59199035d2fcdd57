import { parseAddress, type Address, type Message } from './actor.js';
import type { ReplyFn } from './envelope.js';
import { ActorUnavailableError, AskTimeoutError, NewsaggError, describeError } from './errors.js';
import type { FenceToken } from './fence.js';
import { silentLogger, type Logger } from './log.js';
import type { ShardOwnership } from './ownership.js';
import type { Route } from './system.js';
import { NodeGoneError, type Transport } from './transport.js';

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
  /** longest wait for the answer to an `ask` that crosses to another node, moves included */
  askTimeoutMs?: number;
  /** how long a message for a shard placed here waits for the shard to be ready (lease + rebuild) */
  readyWaitMs?: number;
  log?: Logger;
}

/** What a node's `here` route answers another node's ask with: the value and the owner's fencing token. */
interface OwnerAnswer {
  ownerAnswer: 1;
  value: unknown;
  fence: FenceToken | null;
}

function isOwnerAnswer(a: unknown): a is OwnerAnswer {
  return typeof a === 'object' && a !== null && (a as OwnerAnswer).ownerAnswer === 1;
}

/** An ask on its way: to whichever node owns its shard, again when that changes. */
interface PendingAsk {
  to: Address;
  msg: Message;
  reply: ReplyFn;
  kind: string;
  shard: number;
  deadline: number;
  /** the node the current attempt went to */
  node: string | null;
  /** attempts so far; an answer to an earlier one is ignored */
  attempt: number;
  /** consecutive retries at the same node (for the pause between them) */
  sameNode: number;
  timer: NodeJS.Timeout | null;
  done: boolean;
}

/**
 * Routes actor addresses to the node that owns their shard: the placement is rendezvous over
 * the live members (every node computes the same), the local delivery waits until this node
 * holds the shard's lease and has rebuilt it. A message that arrives from another node is
 * delivered here or refused with SHARD_NOT_OWNED, never forwarded again, so two nodes that
 * briefly disagree about the members cannot bounce a message between them.
 *
 * An ask follows its shard: when the shard is placed on another node while the ask waits (its
 * owner left the members, or a node joined), when its node is not connected, or when the NATS
 * link drops while it waits (the reply would be lost), the ask is sent again at once to where
 * the shard is placed now, whose owner answers once it has taken the shard over, instead of
 * waiting out the ask timeout; a node that answers SHARD_NOT_OWNED (not taken over yet) is asked
 * again after a pause, until the ask's timeout. Asks are therefore delivered at least once: the kinds routed here
 * take a repeated question (a dedup submission, a story batch, a publisher command) as the same
 * question. Plain sends are not repeated. Answers from another node carry the answering owner's
 * fencing token (fence.ts) to the asker's reply.
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
  private readonly pending = new Set<PendingAsk>();
  private readonly offPlacement: () => void;

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
    this.here = {
      deliver: (to, msg, reply) =>
        this.deliverHere(to, msg, reply && ((err, value, fence) => (err ? reply(err) : reply(null, { ownerAnswer: 1, value, fence: fence ?? null } satisfies OwnerAnswer)))),
    };
    this.offPlacement = this.ownership.on((e) => {
      if (e.type === 'placed') this.moved(e.kind, e.shard, e.node);
    });
  }

  /** the node a message for `to` goes to now */
  nodeFor(to: Address): string | null {
    const { kind, shard } = this.place(to);
    return this.ownership.owner(kind, shard);
  }

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    if (!reply) {
      const node = this.nodeFor(to);
      if (node === this.transport.nodeId) return this.deliverHere(to, msg);
      if (node === null) throw new ActorUnavailableError(to, 'no live node');
      return this.transport.send(node, { to, msg });
    }
    let where: { kind: string; shard: number };
    try {
      where = this.place(to);
    } catch (err) {
      return reply(err as Error);
    }
    const p: PendingAsk = { to, msg, reply, ...where, deadline: Date.now() + this.askTimeoutMs, node: null, attempt: 0, sameNode: 0, timer: null, done: false };
    this.pending.add(p);
    this.send(p);
  }

  /** asks waiting for an answer (tests, metrics) */
  get inFlight(): number {
    return this.pending.size;
  }

  async close(): Promise<void> {
    this.offPlacement();
    for (const p of [...this.pending]) this.finish(p, new ActorUnavailableError(p.to, 'route closed'));
  }

  /** one attempt at the node the shard is placed on now */
  private send(p: PendingAsk): void {
    if (p.done) return;
    if (p.timer) clearTimeout(p.timer);
    p.timer = null;
    const attempt = ++p.attempt;
    const node = this.ownership.owner(p.kind, p.shard);
    p.sameNode = node === p.node ? p.sameNode : 0;
    p.node = node;
    const settle: ReplyFn = (err, v, f) => {
      if (p.done || attempt !== p.attempt) return; // an earlier attempt, superseded
      if (!err) return this.finish(p, null, v, f);
      if (this.worthRetrying(err)) return this.retry(p, err);
      this.finish(p, err);
    };
    if (node === this.transport.nodeId) {
      try {
        return this.deliverHere(p.to, p.msg, settle);
      } catch (err) {
        return settle(err as Error);
      }
    }
    if (node === null) return this.finish(p, new ActorUnavailableError(p.to, 'no live node'));
    const left = p.deadline - Date.now();
    if (left <= 0) return this.finish(p, new AskTimeoutError(p.to, p.msg.type, this.askTimeoutMs));
    this.transport.request(node, { to: p.to, msg: p.msg }, left).then(
      (answer) => (isOwnerAnswer(answer) ? settle(null, answer.value, answer.fence) : settle(null, answer)),
      (err: Error) => settle(err),
    );
  }

  /** the node could not answer (gone, link dropped), or does not own the shard (yet: a take-over waits for the lease) */
  private worthRetrying(err: Error): boolean {
    return err instanceof NodeGoneError || (err as { code?: string }).code === 'SHARD_NOT_OWNED';
  }

  /** again at once where the shard is placed now; at the same node after a pause (a placement change cuts it short) */
  private retry(p: PendingAsk, err: Error): void {
    const left = p.deadline - Date.now();
    if (left <= 0) return this.finish(p, err);
    if (this.ownership.owner(p.kind, p.shard) !== p.node) return this.send(p);
    const pause = Math.min(left, 100 * 2 ** Math.min(p.sameNode++, 4));
    this.log.debug({ to: p.to, type: p.msg.type, node: p.node, err: describeError(err), retry_ms: pause }, 'ask not answered by its node; asking again');
    p.timer = setTimeout(() => this.send(p), pause);
  }

  /** a shard was placed on another node: its asks waiting elsewhere go there now */
  private moved(kind: string, shard: number, node: string | null): void {
    for (const p of this.pending) {
      if (p.kind !== kind || p.shard !== shard || p.node === node || p.done) continue;
      this.log.debug({ to: p.to, type: p.msg.type, from: p.node, node }, 'shard placed elsewhere; its ask follows it');
      this.send(p);
    }
  }

  private finish(p: PendingAsk, err: Error | null, v?: unknown, f?: FenceToken | null): void {
    if (p.done) return;
    p.done = true;
    if (p.timer) clearTimeout(p.timer);
    p.timer = null;
    this.pending.delete(p);
    if (err) p.reply(err);
    else p.reply(null, v, f ?? null);
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
    if (this.ownership.ready(kind, shard)) return this.local.deliver(to, msg, fenced(reply, this.ownership.fence(kind, shard)));
    void this.ownership.whenReady(kind, shard, this.readyWaitMs).then((ok) => {
      if (ok && this.ownership.ready(kind, shard)) {
        try {
          return this.local.deliver(to, msg, fenced(reply, this.ownership.fence(kind, shard)));
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

/** a reply that carries the token of the ownership the message was delivered under */
function fenced(reply: ReplyFn | undefined, token: FenceToken | null): ReplyFn | undefined {
  return reply && ((err, v) => (err ? reply(err) : reply(null, v, token)));
}
