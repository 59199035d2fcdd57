import { decode, encode } from '@msgpack/msgpack';
import { headers, type Consumer, type JetStreamClient, type JsMsg, type NatsConnection } from 'nats';
import { backoffDelay } from './backoff.js';
import { NewsaggError, describeError } from './errors.js';
import { ensureQueueStreams, type QueueStreamConfig } from './jetstream-setup.js';
import { silentLogger, type Logger } from './log.js';
import type { WorkQueue } from './work-queue.js';

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
  /** the stable id of an item: JetStream drops a second append of it within the duplicate window */
  idOf: (item: T) => string;
  maxBatch?: number;
  /** wait this long for a batch to fill once its first message arrived */
  lingerMs?: number;
  /** messages this node holds unacknowledged at most */
  maxInFlight?: number;
  /** batches handled at once */
  concurrency?: number;
  /** deliveries of one item, failing alone and not transiently, before it is dead-lettered */
  maxDeliver?: number;
  /** redelivery delay after a failure: min × 2^(deliveries-1), capped */
  retry?: { minMs: number; maxMs: number };
  isTransient?: (err: unknown) => boolean;
  /** appends in flight at once */
  publishWindow?: number;
  log?: Logger;
}

/**
 * The ingest log on JetStream: a work-queue stream (a message is removed once acknowledged)
 * and one durable pull consumer shared by every consuming node. `append` resolves when every
 * item is stored by the server (each carries `Nats-Msg-Id` = `idOf(item)`, so a retried append
 * stores nothing twice). The consumer acknowledges a batch when its handler resolves; a failed
 * batch is retried item by item so one bad item cannot hold the others, and the bad item is
 * redelivered with backoff (`nak` with a delay) and, after `maxDeliver` deliveries, published to
 * the dead-letter subject (kept in its own stream) with the error. Transient failures (database
 * or bus away) are redelivered with backoff for as long as it takes and never dead-lettered.
 * While a batch is handled its messages are kept alive (`working`), so only a node that dies
 * has its messages redelivered, `ackWaitMs` later, to another node.
 */
