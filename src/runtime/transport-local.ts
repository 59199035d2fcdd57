import { decode, encode } from '@msgpack/msgpack';
import type { WireEnvelope } from './envelope.js';
import { ActorUnavailableError, AskTimeoutError } from './errors.js';
import { fromWireError, toWireError, type Transport, type WireError } from './transport.js';

type Reply = { ok: true; value: unknown } | { ok: false; error: WireError };

/**
 * The in-process bus: several nodes in one process (embedded mode has exactly one). Every
 * payload goes through msgpack, exactly as on NATS, so a message that would not survive the
 * wire fails here too, in tests, instead of in production.
 */
export class InProcessBus {
  private readonly inboxes = new Map<string, (bytes: Uint8Array) => Promise<Uint8Array>>();
  private readonly topics = new Map<string, Set<(bytes: Uint8Array) => void>>();

  connect(nodeId: string): Transport {
    return new LocalTransport(this, nodeId);
  }

  /** @internal */
  bindInbox(nodeId: string, fn: ((bytes: Uint8Array) => Promise<Uint8Array>) | null): void {
    if (fn) this.inboxes.set(nodeId, fn);
    else this.inboxes.delete(nodeId);
  }

  /** @internal */
  inbox(nodeId: string): ((bytes: Uint8Array) => Promise<Uint8Array>) | undefined {
    return this.inboxes.get(nodeId);
  }

  /** @internal */
  topic(name: string): Set<(bytes: Uint8Array) => void> {
    let s = this.topics.get(name);
    if (!s) this.topics.set(name, (s = new Set()));
    return s;
  }
}

class LocalTransport implements Transport {
  private subs: (() => void)[] = [];

  constructor(
    private readonly bus: InProcessBus,
    readonly nodeId: string,
  ) {}

  send(node: string, env: WireEnvelope): void {
    void this.request(node, env, 60_000).catch(() => undefined);
  }

  request(node: string, env: WireEnvelope, timeoutMs: number): Promise<unknown> {
    const bytes = encode(env);
    const inbox = this.bus.inbox(node);
    if (!inbox) return Promise.reject(new ActorUnavailableError(env.to, `node ${node} is not connected`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new AskTimeoutError(env.to, env.msg.type, timeoutMs)), timeoutMs);
      timer.unref();
      // a macrotask hop, like a network: the receiver never runs on the sender's stack
      setImmediate(() => {
        inbox(bytes).then((out) => {
          clearTimeout(timer);
          const r = decode(out) as Reply;
          if (r.ok) resolve(r.value);
          else reject(fromWireError(r.error));
        }, reject);
      });
    });
  }

  serve(handler: (env: WireEnvelope) => Promise<unknown>): void {
    this.bus.bindInbox(this.nodeId, async (bytes) => {
      let reply: Reply;
      try {
        reply = { ok: true, value: await handler(decode(bytes) as WireEnvelope) };
      } catch (err) {
        reply = { ok: false, error: toWireError(err) };
      }
      return encode(reply);
    });
  }

  publish(topic: string, data: unknown): void {
    const bytes = encode(data);
    for (const fn of this.bus.topic(topic)) setImmediate(() => fn(bytes));
  }

  subscribe(topic: string, handler: (data: unknown) => void): () => void {
    const fn = (bytes: Uint8Array) => handler(decode(bytes));
    this.bus.topic(topic).add(fn);
    const off = () => this.bus.topic(topic).delete(fn);
    this.subs.push(off);
    return off;
  }

  async close(): Promise<void> {
    this.bus.bindInbox(this.nodeId, null);
    for (const off of this.subs) off();
    this.subs = [];
  }
}
