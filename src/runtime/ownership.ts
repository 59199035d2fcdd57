import { backoffDelay } from './backoff.js';
import { realClock, type Clock } from './clock.js';
import { describeError } from './errors.js';
import type { FenceToken, ShardFences } from './fence.js';
import type { LeaseEvent, LeaseKeeper } from './lease.js';
import { silentLogger, type Logger } from './log.js';
import type { MemberEvent } from './membership.js';
import { assignShards, shardOfKey } from './rendezvous.js';

/**
 * Shard ownership: each kind of sharded state (publisher shards, dedup shards, story shards ...)
 * is split into a fixed number of shards; rendezvous hashing over the live members names the
 * node each shard *should* live on, and a lease per shard decides who *does* own it, so a shard
 * is never owned twice, even while members disagree or a node is cut off (see `lease.ts`).
 *
 * The owner is told through a ShardHost: `acquired` (start the shard's actors and rebuild its
 * state from the store; ownership is `ready` when it resolves) and `released` (stop them; on a
 * planned move the lease is given up only after it resolves, so the successor rebuilds from a
 * store that has everything the old owner accepted).
 */

/** What ownership needs from membership (Membership satisfies it; `soleMember` is a one-node view). */
export interface MemberView {
  readonly self: string;
  members(): readonly string[];
  /** the live nodes that take shards of `kind` (by their roles) */
  membersFor(kind: string): readonly string[];
  on(fn: (e: MemberEvent, live: readonly string[]) => void): () => void;
}

/** A fixed membership of one node (embedded mode, tests). */
export function soleMember(self: string): MemberView {
  return { self, members: () => [self], membersFor: () => [self], on: () => () => undefined };
}

export interface ShardKindSpec {
  /** number of shards; changing it on a running cluster moves every entity */
  shards: number;
}

export type ReleaseReason = 'moved' | 'lost' | 'stopping';

/** The owner's side: implemented by the roles (start actors, rebuild state, stop them). */
export interface ShardHost {
  acquired(kind: string, shard: number): void | Promise<void>;
  released(kind: string, shard: number, reason: ReleaseReason): void | Promise<void>;
}

export type OwnershipEvent =
  | { type: 'acquired'; kind: string; shard: number }
  | { type: 'ready'; kind: string; shard: number }
  | { type: 'released'; kind: string; shard: number; reason: ReleaseReason }
  /** the node a shard is placed on changed (a member joined or left); `node` null = none left */
  | { type: 'placed'; kind: string; shard: number; node: string | null };

export interface ShardOwnershipOptions {
  members: MemberView;
  leases: LeaseKeeper;
  kinds: Readonly<Record<string, ShardKindSpec>>;
  host?: ShardHost;
  clock?: Clock;
  log?: Logger;
  /** wait this long after start before taking shards, so the node has heard the cluster */
  settleMs?: number;
  /** longest wait for `host.released` on a planned move before the lease is given up anyway */
  releaseTimeoutMs?: number;
  /** raised to the lease's fencing token on every acquisition, before `host.acquired` (fence.ts) */
  fences?: ShardFences;
}

interface ShardState {
  kind: string;
  shard: number;
  ready: boolean;
  /** host calls for this shard run one after another */
  chain: Promise<void>;
  readyWaiters: ((ok: boolean) => void)[];
  moving: boolean;
}

export class ShardOwnership {
  readonly nodeId: string;
  private readonly members: MemberView;
  private readonly leases: LeaseKeeper;
  private readonly kinds: Readonly<Record<string, ShardKindSpec>>;
  private readonly host: ShardHost | null;
  private readonly hosts = new Map<string, ShardHost>();
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly settleMs: number;
  private readonly releaseTimeoutMs: number;
  private readonly fences: ShardFences | null;
  private desired = new Map<string, (string | null)[]>();
  private readonly states = new Map<string, ShardState>();
  private readonly listeners = new Set<(e: OwnershipEvent) => void>();
  private offs: (() => void)[] = [];
  private settled = false;
  private running = false;

  constructor(opts: ShardOwnershipOptions) {
    this.members = opts.members;
    this.nodeId = opts.members.self;
    this.leases = opts.leases;
    this.kinds = opts.kinds;
    this.host = opts.host ?? null;
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? silentLogger;
    this.settleMs = opts.settleMs ?? 1500;
    this.releaseTimeoutMs = opts.releaseTimeoutMs ?? Math.floor(opts.leases.ttlMs / 2);
    this.fences = opts.fences ?? null;
    for (const [kind, spec] of Object.entries(this.kinds)) {
      if (!Number.isInteger(spec.shards) || spec.shards < 1) throw new RangeError(`shard count of ${kind} must be a positive integer`);
      if (!/^[A-Za-z0-9_-]+$/.test(kind)) throw new RangeError(`bad shard kind: ${kind}`);
    }
    this.recompute();
  }