export class JetStreamWorkQueue<T> implements WorkQueue<T> {
  private readonly js: JetStreamClient;
  private consumer: Consumer | null = null;
  private handler: ((batch: T[]) => Promise<void>) | null = null;
  private running = false;
  private closed = false;
  private inFlight = 0;
  private backlog = 0;
  private active = 0;
  private batch: JsMsg[] = [];
  private lingerTimer: NodeJS.Timeout | null = null;
  private readonly ready: JsMsg[][] = [];
  private roomWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  private loopDone: Promise<void> = Promise.resolve();
  private fetching: { stop(err?: Error): void } | null = null;
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly maxInFlight: number;
  private readonly concurrency: number;
  private readonly maxDeliver: number;
  private readonly retry: { minMs: number; maxMs: number };
  private readonly isTransient: (err: unknown) => boolean;
  private readonly publishWindow: number;
  private readonly log: Logger;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly opts: JetStreamQueueOptions<T> & Required<Pick<QueueStreamConfig, 'deadLetterSubject' | 'ackWaitMs'>>,
  ) {
    this.js = nc.jetstream({ timeout: opts.timeoutMs ?? 5000 });
    this.maxBatch = opts.maxBatch ?? 256;
    this.lingerMs = opts.lingerMs ?? 20;
    this.maxInFlight = Math.max(this.maxBatch, opts.maxInFlight ?? this.maxBatch * 4);
    this.concurrency = opts.concurrency ?? 2;
    this.maxDeliver = opts.maxDeliver ?? 5;
    this.retry = opts.retry ?? { minMs: 500, maxMs: 30_000 };
    this.isTransient = opts.isTransient ?? isTransientError;
    this.publishWindow = opts.publishWindow ?? 1024;
    this.log = opts.log ?? silentLogger;
  }

  /** Creates the streams and the durable consumer when missing (idempotent), then binds to them. */
  static async open<T>(nc: NatsConnection, opts: JetStreamQueueOptions<T>): Promise<JetStreamWorkQueue<T>> {
    const resolved = await ensureQueueStreams(nc, opts);
    return new JetStreamWorkQueue<T>(nc, { ...opts, ...resolved });
  }

  /** this node's unacknowledged messages plus the backlog last seen on a delivered message */
  get pending(): number {
    return this.inFlight + this.backlog;
  }

  async append(items: readonly T[]): Promise<void> {
    if (this.closed) throw new QueueAppendError('queue closed');
    for (let i = 0; i < items.length; i += this.publishWindow) {
      const chunk = items.slice(i, i + this.publishWindow);
      const acks = chunk.map((item) => {
        const bytes = encode(item);
        return this.js.publish(this.opts.subject, bytes, { msgID: this.opts.idOf(item) });
      });
      const results = await Promise.allSettled(acks);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        const err = failed.reason as { api_error?: { err_code?: number } };
        // 10077: maximum messages exceeded, 10047: insufficient resources / bytes
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
        const ci = await jsm.consumers.info(this.opts.stream, this.opts.durable);
        this.backlog = ci.num_pending;
        if (ci.num_pending === 0 && ci.num_ack_pending === 0 && this.inFlight === 0) return;
      } catch (err) {
        this.log.debug({ err: describeError(err) }, 'drain: consumer info failed');
      }
      await sleep(50);
    }
  }

  /** stop pulling, finish the batches in hand (acknowledged), keep the rest in the stream */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.running = false;
    for (const w of this.roomWaiters.splice(0)) w();
    this.fetching?.stop();
    await this.loopDone;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.flushBatch();
    if (this.inFlight > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    if (!this.nc.isClosed()) await this.nc.flush().catch(() => undefined);
  }

  private async pullLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const room = this.maxInFlight - this.inFlight;
      if (room < Math.min(this.maxBatch, this.maxInFlight / 2)) {
        await new Promise<void>((r) => this.roomWaiters.push(r));
        continue;
      }
      try {
        this.consumer ??= await this.js.consumers.get(this.opts.stream, this.opts.durable);
        const iter = await this.consumer.fetch({ max_messages: room, expires: 1000 });
        this.fetching = iter;
        if (!this.running) iter.stop();
        for await (const m of iter) {
          this.inFlight++;
          this.backlog = m.info.pending;
          this.collect(m);
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

  private collect(m: JsMsg): void {
    this.batch.push(m);
    if (this.batch.length >= this.maxBatch) this.flushBatch();
    else if (!this.lingerTimer) this.lingerTimer = setTimeout(() => this.flushBatch(), this.lingerMs);
  }

  private flushBatch(): void {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (this.batch.length === 0) return;
    this.ready.push(this.batch);
    this.batch = [];
    this.pump();
  }

  private pump(): void {
    while (this.active < this.concurrency && this.ready.length > 0 && this.handler) {
      const msgs = this.ready.shift()!;
      this.active++;
      void this.handleBatch(msgs)
        .catch((err: unknown) => this.log.warn({ err: describeError(err), size: msgs.length }, 'ingest batch not settled; it is redelivered after the ack wait'))
        .finally(() => {
          this.active--;
          this.inFlight -= msgs.length;
          for (const w of this.roomWaiters.splice(0)) w();
          if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
          this.pump();
        });
    }
  }

  private async handleBatch(msgs: JsMsg[]): Promise<void> {
    const items: T[] = [];
    const good: JsMsg[] = [];
    for (const m of msgs) {
      try {
        items.push(decode(m.data) as T);
        good.push(m);
      } catch (err) {
        await this.deadLetter(m, err); // undecodable: no retry will help
      }
    }
    if (good.length === 0) return;
    const keepAlive = setInterval(() => {
      try {
        for (const m of good) m.working();
      } catch {
        // connection closed: the messages are redelivered to another node after the ack wait
      }
    }, Math.max(200, Math.floor(this.opts.ackWaitMs / 3)));
    try {
      try {
        await this.handler!(items);
        for (const m of good) m.ack();
        return;
      } catch (err) {
        if (this.isTransient(err) || good.length === 1) {
          for (const m of good) await this.failed(m, err);
          return;
        }
        this.log.warn({ err: describeError(err), size: good.length }, 'ingest batch failed; retrying its items one by one');
      }
      // isolate: the items that pass alone are acknowledged, the failing one is redelivered later
      for (let i = 0; i < good.length; i++) {
        const m = good[i]!;
        try {
          await this.handler!([items[i]!]);
          m.ack();
        } catch (err) {
          await this.failed(m, err);
        }
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async failed(m: JsMsg, err: unknown): Promise<void> {
    const deliveries = m.info.deliveryCount;
    if (!this.isTransient(err) && deliveries >= this.maxDeliver) return this.deadLetter(m, err);
    const delay = backoffDelay(deliveries, this.retry);
    this.log.warn({ err: describeError(err), deliveries, retry_ms: delay, seq: m.seq }, 'ingest item failed; redelivering later');
    m.nak(delay);
  }

  private async deadLetter(m: JsMsg, err: unknown): Promise<void> {
    const h = headers();
    h.set('Newsagg-Error', describeError(err).slice(0, 1000).replace(/[\r\n]+/g, ' '));
    h.set('Newsagg-Deliveries', String(m.info.deliveryCount));
    h.set('Newsagg-Stream-Seq', String(m.seq));
    const id = m.headers?.get('Nats-Msg-Id');
    try {
      await this.js.publish(this.opts.deadLetterSubject, m.data, { headers: h, ...(id ? { msgID: `${id}:dead` } : {}) });
      m.term();
      this.log.error({ err: describeError(err), seq: m.seq, deliveries: m.info.deliveryCount, id }, 'ingest item dead-lettered');
    } catch (e) {
      this.log.warn({ err: describeError(e) }, 'dead-letter publish failed; redelivering instead');
      m.nak(this.retry.maxMs);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
