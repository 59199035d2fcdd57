import { Piscina } from 'piscina';
import type { Address, Message } from './actor.js';
import type { ReplyFn } from './envelope.js';
import { ActorUnavailableError, NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { siblingModule, execArgvFor } from './module-url.js';
import type { Route } from './system.js';
import type { WorkerResult, WorkerTask } from './worker-host.js';

export interface WorkerGroupOptions {
  name: string;
  /** kind -> module URL (import.meta.url-relative href) exporting the Behaviour */
  kinds: Record<string, string>;
  /** envelopes per task; a batch is also cut at the end of the current tick */
  maxBatch?: number;
  /** tasks in flight to the worker (pipelining); order is kept by the worker host */
  concurrentTasks?: number;
  log?: Logger;
  /** where messages that worker actors send outward are delivered (the main system) */
  onOutbound?: (to: Address, msg: Message) => void;
  /** messages lost with a dying worker (plain sends have no caller to tell) */
  onLost?: (to: Address, msg: Message, error: Error) => void;
  /** plain data the hosted behaviour modules read from `workerData` (e.g. a database URL) */
  workerData?: unknown;
}

/**
 * Main-thread side of a shard group: one long-lived, ordered piscina pool with a single worker
 * (`minThreads = maxThreads = 1`, `idleTimeout: Infinity`, `stricterFIFO`) so actor state stays
 * in that thread, fed with batches because a round trip costs ~50 µs while a batch of hundreds
 * costs almost nothing per item. A worker that dies fails its in-flight asks with a clear error;
 * piscina starts a replacement whose actors rebuild their state through `init`.
 */
export class WorkerGroup implements Route {
  readonly name: string;
  private readonly pool: Piscina;
  readonly kinds: Readonly<Record<string, string>>;
  private readonly maxBatch: number;
  private to: string[] = [];
  private msgs: Message[] = [];
  private askIds: number[] = [];
  private replies = new Map<number, ReplyFn>();
  private nextAskId = 1;
  private flushQueued = false;
  private inflight = new Set<Promise<unknown>>();
  private readonly log: Logger;
  private closed = false;
  onOutbound: (to: Address, msg: Message) => void;
  onLost: (to: Address, msg: Message, error: Error) => void;
  /** tasks that failed because the worker died */
  workerFailures = 0;
  /** told when a task failed with its worker (its replacement starts empty) */
  onWorkerFailed: () => void = () => {};

  constructor(opts: WorkerGroupOptions) {
    this.name = opts.name;
    this.kinds = opts.kinds;
    this.maxBatch = opts.maxBatch ?? 1024;
    this.log = opts.log ?? silentLogger;
    this.onOutbound = opts.onOutbound ?? (() => {});
    this.onLost = opts.onLost ?? (() => {});
    const host = siblingModule(import.meta.url, './worker-host.js');
    const anyTs = Object.values(opts.kinds).some((u) => u.endsWith('.ts'));
    this.pool = new Piscina({
      filename: host.filename,
      execArgv: host.execArgv.length ? host.execArgv : anyTs ? execArgvFor('.ts') : [],
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: opts.concurrentTasks ?? 4,
      stricterFIFO: true,
      atomics: 'disabled',
      ...(opts.workerData !== undefined ? { workerData: opts.workerData } : {}),
    });
    this.pool.on('error', (err: unknown) => this.log.warn({ group: this.name, err: describeError(err) }, 'worker error'));
  }

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    if (this.closed) {
      const err = new ActorUnavailableError(to, `worker group ${this.name} is closed`);
      if (reply) return reply(err);
      throw err;
    }
    let askId = 0;
    if (reply) {
      askId = this.nextAskId++;
      this.replies.set(askId, reply);
    }
    this.to.push(to);
    this.msgs.push(msg);
    this.askIds.push(askId);
    if (this.to.length >= this.maxBatch) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Send what is batched now. */
  flush(): void {
    this.flushQueued = false;
    if (this.to.length === 0) return;
    const task: WorkerTask = { kinds: this.kinds, to: this.to, msgs: this.msgs, askIds: this.askIds };
    this.to = [];
    this.msgs = [];
    this.askIds = [];
    const p = (this.pool.run(task) as Promise<WorkerResult>).then(
      (res) => this.settle(res),
      (err: unknown) => this.fail(task, err),
    );
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  async drain(): Promise<void> {
    this.flush();
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.drain();
    this.closed = true;
    await this.pool.destroy();
  }

  /** The worker threads (for tests that kill one). */
  get threads(): readonly { terminate(): Promise<number> }[] {
    return this.pool.threads;
  }

  private settle(res: WorkerResult): void {
    for (const r of res.replies) {
      const reply = this.replies.get(r.askId);
      if (!reply) continue;
      this.replies.delete(r.askId);
      if (r.ok) reply(null, r.value);
      else reply(new NewsaggError(r.error?.code ?? 'ACTOR_FAILED', r.error?.message ?? 'actor failed'));
    }
    for (const o of res.outbound) {
      try {
        this.onOutbound(o.to, o.msg);
      } catch (err) {
        this.onLost(o.to, o.msg, err as Error);
      }
    }
  }

  private fail(task: WorkerTask, cause: unknown): void {
    this.workerFailures++;
    this.onWorkerFailed();
    this.log.warn({ group: this.name, lost: task.to.length, err: describeError(cause) }, 'worker task failed; worker replaced');
    for (let i = 0; i < task.to.length; i++) {
      const env = { to: task.to[i]!, msg: task.msgs[i]!, askId: task.askIds[i] || undefined };
      const err = new ActorUnavailableError(env.to, `worker of group ${this.name} died`, cause);
      if (env.askId !== undefined) {
        const reply = this.replies.get(env.askId);
        this.replies.delete(env.askId);
        reply?.(err);
      } else this.onLost(env.to, env.msg, err);
    }
  }
}
