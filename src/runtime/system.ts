import type { ActorContext, Address, Behaviour, Message, SupervisionOptions } from './actor.js';
import { parseAddress } from './actor.js';
import { backoffDelay } from './backoff.js';
import { ActorCell, ReadyQueue, isPromiseLike } from './cell.js';
import { realClock, type Clock } from './clock.js';
import { DeadLetterLog } from './dead-letters.js';
import type { Envelope, ReplyFn } from './envelope.js';
import { ActorUnavailableError, AskTimeoutError, MailboxFullError, describeError, isOutage } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { Metrics } from './metrics.js';
import { CellContext } from './context.js';
import { KindStats } from './stats.js';
import { TimerHeap } from './timers.js';
import type { WorkerGroup } from './worker-group.js';

/** Where messages for kinds this system does not host go (worker groups, other nodes). */
export interface Route {
  deliver(to: Address, msg: Message, reply?: ReplyFn): void;
  /** settle everything in flight (flush batches) */
  drain?(): Promise<void>;
  close?(): Promise<void>;
}

export interface ActorSystemOptions {
  log?: Logger;
  metrics?: Metrics;
  clock?: Clock;
  random?: () => number;
  /** default timeout of `ask` */
  askTimeoutMs?: number;
  supervision?: Partial<SupervisionOptions>;
  /** messages handled per scheduling slice before yielding to I/O */
  sliceBudget?: number;
}

const DEFAULT_SUPERVISION: SupervisionOptions = { maxAttempts: 3, backoffMinMs: 10, backoffMaxMs: 30_000 };

/**
 * The actor system of one thread: behaviours by kind, cells spawned on demand by address, FIFO
 * mailboxes processed one message at a time per actor, supervision with restart backoff and
 * dead letters, and one timer heap. Kinds hosted elsewhere (worker groups, other nodes) are
 * reached through routes, by address, so callers never hold a reference to an actor.
 */
export class ActorSystem {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly deadLetters = new DeadLetterLog();
  readonly timers: TimerHeap;
  private readonly behaviours = new Map<string, Behaviour<unknown, never>>();
  private readonly routes = new Map<string, Route>();
  private fallbackRoute: Route | null = null;
  private readonly cells = new Map<Address, ActorCell>();
  private readonly stats = new Map<string, KindStats>();
  private readonly ready = new ReadyQueue();
  private readonly waiters = new Map<Address, (() => void)[]>();
  private draining = false;
  private closed = false;
  private readonly random: () => number;
  private readonly askTimeoutMs: number;
  private readonly supervision: SupervisionOptions;
  private readonly sliceBudget: number;
  private idleWaiters: (() => void)[] = [];
  private inFlight = 0;

  constructor(opts: ActorSystemOptions = {}) {
    this.log = opts.log ?? silentLogger;
    this.metrics = opts.metrics ?? new Metrics();
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.askTimeoutMs = opts.askTimeoutMs ?? 5_000;
    this.supervision = { ...DEFAULT_SUPERVISION, ...opts.supervision };
    this.sliceBudget = opts.sliceBudget ?? 5_000;
    this.timers = new TimerHeap(this.clock);
    KindStats.register(this.metrics, this.stats, () => this.cells.values());
  }

  /** Host a kind in this system. */
  register<S, M extends Message>(behaviour: Behaviour<S, M>): this {
    this.behaviours.set(behaviour.kind, behaviour as unknown as Behaviour<unknown, never>);
    this.statsFor(behaviour.kind);
    return this;
  }

  /** Send messages of `kind` through a route (a worker group, a remote node). */
  route(kind: string, route: Route): this {
    this.routes.set(kind, route);
    return this;
  }

  /** Host the kinds of a worker group: route them there and take their outward messages back. */
  hostInWorkers(group: WorkerGroup): this {
    for (const k of Object.keys(group.kinds)) this.routes.set(k, group);
    group.onOutbound = (to, msg) => this.send(to, msg);
    group.onLost = (to, msg, err) => this.deadLetter(to, parseAddress(to).kind, msg, err, 1);
    return this;
  }

  /** Route for addresses whose kind is neither hosted nor routed (e.g. the worker's way home). */
  routeUnknown(route: Route): this {
    this.fallbackRoute = route;
    return this;
  }

  hosts(kind: string): boolean {
    return this.behaviours.has(kind);
  }

  /** whether an actor lives at this address (also while it finishes its last message after `stop`) */
  alive(to: Address): boolean {
    return this.cells.has(to);
  }

