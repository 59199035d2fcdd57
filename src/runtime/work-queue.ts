import { describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';

/**
 * The ingest log's interface: producers append batches, one consumer takes batches and
 * acknowledges them by resolving. Server mode puts a JetStream stream behind it (explicit acks,
 * redelivery after a crash); embedded mode uses this in-process queue, drained before exit.
 */
export interface WorkQueue<T> {
  append(items: readonly T[]): Promise<void>;
  /** start consuming; a batch whose handler throws is retried after a pause, never dropped */
  consume(handler: (batch: T[]) => Promise<void>): void;
  /** resolves when everything appended so far has been handled */
  drain(): Promise<void>;
  readonly pending: number;
  close(): Promise<void>;
}

export interface MemoryQueueOptions {
  maxBatch?: number;
  /** wait this long for a batch to fill once the first item arrived */
  lingerMs?: number;
  /** appends wait while this many items are queued (backpressure) */
  highWater?: number;
  retryMs?: number;
  log?: Logger;
}

export class MemoryWorkQueue<T> implements WorkQueue<T> {
  private items: T[] = [];
  private head = 0;
  private handler: ((batch: T[]) => Promise<void>) | null = null;
  private running = false;
  private inHandler = 0;
  private closed = false;
  private drainWaiters: (() => void)[] = [];
  private roomWaiters: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly highWater: number;
  private readonly retryMs: number;
  private readonly log: Logger;

  constructor(opts: MemoryQueueOptions = {}) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.lingerMs = opts.lingerMs ?? 20;
    this.highWater = opts.highWater ?? 50_000;
    this.retryMs = opts.retryMs ?? 500;
    this.log = opts.log ?? silentLogger;
  }

  get pending(): number {
    return this.items.length - this.head + this.inHandler;
  }

  async append(items: readonly T[]): Promise<void> {
    if (this.closed) throw new Error('queue closed');
    while (this.items.length - this.head >= this.highWater) await new Promise<void>((r) => this.roomWaiters.push(r));
    for (const it of items) this.items.push(it);
    this.kick();
  }

  consume(handler: (batch: T[]) => Promise<void>): void {
    this.handler = handler;
    this.kick();
  }

  drain(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((r) => this.drainWaiters.push(r));
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
  }

  private kick(): void {
    if (this.running || !this.handler || this.items.length === this.head) return;
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.items.length > this.head && this.handler) {
        if (this.items.length - this.head < this.maxBatch && this.lingerMs > 0) await sleep(this.lingerMs);
        const batch = this.items.slice(this.head, this.head + this.maxBatch);
        this.head += batch.length;
        this.inHandler = batch.length;
        if (this.head > 10_000 && this.head * 2 > this.items.length) {
          this.items = this.items.slice(this.head);
          this.head = 0;
        }
        for (const w of this.roomWaiters.splice(0)) w();
        for (;;) {
          try {
            await this.handler(batch);
            break;
          } catch (err) {
            this.log.warn({ err: describeError(err), size: batch.length }, 'ingest batch failed; retrying');
            await sleep(this.retryMs);
          }
        }
        this.inHandler = 0;
      }
    } finally {
      this.running = false;
      if (this.pending === 0) for (const w of this.drainWaiters.splice(0)) w();
      else this.kick();
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
