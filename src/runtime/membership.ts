import { realClock, type Clock } from './clock.js';
import { describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import type { Transport } from './transport.js';

/**
 * Who is alive, from heartbeats. Every node publishes a heartbeat on one topic every interval
 * and forgets a node it has not heard for `expireAfterMs`. A node that joins says hello and the
 * others answer at once, so a newcomer knows the cluster within a round trip instead of an
 * interval; a node that stops says goodbye, so its shards move without waiting for expiry.
 *
 * Membership is only a view: two nodes may briefly disagree (a heartbeat in flight, a partition).
 * Nothing that must never happen twice may rest on it alone; shard ownership adds leases.
 */

export type MemberEvent =
  | { type: 'join'; node: string }
  | { type: 'leave'; node: string; reason: 'expired' | 'left' };

/** The heartbeat on the wire. */
export interface Heartbeat {
  node: string;
  /** random per process: a restarted node with the same id is a new incarnation */
  incarnation: string;
  /** a joining node asks everyone to answer at once */
  hello?: boolean;
  /** the node is stopping */
  leaving?: boolean;
  /** the shard kinds this node takes (by its roles); absent = every kind */
  kinds?: string[];
}

/** The pure part: who was heard when, and who has expired. Times come from the caller's clock. */
export class MemberTable {
  private readonly heardAt = new Map<string, { at: number; incarnation: string; kinds: readonly string[] | null }>();

  /** `selfKinds`: the shard kinds this node takes; null = every kind */
  constructor(
    readonly self: string,
    private readonly expireAfterMs: number,
    private readonly selfKinds: readonly string[] | null = null,
  ) {}

  /** a heartbeat arrived; a new node (or a new incarnation of one) joins. `kinds` null = every kind */
  heard(node: string, incarnation: string, now: number, kinds: readonly string[] | null = null): MemberEvent[] {
    if (node === this.self) return [];
    const prev = this.heardAt.get(node);
    this.heardAt.set(node, { at: now, incarnation, kinds });
    if (!prev) return [{ type: 'join', node }];
    if (prev.incarnation !== incarnation) return [{ type: 'leave', node, reason: 'expired' }, { type: 'join', node }];
    return [];
  }

  /** a goodbye; one from an earlier incarnation (arriving late) is ignored */
  left(node: string, incarnation: string): MemberEvent[] {
    if (this.heardAt.get(node)?.incarnation !== incarnation) return [];
    this.heardAt.delete(node);
    return [{ type: 'leave', node, reason: 'left' }];
  }

  /** forget nodes silent for longer than the expiry */
  expire(now: number): MemberEvent[] {
    const out: MemberEvent[] = [];
    for (const [node, h] of this.heardAt) {
      if (now - h.at > this.expireAfterMs) {
        this.heardAt.delete(node);
        out.push({ type: 'leave', node, reason: 'expired' });
      }
    }
    return out;
  }

  /** live nodes, this one included, sorted */
  live(): string[] {
    return [this.self, ...this.heardAt.keys()].sort();
  }

  /** live nodes that take shards of `kind`, sorted */
  liveFor(kind: string): string[] {
    const out: string[] = [];
    if (this.selfKinds === null || this.selfKinds.includes(kind)) out.push(this.self);
    for (const [node, h] of this.heardAt) if (h.kinds === null || h.kinds.includes(kind)) out.push(node);
    return out.sort();
  }

  has(node: string): boolean {
    return node === this.self || this.heardAt.has(node);
  }

  /** the incarnation last heard from `node` (undefined for this node and unknown ones) */
  incarnationOf(node: string): string | undefined {
    return this.heardAt.get(node)?.incarnation;
  }
}

export interface MembershipOptions {
  /** heartbeat period */
  intervalMs?: number;
  /** a node unheard this long is gone (default 3.5 intervals: two lost heartbeats are tolerated) */
  expireAfterMs?: number;
  /** the topic heartbeats travel on */
  topic?: string;
  /** the shard kinds this node takes (from its roles); absent = every kind */
  kinds?: readonly string[];
  clock?: Clock;
  log?: Logger;
  incarnation?: string;
}

/** Heartbeat membership over any Transport (NATS, or the in-process bus for tests). */
export class Membership {
  readonly self: string;
  readonly incarnation: string;
  readonly intervalMs: number;
  readonly expireAfterMs: number;
  private readonly table: MemberTable;
  private readonly topic: string;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly listeners = new Set<(e: MemberEvent, live: readonly string[]) => void>();
  private unsubscribe: (() => void) | null = null;
  private timer: unknown = null;
  private running = false;
  private liveCache: string[];
  private readonly kinds: string[] | null;

  constructor(
    private readonly transport: Transport,
    opts: MembershipOptions = {},
  ) {
    this.self = transport.nodeId;
    this.intervalMs = opts.intervalMs ?? 1000;
    this.expireAfterMs = opts.expireAfterMs ?? Math.round(this.intervalMs * 3.5);
    this.topic = opts.topic ?? 'members';
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? silentLogger;
    this.incarnation = opts.incarnation ?? Math.random().toString(36).slice(2, 10);
    this.kinds = opts.kinds ? [...opts.kinds] : null;
    this.table = new MemberTable(this.self, this.expireAfterMs, this.kinds);
    this.liveCache = this.table.live();
  }

  /** live node ids, this one included, sorted (the same list on every node that agrees) */
  members(): readonly string[] {
    return this.liveCache;
  }

  /** live nodes that take shards of `kind` (by their roles), this one included if it does */
  membersFor(kind: string): readonly string[] {
    return this.table.liveFor(kind);
  }

  isLive(node: string): boolean {
    return this.table.has(node);
  }

  /** whether this process of `node` (its incarnation) is live: a restarted node is a new one */
  isLiveIncarnation(node: string, incarnation: string): boolean {
    return node === this.self ? incarnation === this.incarnation : this.table.incarnationOf(node) === incarnation;
  }

  /** listen to joins and leaves; `live` is the member list after the event */
  on(fn: (e: MemberEvent, live: readonly string[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.transport.subscribe(this.topic, (d) => this.received(d));
    this.beat(true);
    this.arm();
  }

  /** say goodbye and stop; others drop this node at once */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    try {
      this.transport.publish(this.topic, { node: this.self, incarnation: this.incarnation, leaving: true } satisfies Heartbeat);
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'goodbye heartbeat not sent');
    }
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private arm(): void {
    this.timer = this.clock.setTimeout(() => {
      if (!this.running) return;
      this.beat(false);
      this.apply(this.table.expire(this.clock.now()));
      this.arm();
    }, this.intervalMs);
  }

  private beat(hello: boolean): void {
    try {
      const hb: Heartbeat = { node: this.self, incarnation: this.incarnation, ...(hello ? { hello: true } : {}), ...(this.kinds ? { kinds: this.kinds } : {}) };
      this.transport.publish(this.topic, hb);
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'heartbeat not sent');
    }
  }

  private received(d: unknown): void {
    if (!this.running) return;
    const hb = d as Heartbeat;
    if (!hb || typeof hb.node !== 'string' || typeof hb.incarnation !== 'string') return;
    if (hb.node === this.self) {
      if (hb.incarnation !== this.incarnation && !hb.leaving) {
        this.log.error({ node: this.self }, 'another process uses this node id; give every node its own --node-id');
      }
      return;
    }
    if (hb.leaving) return this.apply(this.table.left(hb.node, hb.incarnation));
    const kinds = Array.isArray(hb.kinds) ? hb.kinds.filter((k): k is string => typeof k === 'string') : null;
    this.apply(this.table.heard(hb.node, hb.incarnation, this.clock.now(), kinds));
    if (hb.hello) this.beat(false);
  }

  private apply(events: MemberEvent[]): void {
    if (events.length === 0) return;
    this.liveCache = this.table.live();
    for (const e of events) {
      this.log.info({ node: e.node, event: e.type, ...(e.type === 'leave' ? { reason: e.reason } : {}), members: this.liveCache.length }, 'membership changed');
      for (const fn of this.listeners) {
        try {
          fn(e, this.liveCache);
        } catch (err) {
          this.log.warn({ err: describeError(err) }, 'membership listener failed');
        }
      }
    }
  }
}
