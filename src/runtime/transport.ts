import type { Address, Message } from './actor.js';
import type { ReplyFn, WireEnvelope } from './envelope.js';
import { ActorUnavailableError, NewsaggError, describeError } from './errors.js';
import type { ActorSystem, Route } from './system.js';

/**
 * How nodes reach each other. Everything that crosses is plain, msgpack-encodable data, and
 * actors are named by address, so the in-process implementation and the NATS one are
 * interchangeable: `send`/`request` go to one node's inbox, `publish`/`subscribe` fan out
 * events (cache invalidation, heartbeats) to every node.
 */
export interface Transport {
  readonly nodeId: string;
  send(node: string, env: WireEnvelope): void;
  request(node: string, env: WireEnvelope, timeoutMs: number): Promise<unknown>;
  /** handle envelopes addressed to this node; the returned value answers a request */
  serve(handler: (env: WireEnvelope) => Promise<unknown>): void;
  publish(topic: string, data: unknown): void;
  subscribe(topic: string, handler: (data: unknown) => void): () => void;
  close(): Promise<void>;
}

/**
 * The node a request went to cannot answer it (no longer connected to NATS, or the link dropped
 * while the reply was awaited, so the reply is lost): ask again where the address lives now.
 */
export class NodeGoneError extends ActorUnavailableError {
  constructor(
    address: string,
    readonly node: string,
    reason: string,
    cause?: unknown,
  ) {
    super(address, `node ${node}: ${reason}`, cause);
  }
}

/** Wire form of an error that crossed a boundary. */
export interface WireError {
  code: string;
  message: string;
}

export function toWireError(err: unknown): WireError {
  return { code: (err as { code?: string })?.code ?? 'ACTOR_FAILED', message: describeError(err) };
}

export function fromWireError(e: WireError): NewsaggError {
  return new NewsaggError(e.code, e.message);
}

/**
 * A route that sends messages for actors owned by other nodes. `ownerOf` is the placement
 * (rendezvous hashing over live nodes in server mode); when it names this node the local
 * system handles the message.
 */
export class RemoteRoute implements Route {
  constructor(
    private readonly transport: Transport,
    private readonly ownerOf: (to: Address) => string | null,
    private readonly local: Route | null,
    private readonly timeoutMs = 5_000,
  ) {}

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    const node = this.ownerOf(to);
    if (node === null || node === this.transport.nodeId) {
      if (this.local) return this.local.deliver(to, msg, reply);
      const err = new ActorUnavailableError(to, 'no node owns this address');
      if (reply) return reply(err);
      throw err;
    }
    if (!reply) return this.transport.send(node, { to, msg });
    this.transport.request(node, { to, msg }, this.timeoutMs).then(
      (v) => reply(null, v),
      (err: Error) => reply(err),
    );
  }
}

/**
 * Let a system answer envelopes that other nodes send to it. `here` names, per actor kind, the
 * route that delivers on this node without forwarding again (`ShardRoute.here`), so a message
 * that crossed once is handled or refused here, never bounced on.
 */
export function serveSystem(system: ActorSystem, transport: Transport, opts: { here?: ReadonlyMap<string, Route> } = {}): void {
  transport.serve(
    (env) =>
      new Promise((resolve, reject) => {
        const slash = env.to.indexOf('/');
        const target: Route = (slash > 0 ? opts.here?.get(env.to.slice(0, slash)) : undefined) ?? system;
        target.deliver(env.to, env.msg, (err, value) => (err ? reject(err) : resolve(value)));
      }),
  );
}