  /** the shard an entity key (a publisher id ...) falls in */
  shardOf(kind: string, key: string): number {
    return shardOfKey(key, this.spec(kind).shards);
  }

  /** the node a shard should live on now (where messages for it are routed); null with no members */
  owner(kind: string, shard: number): string | null {
    return this.desired.get(kind)?.[shard] ?? null;
  }

  ownerOfKey(kind: string, key: string): string | null {
    return this.owner(kind, this.shardOf(kind, key));
  }

  /** "do I own shard X": this node holds its lease at this instant */
  owns(kind: string, shard: number): boolean {
    return this.leases.holds(leaseKey(kind, shard));
  }

  ownsKey(kind: string, key: string): boolean {
    return this.owns(kind, this.shardOf(kind, key));
  }

  /** the fencing token of this node's ownership of the shard (null when not owned) */
  fence(kind: string, shard: number): FenceToken | null {
    return this.leases.fence(leaseKey(kind, shard));
  }

  /** owned and the host has finished `acquired` (state rebuilt), and not being handed over */
  ready(kind: string, shard: number): boolean {
    const st = this.states.get(leaseKey(kind, shard));
    return st !== undefined && st.ready && this.owns(kind, shard);
  }

  /** resolves true once ready, false after `timeoutMs` (or when the shard goes elsewhere) */
  whenReady(kind: string, shard: number, timeoutMs: number): Promise<boolean> {
    if (this.ready(kind, shard)) return Promise.resolve(true);
    if (this.owner(kind, shard) !== this.nodeId) return Promise.resolve(false);
    const st = this.state(kind, shard);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        this.clock.clearTimeout(timer);
        resolve(ok);
      };
      const timer = this.clock.setTimeout(() => {
        st.readyWaiters = st.readyWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      st.readyWaiters.push(done);
    });
  }

  /** shards of `kind` this node owns now */
  owned(kind: string): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.spec(kind).shards; s++) if (this.owns(kind, s)) out.push(s);
    return out;
  }

  count(kind: string): number {
    return this.kinds[kind] ? this.owned(kind).length : 0;
  }

  kindNames(): string[] {
    return Object.keys(this.kinds);
  }

  /** the host of one kind (each role attaches its own before `start`); overrides the `host` option */
  attach(kind: string, host: ShardHost): this {
    this.spec(kind);
    this.hosts.set(kind, host);
    return this;
  }

  private hostOf(kind: string): ShardHost | null {
    return this.hosts.get(kind) ?? this.host;
  }

  on(fn: (e: OwnershipEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.offs.push(this.members.on(() => this.recompute()));
    this.offs.push(this.leases.on((e) => this.leaseEvent(e)));
    this.leases.start();
    this.recompute();
    this.clock.setTimeout(() => {
      if (!this.running) return;
      this.settled = true;
      this.reconcile();
    }, this.settleMs);
  }

  /** release every shard (host first, then the lease, so successors take over at once) */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const off of this.offs.splice(0)) off();
    const held = [...this.states.values()].filter((st) => this.owns(st.kind, st.shard));
    await Promise.all(held.map((st) => this.release(st, 'stopping')));
    await this.leases.stop();
    for (const st of this.states.values()) this.wake(st, false);
  }

  private spec(kind: string): ShardKindSpec {
    const s = this.kinds[kind];
    if (!s) throw new RangeError(`unknown shard kind: ${kind}`);
    return s;
  }

  private state(kind: string, shard: number): ShardState {
    const key = leaseKey(kind, shard);
    let st = this.states.get(key);
    if (!st) this.states.set(key, (st = { kind, shard, ready: false, chain: Promise.resolve(), readyWaiters: [], moving: false }));
    return st;
  }

  private recompute(): void {
    const next = new Map<string, (string | null)[]>();
    for (const [kind, spec] of Object.entries(this.kinds)) next.set(kind, assignShards(kind, spec.shards, this.members.membersFor(kind)));
    const before = this.desired;
    this.desired = next;
    if (this.running && this.settled) this.reconcile();
    for (const [kind, owners] of next) {
      const was = before.get(kind);
      if (!was) continue;
      owners.forEach((node, shard) => {
        if (was[shard] !== node) this.emit({ type: 'placed', kind, shard, node });
      });
    }
  }

  /** want the shards placed here, hand over the ones placed elsewhere */
  private reconcile(): void {
    for (const [kind, owners] of this.desired) {
      owners.forEach((owner, shard) => {
        const key = leaseKey(kind, shard);
        if (owner === this.nodeId) {
          this.leases.want(key);
          return;
        }
        const st = this.states.get(key);
        if (this.owns(kind, shard) && st && !st.moving) void this.release(st, 'moved');
        else if (!st?.moving) void this.leases.unwant(key);
        if (st) this.wake(st, false);
      });
    }
  }

  private leaseEvent(e: LeaseEvent): void {
    const [kind, shardText] = splitLeaseKey(e.key);
    if (!this.kinds[kind]) return;
    const st = this.state(kind, Number(shardText));
    if (e.type === 'acquired') {
      this.log.info({ kind, shard: st.shard }, 'shard acquired');
      this.emit({ type: 'acquired', kind, shard: st.shard });
      const acquiredAt = this.clock.now();
      this.run(st, async () => {
        // a rebuild that fails (store away) is retried while the shard is still ours
        for (let attempt = 1; ; attempt++) {
          try {
            // the fence first: what a former owner decided is refused from now on, or already stored for the rebuild to read
            const token = this.leases.fence(e.key);
            if (this.fences) {
              if (!token) return; // lost again meanwhile (reported by its own event)
              await this.fences.raise(token);
            }
            await this.hostOf(kind)?.acquired(kind, st.shard);
            break;
          } catch (err) {
            if (!this.owns(kind, st.shard) || st.moving || !this.running) throw err;
            const delay = backoffDelay(attempt, { minMs: 200, maxMs: 5000 });
            this.log.warn({ kind, shard: st.shard, attempt, err: describeError(err), retry_ms: delay }, 'shard rebuild failed; retrying');
            await new Promise<void>((r) => this.clock.setTimeout(r, delay));
          }
        }
        if (!this.owns(kind, st.shard) || st.moving) return;
        st.ready = true;
        this.log.info({ kind, shard: st.shard, rebuild_ms: Math.round(this.clock.now() - acquiredAt) }, 'shard ready');
        this.emit({ type: 'ready', kind, shard: st.shard });
        this.wake(st, true);
      });
    } else if (e.type === 'lost') {
      this.log.warn({ kind, shard: st.shard, reason: e.reason }, 'shard lease lost');
      st.ready = false;
      this.emit({ type: 'released', kind, shard: st.shard, reason: 'lost' });
      this.run(st, async () => this.hostOf(kind)?.released(kind, st.shard, 'lost'));
      this.wake(st, false);
    }
  }

  /** stop the shard here, then give its lease up */
  private async release(st: ShardState, reason: ReleaseReason): Promise<void> {
    st.moving = true;
    st.ready = false;
    this.emit({ type: 'released', kind: st.kind, shard: st.shard, reason });
    const stopped = this.run(st, async () => this.hostOf(st.kind)?.released(st.kind, st.shard, reason));
    let timer: unknown;
    await Promise.race([stopped, new Promise<void>((r) => (timer = this.clock.setTimeout(r, this.releaseTimeoutMs)))]);
    this.clock.clearTimeout(timer);
    await this.leases.unwant(leaseKey(st.kind, st.shard));
    st.moving = false;
    this.log.info({ kind: st.kind, shard: st.shard, reason }, 'shard released');
    // the placement may have come back here meanwhile
    if (this.running && this.settled && this.owner(st.kind, st.shard) === this.nodeId) this.leases.want(leaseKey(st.kind, st.shard));
  }

  private run(st: ShardState, fn: () => Promise<unknown>): Promise<void> {
    st.chain = st.chain.then(fn).then(
      () => undefined,
      (err: unknown) => this.log.error({ kind: st.kind, shard: st.shard, err: describeError(err) }, 'shard host failed'),
    );
    return st.chain;
  }

  private wake(st: ShardState, ok: boolean): void {
    for (const w of st.readyWaiters.splice(0)) w(ok);
  }

  private emit(e: OwnershipEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'ownership listener failed');
      }
    }
  }
}

/** `<kind>.<shard>`: the lease key of a shard (a KV key; `.` separates tokens) */
export function leaseKey(kind: string, shard: number): string {
  return `${kind}.${shard}`;
}

function splitLeaseKey(key: string): [string, string] {
  const i = key.lastIndexOf('.');
  return [key.slice(0, i), key.slice(i + 1)];
}
