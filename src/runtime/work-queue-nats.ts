import { decode, encode } from '@msgpack/msgpack';
import { headers, type Consumer, type JetStreamClient, type JsMsg, type NatsConnection } from 'nats';
import { backoffDelay } from './backoff.js';
import { NewsaggError, describeError } from './errors.js';
import { ensureQueueStreams, type QueueStreamConfig } from './jetstream-setup.js';
import { silentLogger, type Logger } from './log.js';
import type { WorkQueue } from './work-queue.js';
import { packItems } from './work-queue-pack.js';

/** An append did not become durable (NATS away, timeout): the caller keeps the items and retries. */
export class QueueAppendError extends NewsaggError {
  constructor(detail: string, cause?: unknown) {
    super('QUEUE_APPEND_FAILED', `ingest log append failed: ${detail}`, { cause });
  }
}

/** The stream is at its size limit: producers slow down until consumers catch up. */
export class QueueFullError extends NewsaggError {
  constructor(cause?: unknown) {
    super('QUEUE_FULL', 'ingest log is full', { cause });
  }
}

/** Error codes that mean "a dependency is away", not "this item is bad": retried, never dead-lettered. */
const TRANSIENT = new Set([
  'DEPENDENCY_UNAVAILABLE', 'CACHE_UNAVAILABLE', 'NATS_UNAVAILABLE', 'ASK_TIMEOUT', 'ACTOR_UNAVAILABLE',
  'SHARD_NOT_OWNED', 'MAILBOX_FULL', 'QUEUE_FULL', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE',
  '57P01', '57P03', '53300', '40001', '40P01',
]);

export function isTransientError(err: unknown): boolean {
  const e = err as { code?: unknown; transient?: unknown } | null;
  return e?.transient === true || (typeof e?.code === 'string' && TRANSIENT.has(e.code));
}

export interface JetStreamQueueOptions<T> extends QueueStreamConfig {
  /** the stable id of an item (publish dedup of retried appends, dead-letter ids) */
  idOf: (item: T) => string;
  /** items per batch handed to the handler (whole messages; a larger message is one batch) */
  maxBatch?: number;
  /** wait this long for a batch to fill once its first message arrived */
  lingerMs?: number;
  /** messages this node holds unacknowledged at most */
  maxInFlight?: number;
  /** batches handled at once */
  concurrency?: number;
  /** deliveries of a message whose item keeps failing (not transiently) before that item is dead-lettered */
  maxDeliver?: number;
  /** redelivery delay after a failure: min × 2^(deliveries-1), capped */
  retry?: { minMs: number; maxMs: number };
  isTransient?: (err: unknown) => boolean;
  /** items per message and bytes per message (a message costs the client ~60 µs whatever its size) */
  packItems?: number;
  packBytes?: number;
  /** messages in flight at once while appending */
  publishWindow?: number;
  log?: Logger;
}

interface Delivered<T> {
  m: JsMsg;
  items: T[];
}

/**
 * The ingest log on JetStream: a work-queue stream (a message is removed once acknowledged) and
 * one durable pull consumer shared by every consuming node. `append` packs items into messages
 * (`work-queue-pack.ts`) and resolves when the server has stored every one; each carries a
 * `Nats-Msg-Id` made from its items' ids, so a retried append stores nothing twice. The handler
 * gets batches of items; when it resolves their messages are acknowledged. A failing batch is
 * retried message by message, a failing message item by item: the items that pass are handled,
 * and the message is redelivered with backoff (`nak` with a delay) — its good items again, which
 * the consumer's idempotent processing absorbs — until, at `maxDeliver`, the items still failing
 * are published one by one to the dead-letter subject (stream `<stream>_DEAD`, same pack format,
 * the error in a header) and the message is acknowledged. Transient failures (database or bus
 * away) are redelivered for as long as it takes and never dead-lettered. While a batch is
 * handled its messages are kept alive (`working`), so only a node that dies has its messages
 * redelivered, `ackWaitMs` later, to another node.
 */
