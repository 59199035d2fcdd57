import { decode, encode } from '@msgpack/msgpack';
import { ErrorCode, type Msg, type NatsConnection, type NatsError, type Subscription } from 'nats';
import type { WireEnvelope } from './envelope.js';
import { ActorUnavailableError, AskTimeoutError, NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { subjectToken, subscribeDecoded } from './nats-connect.js';
import { fromWireError, NodeGoneError, toWireError, type Transport, type WireError } from './transport.js';

type Reply = { ok: true; value: unknown } | { ok: false; error: WireError };

/** A payload larger than the server's max_payload (1 MB by default): send smaller batches. */
export class PayloadTooLargeError extends NewsaggError {
  constructor(subject: string, bytes: number, cause?: unknown) {
    super('PAYLOAD_TOO_LARGE', `message of ${bytes} bytes to ${subject} exceeds the NATS max payload`, { cause });
  }
}

/** the link dropped while a request waited: its reply is lost */
class LinkDropped extends Error {}

export interface NatsTransportOptions {
  /** subject prefix: `<prefix>.node.<node>` inboxes, `<prefix>.ev.<topic>` events */
  prefix?: string;
  /** the link's disconnect/reconnect events (`NatsLink.onStatus`): requests waiting at a disconnect fail at once */
  onStatus?: (fn: (s: 'disconnected' | 'reconnected') => void) => () => void;
  log?: Logger;
}

/**
 * The node transport over NATS core subjects, payloads in msgpack (the same bytes the in-process
 * bus checks). `send`/`request` go to the addressed node's inbox subject; a request without a
 * listener fails at once (NATS "no responders") as NodeGoneError, and so does every request still
 * waiting when the link drops and every request made before it is back (the reply would be lost:
 * the server forgets a disconnected client's reply subscription), instead of waiting out its
 * timeout; one without an answer in time fails as AskTimeoutError. `publish`/`subscribe` fan
 * events out to every node, this one included. Subscriptions and the served inbox live on the
 * client, which renews them after a reconnect; the connection belongs to the caller and stays
 * open on `close()`.
 */
export class NatsTransport implements Transport {
  private readonly prefix: string;
  private readonly log: Logger;
  private inboxSub: Subscription | null = null;
  private readonly subs = new Set<Subscription>();
  /** requests waiting for their reply: failed at once when the link drops */
  private readonly waiting = new Set<(err: Error) => void>();
  private readonly offStatus: () => void;
  /** false between a disconnect and the reconnect (with `onStatus`) */
  private linkUp = true;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    readonly nodeId: string,
    opts: NatsTransportOptions = {},
  ) {
    this.prefix = opts.prefix ?? 'newsagg';
    this.log = opts.log ?? silentLogger;
    this.offStatus = opts.onStatus?.((s) => {
      this.linkUp = s === 'reconnected';
      if (s === 'disconnected') for (const fail of [...this.waiting]) fail(new LinkDropped());
    }) ?? (() => undefined);
  }

  inboxSubject(node: string): string {
    return `${this.prefix}.node.${subjectToken(node)}`;
  }

  eventSubject(topic: string): string {
    if (!/^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/.test(topic)) throw new TypeError(`bad event topic: ${topic}`);
    return `${this.prefix}.ev.${topic}`;
  }

  send(node: string, env: WireEnvelope): void {
    this.pub(this.inboxSubject(node), encode(env), env.to);
  }

  async request(node: string, env: WireEnvelope, timeoutMs: number): Promise<unknown> {
    const subject = this.inboxSubject(node);
    const bytes = encode(env);
    // a request made while reconnecting is buffered, but its reply subscription is not renewed
    // in time for the answer: it would only time out
    if (!this.linkUp) throw new NodeGoneError(env.to, node, 'the NATS link is down (reconnecting)');
    let msg: Msg;
    let dropped: ((err: Error) => void) | undefined;
    try {
      msg = await Promise.race([
        this.nc.request(subject, bytes, { timeout: timeoutMs }),
        new Promise<never>((_, reject) => this.waiting.add((dropped = reject))),
      ]);
    } catch (err) {
      const code = (err as NatsError).code;
      if (code === ErrorCode.Timeout) throw new AskTimeoutError(env.to, env.msg.type, timeoutMs);
      if (code === ErrorCode.NoResponders) throw new NodeGoneError(env.to, node, 'not connected to NATS', err);
      if (err instanceof LinkDropped) throw new NodeGoneError(env.to, node, 'the NATS link dropped while the reply was awaited', err);
      if (code === ErrorCode.MaxPayloadExceeded) throw new PayloadTooLargeError(subject, bytes.length, err);
      throw new ActorUnavailableError(env.to, `request to node ${node} failed: ${describeError(err)}`, err);
    } finally {
      this.waiting.delete(dropped!);
    }
    let r: Reply;
    try {
      r = decode(msg.data) as Reply;
    } catch (err) {
      throw new ActorUnavailableError(env.to, `undecodable reply from node ${node}`, err);
    }
    if (r && r.ok === true) return r.value;
    throw fromWireError(r?.ok === false ? r.error : { code: 'BAD_REPLY', message: `malformed reply from node ${node}` });
  }

  serve(handler: (env: WireEnvelope) => Promise<unknown>): void {
    this.inboxSub?.unsubscribe();
    this.inboxSub = this.nc.subscribe(this.inboxSubject(this.nodeId), {
      callback: (err, msg) => {
        if (err) return this.log.warn({ err: describeError(err) }, 'inbox subscription error');
        void this.handle(msg, handler);
      },
    });
  }

  publish(topic: string, data: unknown): void {
    const subject = this.eventSubject(topic);
    this.pub(subject, encode(data), subject);
  }

  subscribe(topic: string, handler: (data: unknown) => void): () => void {
    const sub = subscribeDecoded(this.nc, this.eventSubject(topic), handler, this.log, { topic }, 'event');
    this.subs.add(sub);
    return () => {
      this.subs.delete(sub);
      sub.unsubscribe();
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.offStatus();
    this.inboxSub?.unsubscribe();
    this.inboxSub = null;
    for (const s of this.subs) s.unsubscribe();
    this.subs.clear();
  }

  private pub(subject: string, bytes: Uint8Array, what: string): void {
    try {
      this.nc.publish(subject, bytes);
    } catch (err) {
      const code = (err as NatsError).code;
      if (code === ErrorCode.MaxPayloadExceeded) throw new PayloadTooLargeError(subject, bytes.length, err);
      throw new ActorUnavailableError(what, `NATS publish failed: ${describeError(err)}`, err);
    }
  }

  private async handle(msg: Msg, handler: (env: WireEnvelope) => Promise<unknown>): Promise<void> {
    let reply: Reply;
    try {
      const env = decode(msg.data) as WireEnvelope;
      if (!env || typeof env.to !== 'string' || typeof env.msg?.type !== 'string') {
        throw new NewsaggError('BAD_ENVELOPE', 'malformed envelope');
      }
      reply = { ok: true, value: await handler(env) };
    } catch (err) {
      if (!msg.reply) this.log.warn({ err: describeError(err) }, 'message to this node failed');
      reply = { ok: false, error: toWireError(err) };
    }
    if (!msg.reply) return;
    let out: Uint8Array;
    try {
      out = encode(reply);
    } catch (err) {
      out = encode({ ok: false, error: { code: 'BAD_REPLY', message: `reply not encodable: ${describeError(err)}` } });
    }
    try {
      msg.respond(out);
    } catch (err) {
      // too large, or the connection closed while the handler ran: the asker times out
      this.log.warn({ err: describeError(err) }, 'reply not sent');
      if ((err as NatsError).code === ErrorCode.MaxPayloadExceeded) {
        msg.respond(encode({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: `reply of ${out.length} bytes exceeds the NATS max payload` } }));
      }
    }
  }
}