  /** Number of live actors (optionally of one kind). */
  count(kind?: string): number {
    if (!kind) return this.cells.size;
    let n = 0;
    for (const c of this.cells.values()) if (c.kind === kind) n++;
    return n;
  }

  /** Fire-and-forget. Throws MailboxFullError when a backpressure mailbox is full. */
  send<M extends Message>(to: Address, msg: M): void {
    this.dispatch(to, msg, undefined);
  }

  /** Like `send`, but waits for room instead of failing when a backpressure mailbox is full. */
  async offer<M extends Message>(to: Address, msg: M): Promise<void> {
    for (;;) {
      try {
        this.dispatch(to, msg, undefined);
        return;
      } catch (err) {
        if (!(err instanceof MailboxFullError)) throw err;
        await new Promise<void>((resolve) => {
          const list = this.waiters.get(to) ?? [];
          list.push(resolve);
          this.waiters.set(to, list);
        });
      }
    }
  }

  /** Request/reply with a timeout; rejects with the actor's error, AskTimeoutError or ActorUnavailableError. */
  ask<R = unknown, M extends Message = Message>(to: Address, msg: M, timeoutMs = this.askTimeoutMs): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let done = false;
      const timer = this.clock.setTimeout(() => {
        if (done) return;
        done = true;
        reject(new AskTimeoutError(to, msg.type, timeoutMs));
      }, timeoutMs);
      const reply: ReplyFn = (err, value) => {
        if (done) return;
        done = true;
        this.clock.clearTimeout(timer);
        if (err) reject(err);
        else resolve(value as R);
      };
      try {
        this.dispatch(to, msg, reply);
      } catch (err) {
        reply(err as Error);
      }
    });
  }

  /** Route-style entry: deliver with an optional reply callback; errors go to the callback. */
  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    try {
      this.dispatch(to, msg, reply);
    } catch (err) {
      if (reply) reply(err as Error);
      else throw err;
    }
  }

  /** Spawn (or return) the actor at an address of a hosted kind. */
  spawn(to: Address): void {
    const { kind, key } = parseAddress(to);
    const b = this.behaviours.get(kind);
    if (!b) throw new ActorUnavailableError(to, `kind ${kind} is not hosted here`);
    if (!this.cells.has(to)) this.start(new ActorCell(to, kind, key, b));
  }

  /** Stop an actor after its current message; later messages spawn it anew. */
  stop(to: Address): void {
    const cell = this.cells.get(to);
    if (!cell) return;
    cell.stopRequested = true;
    if (cell.status === 'ready' && cell.mailbox.length === 0) void this.finish(cell);
  }

  /** Resolves when every mailbox is empty and no message is being handled. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drain mailboxes and routes, stop every actor, cancel timers, close routes. */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    if (this.closed) return;
    const deadline = Date.now() + timeoutMs;
    const routes = [...new Set([...this.routes.values(), ...(this.fallbackRoute ? [this.fallbackRoute] : [])])];
    // drain until quiet: local work can produce routed work and back
    for (let round = 0; round < 5 && Date.now() < deadline; round++) {
      await Promise.race([this.idle(), sleep(Math.max(0, deadline - Date.now()))]);
      await Promise.all(routes.map((r) => r.drain?.()));
      if (this.isIdle()) break;
    }
    this.closed = true;
    this.timers.clear();
    for (const cell of [...this.cells.values()]) {
      for (const env of cell.mailbox.drain()) env.reply?.(new ActorUnavailableError(cell.address, 'system shut down'));
      await this.finish(cell, true);
    }
    await Promise.all(routes.map((r) => r.close?.()));
  }

  // ---------------------------------------------------------------- internals

  private dispatch(to: Address, msg: Message, reply: ReplyFn | undefined): void {
    if (this.closed) throw new ActorUnavailableError(to, 'system is shut down');
    let cell = this.cells.get(to);
    if (!cell) {
      const slash = to.indexOf('/');
      const kind = slash > 0 ? to.slice(0, slash) : '';
      const b = this.behaviours.get(kind);
      if (!b) {
        const route = this.routes.get(kind) ?? this.fallbackRoute;
        if (route) return route.deliver(to, msg, reply);
        const err = new ActorUnavailableError(to, `no actor kind ${kind || '(none)'} here`);
        this.deadLetter(to, kind, msg, err, 0);
        if (reply) reply(err);
        return;
      }
      cell = new ActorCell(to, kind, to.slice(slash + 1), b);
      this.start(cell);
    }
    const env: Envelope = { msg, reply, attempts: 0 };
    if (cell.mailbox.capacity === Infinity) cell.mailbox.offer(env);
    else if (cell.mailbox.offer(env, (evicted) => this.evicted(cell, evicted)) === 'refused') {
      throw new MailboxFullError(to, cell.mailbox.capacity);
    }
    this.schedule(cell);
  }

  private evicted(cell: ActorCell, env: Envelope): void {
    this.statsFor(cell.kind).dropped++;
    env.reply?.(new ActorUnavailableError(cell.address, 'message dropped by mailbox overflow policy'));
  }

  private start(cell: ActorCell): void {
    this.cells.set(cell.address, cell);
    cell.ctx = this.makeContext(cell);
    this.statsFor(cell.kind).spawned++;
    this.init(cell);
  }

  private init(cell: ActorCell): void {
    cell.status = 'starting';
    let result: unknown;
    try {
      result = cell.behaviour.init(cell.key, cell.ctx);
    } catch (err) {
      return this.initFailed(cell, err);
    }
    if (isPromiseLike(result)) {
      this.inFlight++;
      result.then(
        (s) => {
          this.inFlight--;
          this.initDone(cell, s);
        },
        (err) => {
          this.inFlight--;
          this.initFailed(cell, err);
        },
      );
    } else this.initDone(cell, result);
  }

  private initDone(cell: ActorCell, state: unknown): void {
    if (cell.status === 'stopped') return;
    cell.state = state;
    cell.status = 'ready';
    this.schedule(cell);
    this.checkIdle();
  }

  private initFailed(cell: ActorCell, err: unknown): void {
    this.statsFor(cell.kind).failures++;
    this.logFailure(err, { actor: cell.address }, 'actor init failed');
    // A head message waiting on an actor that cannot start counts as a failed attempt.
    const head = cell.mailbox.shift();
    if (head) {
      head.attempts++;
      if (head.attempts >= this.supervisionOf(cell).maxAttempts) this.giveUp(cell, head, err);
      else cell.mailbox.unshift(head);
    }
    this.restartLater(cell);
  }

  private restartLater(cell: ActorCell): void {
    const sup = this.supervisionOf(cell);
    cell.restarts++;
    cell.status = 'backoff';
    this.statsFor(cell.kind).restarts++;
    const delay = backoffDelay(cell.restarts, { minMs: sup.backoffMinMs, maxMs: sup.backoffMaxMs }, this.random);
    this.timers.schedule(`${cell.address}#restart`, delay, () => {
      if (cell.status !== 'stopped') this.init(cell);
    });
  }

  private schedule(cell: ActorCell): void {
    if (cell.scheduled || cell.status !== 'ready' || cell.mailbox.length === 0) return;
    cell.scheduled = true;
    this.ready.push(cell);
    if (!this.draining) {
      this.draining = true;
      queueMicrotask(this.drainReady);
    }
  }

  private readonly drainReady = (): void => {
    let budget = this.sliceBudget;
    while (budget > 0) {
      const cell = this.ready.shift();
      if (!cell) break;
      cell.scheduled = false;
      budget -= this.run(cell, 64);
    }
    if (this.ready.length > 0) setImmediate(this.drainReady);
    else {
      this.draining = false;
      this.checkIdle();
    }
  };

  /** Handle up to `max` messages of one cell synchronously; returns how many it took. */
  private run(cell: ActorCell, max: number): number {
    const stats = this.statsFor(cell.kind);
    let n = 0;
    while (n < max && cell.status === 'ready') {
      const env = cell.mailbox.shift();
      if (!env) break;
      n++;
      if (this.waiters.size > 0) this.wake(cell);
      let result: unknown;
      try {
        result = cell.behaviour.receive(cell.state, env.msg as never, cell.ctx);
      } catch (err) {
        this.failed(cell, env, err);
        return n;
      }
      if (isPromiseLike(result)) {
        cell.status = 'busy';
        this.inFlight++;
        result.then(
          (v) => {
            this.inFlight--;
            if (cell.status === 'stopped') return env.reply?.(null, v);
            cell.status = 'ready';
            this.succeeded(cell, env, v);
            this.schedule(cell);
            this.checkIdle();
          },
          (err) => {
            this.inFlight--;
            if (cell.status === 'stopped') return env.reply?.(err as Error);
            cell.status = 'ready';
            this.failed(cell, env, err);
            this.checkIdle();
          },
        );
        return n;
      }
      stats.processed++;
      cell.restarts = 0;
      if (env.reply) env.reply(null, result);
      if (cell.stopRequested) {
        void this.finish(cell);
        return n;
      }
    }
    if (cell.mailbox.length > 0) this.schedule(cell);
    return n;
  }

  private succeeded(cell: ActorCell, env: Envelope, value: unknown): void {
    this.statsFor(cell.kind).processed++;
    cell.restarts = 0;
    env.reply?.(null, value);
    if (cell.stopRequested) void this.finish(cell);
  }

  private failed(cell: ActorCell, env: Envelope, err: unknown): void {
    this.statsFor(cell.kind).failures++;
    env.attempts++;
    this.logFailure(err, { actor: cell.address, type: env.msg.type, attempt: env.attempts }, 'actor failed');
    if (env.attempts >= this.supervisionOf(cell).maxAttempts) this.giveUp(cell, env, err);
    else cell.mailbox.unshift(env);
    this.restartLater(cell);
  }

  /**
   * A failure because a backing service is away is logged at debug: its adapter logs the outage
   * once, and thousands of actors retrying through it would otherwise bury the log.
   */
  private logFailure(err: unknown, fields: Record<string, unknown>, message: string): void {
    this.log[isOutage(err) ? 'debug' : 'warn']({ ...fields, err: describeError(err) }, message);
  }

  private giveUp(cell: ActorCell, env: Envelope, err: unknown): void {
    this.deadLetter(cell.address, cell.kind, env.msg, err, env.attempts);
    env.reply?.(err instanceof Error ? err : new Error(String(err)));
  }

  private deadLetter(address: string, kind: string, msg: Message, err: unknown, attempts: number): void {
    if (kind) this.statsFor(kind).deadLetters++;
    this.deadLetters.add({
      address,
      type: msg?.type ?? '(none)',
      msg,
      error: describeError(err),
      code: (err as { code?: string })?.code ?? null,
      attempts,
      at: this.clock.now(),
    });
  }

  private async finish(cell: ActorCell, shuttingDown = false): Promise<void> {
    if (cell.status === 'stopped') return;
    cell.status = 'stopped';
    this.cells.delete(cell.address);
    this.timers.cancelPrefix(`${cell.address}#`);
    this.statsFor(cell.kind).stopped++;
    try {
      await cell.behaviour.stopped?.(cell.state, cell.ctx);
    } catch (err) {
      this.log.warn({ actor: cell.address, err: describeError(err) }, 'stop hook failed');
    }
    // messages that arrived after the stop request go to a fresh incarnation
    const rest = cell.mailbox.drain();
    if (!shuttingDown && rest.length && !this.closed) {
      for (const env of rest) this.dispatch(cell.address, env.msg, env.reply);
    }
    this.wake(cell);
    this.checkIdle();
  }

  private makeContext(cell: ActorCell): ActorContext {
    return new CellContext(this, cell);
  }

  /** @internal timers of an actor, delivered as messages to self while it lives */
  scheduleFor(cell: ActorCell, delayMs: number, msg: Message, id: string): void {
    this.timers.schedule(`${cell.address}#t:${id}`, delayMs, () => {
      if (this.cells.get(cell.address) === cell && !this.closed) this.send(cell.address, msg);
    });
  }

  /** Release senders blocked by `offer` on a full mailbox. */
  private wake(cell: ActorCell): void {
    const list = this.waiters.get(cell.address);
    if (!list || cell.mailbox.full) return;
    this.waiters.delete(cell.address);
    for (const w of list) w();
  }

  private supervisionOf(cell: ActorCell): SupervisionOptions {
    return cell.behaviour.supervision ? { ...this.supervision, ...cell.behaviour.supervision } : this.supervision;
  }

  private statsFor(kind: string): KindStats {
    let s = this.stats.get(kind);
    if (!s) this.stats.set(kind, (s = new KindStats()));
    return s;
  }

  private isIdle(): boolean {
    if (this.inFlight > 0 || this.ready.length > 0 || this.draining) return false;
    for (const c of this.cells.values()) {
      if (c.status === 'busy' || c.status === 'starting') return false;
      if (c.mailbox.length > 0 && c.status !== 'backoff') return false;
    }
    return true;
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const list = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of list) w();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