export class JetStreamWorkQueue<T> implements WorkQueue<T> {
  private readonly js: JetStreamClient;
  private consumer: Consumer | null = null;
  private handler: ((batch: T[]) => Promise<void>) | null = null;
  private running = false;
  private closed = false;
  private inFlight = 0;
  private inFlightItems = 0;
  private backlog = 0;
  private itemsPerMsg = 1;
  private active = 0;
  private batch: Delivered<T>[] = [];
  private batchItems = 0;
  private lingerTimer: NodeJS.Timeout | null = null;
  private readonly ready: Delivered<T>[][] = [];
  private roomWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private loopDone: Promise<void> = Promise.resolve();
  private fetching: { stop(err?: Error): void } | null = null;
  /** the batches being handled now */
  private readonly handling = new Set<Delivered<T>[]>();
  /** batches already settled (counted out of `inFlight`) */
  private readonly accounted = new WeakSet<Delivered<T>[]>();
  private readonly o: Required<Omit<JetStreamQueueOptions<T>, keyof QueueStreamConfig | 'log'>> & { deadLetterSubject: string; ackWaitMs: number };
  private readonly log: Logger;
  private readonly fetchBytes: number;
  /** running average size of a delivered message (starts at the largest pack) */
  private bytesPerMsg: number;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly cfg: JetStreamQueueOptions<T> & { deadLetterSubject: string; ackWaitMs: number },
  ) {
    this.js = nc.jetstream({ timeout: cfg.timeoutMs ?? 5000 });
    const maxBatch = cfg.maxBatch ?? 256;
    this.o = {
      idOf: cfg.idOf,
      maxBatch,
      lingerMs: cfg.lingerMs ?? 20,
      maxInFlight: cfg.maxInFlight ?? 32,
      concurrency: cfg.concurrency ?? 2,
      maxDeliver: cfg.maxDeliver ?? 5,
      retry: cfg.retry ?? { minMs: 500, maxMs: 30_000 },
      isTransient: cfg.isTransient ?? isTransientError,
      packItems: cfg.packItems ?? 64,
      packBytes: Math.min(cfg.packBytes ?? 256 * 1024, Math.max(1024, (nc.info?.max_payload ?? 1 << 20) - 4096)),
      publishWindow: cfg.publishWindow ?? 64,
      deadLetterSubject: cfg.deadLetterSubject,
      ackWaitMs: cfg.ackWaitMs,
    };
    this.log = cfg.log ?? silentLogger;
    this.fetchBytes = Math.max(this.o.packBytes * 2, 4 << 20);
    this.bytesPerMsg = this.o.packBytes;
  }

  /** Creates the streams and the durable consumer when missing (idempotent), then binds to them. */
  static async open<T>(nc: NatsConnection, opts: JetStreamQueueOptions<T>): Promise<JetStreamWorkQueue<T>> {
    const resolved = await ensureQueueStreams(nc, opts);
    return new JetStreamWorkQueue<T>(nc, { ...opts, ...resolved });
  }

  /** items this node holds unacknowledged, plus the backlog last seen (estimated in items) */
  get pending(): number {
    return this.inFlightItems + Math.round(this.backlog * this.itemsPerMsg);
  }

  /** the largest encoded item an append takes (a message holding it alone stays under the server's max payload) */
  get maxItemBytes(): number {
    return (this.nc.info?.max_payload ?? 1 << 20) - 1024 - 8;
  }

  async append(items: readonly T[]): Promise<void> {
    if (this.closed) throw new QueueAppendError('queue closed');
    if (items.length === 0) return;
    const packs = packItems(items, this.o.idOf, this.o.packItems, this.o.packBytes);
    const limit = this.nc.info?.max_payload ?? 1 << 20;
    const huge = packs.find((p) => p.bytes.length > limit - 1024);
    if (huge) throw new NewsaggError('ITEM_TOO_LARGE', `item ${this.o.idOf(items[huge.from]!)} is ${huge.bytes.length} bytes, over the NATS max payload`);
    for (let i = 0; i < packs.length; i += this.o.publishWindow) {
      const acks = packs.slice(i, i + this.o.publishWindow).map((p) => this.js.publish(this.cfg.subject, p.bytes, { msgID: p.id }));
      const failed = (await Promise.allSettled(acks)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        const err = failed.reason as { api_error?: { err_code?: number } };
        if (err?.api_error?.err_code === 10077 || /maximum (messages|bytes)/i.test(describeError(err))) throw new QueueFullError(err);
        throw new QueueAppendError(describeError(err), err);
      }
    }
  }

  consume(handler: (batch: T[]) => Promise<void>): void {
    this.handler = handler;
    if (this.running || this.closed) return;
    this.running = true;
    this.loopDone = this.pullLoop();
  }

  /** resolves when the stream has nothing left for the consumer (on any node) and this node holds nothing */
  async drain(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    for (;;) {
      try {
        const ci = await jsm.consumers.info(this.cfg.stream, this.cfg.durable);
        this.backlog = ci.num_pending;
        if (ci.num_pending === 0 && ci.num_ack_pending === 0 && this.inFlight === 0) return;
      } catch (err) {
        this.log.debug({ err: describeError(err) }, 'drain: consumer info failed');
      }
      await sleep(50);
    }
  }

  /**
   * Stops pulling and hands back at once the messages not yet being handled (`nak`: the stream
   * redelivers them now, to any consuming node); the batches being handled get up to `timeoutMs`
   * (default: no limit) to finish and be acknowledged, and what is still running then is handed
   * back too. Nothing is lost either way: what was not acknowledged is delivered again, and the
   * consumer's writes are idempotent.
   */
  async close(timeoutMs?: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.running = false;
    for (const w of this.roomWaiters.splice(0)) w();
    this.fetching?.stop();
    const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    await untilDeadline(this.loopDone, deadline);
    // (a message that arrives after this is handed back as it arrives: see `received`)
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    const waiting = [this.batch, ...this.ready.splice(0)];
    this.batch = [];
    this.batchItems = 0;
    for (const b of waiting) this.handBack(b);
    if (this.inFlight > 0) await untilDeadline(new Promise<void>((r) => this.idleWaiters.push(r)), deadline);
    if (this.inFlight > 0) {
      this.log.warn({ messages: this.active }, 'ingest batches still running at the end of the shutdown budget: handed back for redelivery');
      for (const b of this.handling) this.handBack(b);
    }
    if (!this.nc.isClosed()) await this.nc.flush().catch(() => undefined);
  }

  /** `nak` without delay (redelivered now, to whichever node pulls next) and no longer counted in flight */
  private handBack(batch: Delivered<T>[]): void {
    if (batch.length === 0 || this.accounted.has(batch)) return;
    for (const d of batch) {
      try {
        d.m.nak();
      } catch {
        // connection closed: redelivered after the ack wait instead
      }
    }
    this.settled(batch);
  }

  private async pullLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const room = this.o.maxInFlight - this.inFlight;
      if (room < Math.max(1, this.o.maxInFlight / 4)) {
        await new Promise<void>((r) => this.roomWaiters.push(r));
        continue;
      }
      try {
        this.consumer ??= await this.js.consumers.get(this.cfg.stream, this.cfg.durable);
        // A pull ends on the client at its expiry even if the server is still sending; what
        // arrives later is dropped and returns only after the ack wait. So a pull asks for no
        // more bytes (by the message sizes seen) than arrive well within its expiry, even on a
        // loaded machine: 782 packs of 36 KB in one pull lost 40 % of them this way.
        const max = Math.max(1, Math.min(room, Math.floor(this.fetchBytes / this.bytesPerMsg)));
        const iter = await this.consumer.fetch({ max_messages: max, expires: 5000 });
        this.fetching = iter;
        if (!this.running) iter.stop();
        for await (const m of iter) {
          this.inFlight++;
          this.backlog = m.info.pending;
          this.received(m);
        }
        this.fetching = null;
        failures = 0;
      } catch (err) {
        this.fetching = null;
        if (!this.running) break;
        if (this.nc.isClosed()) {
          this.log.warn('ingest log consumer stops: its NATS connection is closed');
          this.running = false;
          break;
        }
        failures++;
        if (failures === 1 || failures % 20 === 0) this.log.warn({ err: describeError(err), failures }, 'ingest log pull failed; retrying');
        await sleep(Math.min(2000, 100 * failures));
      }
    }
  }

  private received(m: JsMsg): void {
    let items: T[];
    try {
      const v = decode(m.data);
      if (!Array.isArray(v)) throw new NewsaggError('BAD_PACK', 'message is not a pack of items');
      items = v as T[];
    } catch (err) {
      // undecodable: no retry will help
      void this.deadLetterRaw(m, err).finally(() => this.settled([{ m, items: [] }]));
      return;
    }
    if (this.closed) {
      this.inFlightItems += items.length;
      return this.handBack([{ m, items }]);
    }
    this.itemsPerMsg = this.itemsPerMsg * 0.9 + items.length * 0.1;
    this.bytesPerMsg = Math.max(256, this.bytesPerMsg * 0.9 + m.data.length * 0.1);
    this.inFlightItems += items.length;
    if (this.batch.length > 0 && this.batchItems + items.length > this.o.maxBatch) this.flushBatch();
    this.batch.push({ m, items });
    this.batchItems += items.length;
    if (this.batchItems >= this.o.maxBatch) this.flushBatch();
    else if (!this.lingerTimer) this.lingerTimer = setTimeout(() => this.flushBatch(), this.o.lingerMs);
  }

  private flushBatch(): void {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (this.batch.length === 0) return;
    this.ready.push(this.batch);
    this.batch = [];
    this.batchItems = 0;
    this.pump();
  }

  private pump(): void {
    while (this.active < this.o.concurrency && this.ready.length > 0 && this.handler) {
      const batch = this.ready.shift()!;
      this.active++;
      this.handling.add(batch);
      void this.handleBatch(batch)
        .catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'ingest batch not settled; it is redelivered after the ack wait'))
        .finally(() => {
          this.active--;
          this.handling.delete(batch);
          this.settled(batch);
          this.pump();
        });
    }
  }

  private settled(batch: Delivered<T>[]): void {
    // once per batch: one handed back at close is settled then, and not again when its handler ends
    if (this.accounted.has(batch)) return;
    this.accounted.add(batch);
    this.inFlight -= batch.length;
    for (const d of batch) this.inFlightItems -= d.items.length;
    for (const w of this.roomWaiters.splice(0)) w();
    if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async handleBatch(batch: Delivered<T>[]): Promise<void> {
    const keepAlive = setInterval(() => {
      try {
        for (const d of batch) d.m.working();
      } catch {
        // connection closed: the messages are redelivered to another node after the ack wait
      }
    }, Math.max(200, Math.floor(this.o.ackWaitMs / 3)));
    try {
      const err = await this.attempt(batch.flatMap((d) => d.items));
      if (err === null) return batch.forEach((d) => d.m.ack());
      if (this.o.isTransient(err)) return batch.forEach((d) => this.retryLater(d.m, err));
      if (batch.length > 1) this.log.warn({ err: describeError(err), messages: batch.length }, 'ingest batch failed; retrying message by message');
      for (const d of batch) await this.isolate(d, batch.length > 1 ? null : err);
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** one message alone, then item by item; settles the message */
  private async isolate(d: Delivered<T>, knownErr: unknown): Promise<void> {
    const err = knownErr ?? (await this.attempt(d.items));
    if (err === null) return d.m.ack();
    if (this.o.isTransient(err)) return this.retryLater(d.m, err);
    const failing: [T, unknown][] = [];
    if (d.items.length === 1) failing.push([d.items[0]!, err]);
    else {
      for (const item of d.items) {
        const e = await this.attempt([item]);
        if (e === null) continue;
        if (this.o.isTransient(e)) return this.retryLater(d.m, e);
        failing.push([item, e]);
      }
    }
    if (failing.length === 0) return d.m.ack();
    if (d.m.info.deliveryCount < this.o.maxDeliver) return this.retryLater(d.m, failing[0]![1]);
    for (const [item, e] of failing) {
      if (!(await this.deadLetterItem(d.m, item, e))) return d.m.nak(this.o.retry.maxMs);
    }
    d.m.ack();
  }

  private async attempt(items: T[]): Promise<unknown> {
    try {
      await this.handler!(items);
      return null;
    } catch (err) {
      return err ?? new Error('handler failed');
    }
  }

  private retryLater(m: JsMsg, err: unknown): void {
    const deliveries = m.info.deliveryCount;
    const delay = backoffDelay(deliveries, this.o.retry);
    this.log.warn({ err: describeError(err), deliveries, retry_ms: delay, seq: m.seq }, 'ingest message failed; redelivering later');
    m.nak(delay);
  }

  private async deadLetterItem(m: JsMsg, item: T, err: unknown): Promise<boolean> {
    let id: string | null = null;
    try {
      id = this.o.idOf(item);
    } catch {
      // an item without a usable id is still kept
    }
    const ok = await this.publishDead(m, encode([item]), err, id ? `${id}:dead` : null);
    if (ok) this.log.error({ err: describeError(err), id, seq: m.seq, deliveries: m.info.deliveryCount }, 'ingest item dead-lettered');
    return ok;
  }

  private async deadLetterRaw(m: JsMsg, err: unknown): Promise<void> {
    const ok = await this.publishDead(m, m.data, err, m.headers?.get('Nats-Msg-Id') ? `${m.headers.get('Nats-Msg-Id')}:dead` : null);
    if (ok) {
      this.log.error({ err: describeError(err), seq: m.seq }, 'undecodable ingest message dead-lettered');
      m.term();
    } else m.nak(this.o.retry.maxMs);
  }

  private async publishDead(m: JsMsg, data: Uint8Array, err: unknown, msgID: string | null): Promise<boolean> {
    const h = headers();
    h.set('Newsagg-Error', describeError(err).slice(0, 1000).replace(/[\r\n]+/g, ' '));
    h.set('Newsagg-Deliveries', String(m.info.deliveryCount));
    h.set('Newsagg-Stream-Seq', String(m.seq));
    try {
      await this.js.publish(this.o.deadLetterSubject, data, { headers: h, ...(msgID ? { msgID } : {}) });
      return true;
    } catch (e) {
      this.log.warn({ err: describeError(e) }, 'dead-letter publish failed; redelivering instead');
      return false;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** `p`, or nothing once `deadline` (epoch ms) has passed */
async function untilDeadline(p: Promise<unknown>, deadline: number): Promise<void> {
  if (deadline === Infinity) return void (await p);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
  clearTimeout(timer);
}
