import { describeError, NewsaggError } from './errors.js';
import { silentLogger, type Logger } from './log.js';

/**
 * The ingest log's interface, for the in-process queue below and for a durable stream
 * (JetStream) alike:
 * - `append` resolves once its items are durable: for a stream, acknowledged by the stream; for
 *   the in-process queue, which keeps nothing across a crash, acknowledged by the consumer
 *   (stored). It rejects when they could not be made durable; the producer still holds them and
 *   offers them again later (a publisher polls again with its old validators). It waits while
 *   the queue is full.
 * - the consumer acknowledges a batch by resolving its handler; a rejection asks for the batch
 *   again after a pause; after `maxAttempts` failed deliveries the batch is given up (its appends
 *   reject; a stream records it as a dead letter) so one bad batch never holds the log forever.
 *   Batches are delivered in order, up to `concurrency` at once (a retried batch comes again
 *   later, after newer ones).
 */
export interface WorkQueue<T> {
  append(items: readonly T[]): Promise<void>;
  consume(handler: (batch: T[]) => Promise<void>): void;
  /** resolves when everything appended so far was acknowledged or given up */
  drain(): Promise<void>;
  /** items appended and not yet acknowledged or given up */
  readonly pending: number;
  /** refuses new appends, waits up to `timeoutMs` (default: no limit) for the rest, then gives it up */
  close(timeoutMs?: number): Promise<void>;
}

/** An append that was not made durable: the queue was closed, or its batch was given up. */
export class WorkNotDoneError extends NewsaggError {
  constructor(reason: 'closed' | 'given-up', detail: string, cause?: unknown) {
    super(reason === 'closed' ? 'QUEUE_CLOSED' : 'QUEUE_GAVE_UP', detail, { cause });
  }
}

export interface MemoryQueueOptions {
  maxBatch?: number;
  /** wait this long for a batch to fill once the first item arrived */
  lingerMs?: number;
  /** appends wait while this many items are waiting to be delivered (backpressure) */
  highWater?: number;
  /** batches handed to the consumer at once */
  concurrency?: number;
  /** deliveries of one batch before it is given up */
  maxAttempts?: number;
  /** pause before the first redelivery; doubles per attempt up to `retryMaxMs` */
  retryMs?: number;
  retryMaxMs?: number;
  log?: Logger;
  /** told about each batch given up (metrics) */
  onGiveUp?: (size: number, err: unknown) => void;
}

interface Ticket {
  /** item sequence numbers [from, to) */
  from: number;
  to: number;
  left: number;
  settled: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

interface Batch<T> {
  from: number;
  items: T[];
  attempts: number;
}

/** The in-process ingest log (embedded mode; also server mode until a durable stream replaces it). */
export class MemoryWorkQueue<T> implements WorkQueue<T> {
  private items: T[] = [];
  private head = 0;
  /** sequence number of `items[head]` */
  private headSeq = 0;
  private appended = 0;
  private tickets: Ticket[] = [];
  private ticketHead = 0;
  private handler: ((batch: T[]) => Promise<void>) | null = null;
  private inFlight = 0;
  private inFlightItems = 0;
  private retrying = 0;
  private lingering = false;
  /** the linger of the partial batch at the head is over: it goes next */
  private lingered = false;
  private closed = false;
  private drainWaiters: (() => void)[] = [];
  private roomWaiters: (() => void)[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly highWater: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly retryMs: number;
  private readonly retryMaxMs: number;
  private readonly log: Logger;

  constructor(private readonly opts: MemoryQueueOptions = {}) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.lingerMs = opts.lingerMs ?? 20;
    this.highWater = opts.highWater ?? 5_000;
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 8);
    this.retryMs = opts.retryMs ?? 500;
    this.retryMaxMs = opts.retryMaxMs ?? 30_000;
    this.log = opts.log ?? silentLogger;
  }

  get pending(): number {
    return this.appended - this.settledUpTo();
  }

  /** items waiting to be delivered (not yet handed to the consumer) */
  get waiting(): number {
    return this.items.length - this.head;
  }

  async append(items: readonly T[]): Promise<void> {
    if (this.closed) throw new WorkNotDoneError('closed', 'the ingest log is closed');
    while (this.waiting >= this.highWater) {
      await new Promise<void>((r) => this.roomWaiters.push(r));
      if (this.closed) throw new WorkNotDoneError('closed', 'the ingest log is closed');
    }
    if (items.length === 0) return;
    const from = this.appended;
    for (const it of items) this.items.push(it);
    this.appended += items.length;
    const done = new Promise<void>((resolve, reject) => {
      this.tickets.push({ from, to: this.appended, left: items.length, settled: false, resolve, reject });
    });
    this.kick();
    return done;
  }

  consume(handler: (batch: T[]) => Promise<void>): void {
    this.handler = handler;
    this.kick();
  }

  drain(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((r) => this.drainWaiters.push(r));
  }

  async close(timeoutMs?: number): Promise<void> {
    this.closed = true;
    for (const w of this.roomWaiters.splice(0)) w();
    if (timeoutMs === undefined) await this.drain();
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.drain(), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
    }
    // what is left is given up: its producers still hold it and offer it again after a restart
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    const err = new WorkNotDoneError('closed', 'the ingest log closed before these items were stored');
    for (let i = this.ticketHead; i < this.tickets.length; i++) this.settle(this.tickets[i]!, err);
    this.items = [];
    this.head = 0;
    this.headSeq = this.appended;
    this.handler = null;
    this.wakeDrain();
  }

  private kick(): void {
    if (!this.handler || this.lingering) return;
    while (this.inFlight < this.concurrency && this.waiting > 0) {
      if (this.waiting < this.maxBatch && this.lingerMs > 0 && !this.lingered) {
        // a partial batch waits for company: briefly, or until a batch being handled finishes
        if (this.inFlight > 0) return;
        this.lingering = true;
        setTimeout(() => {
          this.lingering = false;
          this.lingered = true;
          this.kick();
        }, this.lingerMs);
        return;
      }
      this.lingered = false;
      this.deliver(this.take());
    }
  }

  private take(): Batch<T> {
    const items = this.items.slice(this.head, this.head + this.maxBatch);
    const batch: Batch<T> = { from: this.headSeq, items, attempts: 0 };
    this.head += items.length;
    this.headSeq += items.length;
    if (this.head > 10_000 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    for (const w of this.roomWaiters.splice(0)) w();
    return batch;
  }

  private deliver(batch: Batch<T>): void {
    const handler = this.handler;
    if (!handler) return;
    this.inFlight++;
    this.inFlightItems += batch.items.length;
    batch.attempts++;
    let outcome: Promise<void>;
    try {
      outcome = handler(batch.items);
    } catch (err) {
      outcome = Promise.reject(err);
    }
    outcome.then(
      () => {
        this.finish(batch);
        this.acknowledge(batch, null);
      },
      (err: unknown) => {
        this.finish(batch);
        if (batch.attempts >= this.maxAttempts || this.closed) {
          this.log.error({ err: describeError(err), size: batch.items.length, attempts: batch.attempts }, 'ingest batch given up; its producers offer it again later');
          this.opts.onGiveUp?.(batch.items.length, err);
          this.acknowledge(batch, new WorkNotDoneError('given-up', `batch given up after ${batch.attempts} attempts: ${describeError(err)}`, err));
          return;
        }
        const wait = Math.min(this.retryMaxMs, this.retryMs * 2 ** (batch.attempts - 1));
        this.log.warn({ err: describeError(err), size: batch.items.length, attempt: batch.attempts, retry_ms: wait }, 'ingest batch failed; retrying');
        this.retrying++;
        const timer = setTimeout(() => {
          this.retryTimers.delete(timer);
          this.retrying--;
          if (this.handler) this.deliver(batch);
        }, wait);
        this.retryTimers.add(timer);
      },
    );
  }

  private finish(batch: Batch<T>): void {
    this.inFlight--;
    this.inFlightItems -= batch.items.length;
    // a partial batch that waited for this one goes now
    this.lingered = true;
    this.kick();
  }

  /** Settles the tickets covering a batch: acknowledged (err null) or given up. */
  private acknowledge(batch: Batch<T>, err: Error | null): void {
    const from = batch.from;
    const to = from + batch.items.length;
    for (let i = this.firstTicketEndingAfter(from); i < this.tickets.length; i++) {
      const t = this.tickets[i]!;
      if (t.from >= to) break;
      const overlap = Math.min(t.to, to) - Math.max(t.from, from);
      t.left -= overlap;
      if (err) this.settle(t, err);
      else if (t.left === 0) this.settle(t, null);
    }
    this.wakeDrain();
  }

  private settle(t: Ticket, err: Error | null): void {
    if (t.settled) return;
    t.settled = true;
    if (err) t.reject(err);
    else t.resolve();
  }

  /** Sequence number below which every item is settled (acknowledged, given up or abandoned). */
  private settledUpTo(): number {
    while (this.ticketHead < this.tickets.length) {
      const t = this.tickets[this.ticketHead]!;
      // a ticket rejected early still has items on their way: it counts until they are through
      if (!(t.settled && t.left <= 0) && !(t.settled && this.closed)) break;
      this.ticketHead++;
    }
    if (this.ticketHead > 1_000 && this.ticketHead * 2 > this.tickets.length) {
      this.tickets = this.tickets.slice(this.ticketHead);
      this.ticketHead = 0;
    }
    return this.ticketHead < this.tickets.length ? this.tickets[this.ticketHead]!.from : this.appended;
  }

  private firstTicketEndingAfter(seq: number): number {
    let lo = this.ticketHead;
    let hi = this.tickets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tickets[mid]!.to <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private wakeDrain(): void {
    if (this.pending === 0) for (const w of this.drainWaiters.splice(0)) w();
  }
}
