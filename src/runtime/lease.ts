import { monotonicClock, type Clock } from './clock.js';
import { describeError } from './errors.js';
import type { FenceToken } from './fence.js';
import { silentLogger, type Logger } from './log.js';

/**
 * Leases: a key (one shard) is held by at most one holder at any instant, even when nodes
 * cannot reach each other or the bus.
 *
 * The store (a JetStream KV bucket in server mode, `lease-kv.ts`) deletes a key TTL after its
 * last write, by its own clock. A key is written only by `create`, which succeeds only while the
 * key is absent, and by `renew`, a compare-and-set on the revision the writer itself got; `read`
 * revisions are never used to overwrite someone else's lease. So once holder H's write lands at
 * time w, nobody else can write the key before w + TTL unless H deletes it.
 *
 * H measures time on its own monotonic clock. It notes s = now() *before* sending a write; the
 * store applies the write at w >= s. On success H holds the key until s + TTL x safety
 * (safety = 1/2): H's deadline s + TTL/2 comes before w + TTL, the earliest moment anyone else
 * can write, by a margin of at least TTL/2, which absorbs clock-rate differences between H and
 * the store (NTP keeps them far below 0.1 %) and lets H never need to *notice* a failure: a node
 * cut off from NATS (even silently, with no disconnect event) holds nothing TTL/2 after its last
 * confirmed write, while the others wait TTL. `holds()` reads the clock on every call rather
 * than trusting a timer that a busy event loop may fire late.
 *
 * Assumptions, stated: the store's clock is not stepped forward by TTL/2 or more; an action that
 * began while the lease was held (a fetch in flight) may finish after it lapsed, so such actions
 * must be idempotent downstream (ours are), and `fence()` is a fencing token for writes that
 * must be refused from a former holder (fence.ts).
 *
 * The store's expiry is not trusted alone: a server that stops applying its max age (seen on
 * nats-server 2.9.10: a dead node's keys stayed for 6+ minutes) would keep a dead holder's shards
 * from everyone. So with `holderLive` (membership), a wanted key whose holder is not a live member
 * and whose revision stays the same for a whole TTL on our clock is *taken over*: a
 * compare-and-set on that revision. Safe by the argument above: the holder's last write landed
 * before our first read of that revision, so its deadline (TTL/2 after it sent that write) passed
 * at least TTL/2 before the take-over; and a holder that is in fact alive and renewing changes
 * the revision, which starts the wait again.
 */
export interface LeaseStore {
  /** the TTL the store enforces (ms) */
  readonly ttlMs: number;
  /** names the store in fencing tokens (the bucket) */
  readonly name: string;
  /** the store's creation instant (ms): revisions of a store made anew count after the old one's */
  readonly generation: number;
  /** take an absent key; its revision, or null when someone holds it */
  create(key: string, holder: string): Promise<number | null>;
  /** extend a key we hold at `revision`; the new revision, or null when it is no longer ours */
  renew(key: string, holder: string, revision: number): Promise<number | null>;
  /** write over a key still at `revision` (someone else's, gone); the new revision, or null when it moved on */
  takeOver(key: string, holder: string, revision: number): Promise<number | null>;
  /** give a key up (only if still at `revision`) */
  release(key: string, revision: number): Promise<void>;
  read(key: string): Promise<{ holder: string; revision: number } | null>;
}

export type LeaseEvent =
  | { type: 'acquired'; key: string; revision: number }
  | { type: 'lost'; key: string; reason: 'expired' | 'taken' }
  | { type: 'released'; key: string };

export interface LeaseKeeperOptions {
  /** who holds: node id plus an incarnation, so a restarted process never inherits a lease */
  holder: string;
  clock?: Clock;
  /** how often held keys are renewed and wanted ones retried (default TTL/6: two misses tolerated) */
  renewEveryMs?: number;
  /** fraction of the TTL a confirmed write lets us hold (default 0.5; must stay well below 1) */
  safety?: number;
  /**
   * whether a holder (as written in the store) is a live member; with it, the key of a holder
   * that is not, unchanged for a TTL, is taken over (see above); without it only expiry frees keys
   */
  holderLive?: (holder: string) => boolean;
  log?: Logger;
}

interface Slot {
  key: string;
  wanted: boolean;
  /** the revision we last wrote, or null */
  revision: number | null;
  /** holds until this monotonic instant */
  deadline: number;
  /** what we last reported (acquired/lost) */
  held: boolean;
  /** an operation's outcome is unknown (timed out): the next failure reads the key */
  uncertain: boolean;
  /** the revision of the write that acquired the key (the fencing token), while held */
  acquired: number | null;
  /** someone else's revision seen unchanged, with its holder not live, since this instant */
  stale: { revision: number; holder: string; since: number } | null;
  op: Promise<void>;
  timer: unknown;
}

/** Keeps the leases a node wants: acquires, renews, notices loss, releases. */
export class LeaseKeeper {
  readonly holder: string;
  readonly ttlMs: number;
  private readonly clock: Clock;
  private readonly renewEveryMs: number;
  private readonly holdMs: number;
  private readonly log: Logger;
  private readonly holderLive: ((holder: string) => boolean) | null;
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Set<(e: LeaseEvent) => void>();
  private tickTimer: unknown = null;
  private running = false;
  private ticking = false;

  constructor(
    private readonly store: LeaseStore,
    opts: LeaseKeeperOptions,
  ) {
    const safety = opts.safety ?? 0.5;
    if (!(safety > 0 && safety <= 0.75)) throw new RangeError('lease safety must be in (0, 0.75]');
    this.holder = opts.holder;
    this.ttlMs = store.ttlMs;
    this.clock = opts.clock ?? monotonicClock;
    this.holdMs = store.ttlMs * safety;
    this.renewEveryMs = opts.renewEveryMs ?? Math.max(10, Math.floor(store.ttlMs / 6));
    if (this.renewEveryMs >= this.holdMs) throw new RangeError('renew interval must be shorter than the hold time');
    this.log = opts.log ?? silentLogger;
    this.holderLive = opts.holderLive ?? null;
  }

  /** true while the key is ours: a confirmed write less than TTL x safety ago */
  holds(key: string): boolean {
    const s = this.slots.get(key);
    return s !== undefined && s.held && s.revision !== null && this.clock.now() < s.deadline;
  }

  /** the revision of our last write, or null when not held */
  revision(key: string): number | null {
    return this.holds(key) ? this.slots.get(key)!.revision : null;
  }

  /** the fencing token of our acquisition of `key` (fence.ts), or null when not held */
  fence(key: string): FenceToken | null {
    const s = this.slots.get(key);
    if (!s || !this.holds(key) || s.acquired === null) return null;
    return { key: `${this.store.name}/${key}`, gen: this.store.generation, rev: s.acquired };
  }

  /** keys held now */
  held(): string[] {
    return [...this.slots.keys()].filter((k) => this.holds(k));
  }

  on(fn: (e: LeaseEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** keep trying to hold `key` (at once, then every renew interval) */
  want(key: string): void {
    let s = this.slots.get(key);
    if (!s) {
      s = { key, wanted: true, revision: null, deadline: 0, held: false, uncertain: false, acquired: null, stale: null, op: Promise.resolve(), timer: null };
      this.slots.set(key, s);
    } else if (s.wanted) return;
    s.wanted = true;
    if (this.running) this.attempt(s);
  }

  /** stop wanting `key`; if held, it is released (reported at once, deleted in the store) */
  unwant(key: string): Promise<void> {
    const s = this.slots.get(key);
    if (!s) return Promise.resolve();
    s.wanted = false;
    if (s.held) this.drop(s, { type: 'released', key });
    s.op = s.op.then(() => this.releaseInStore(s));
    return s.op;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const s of this.slots.values()) if (s.wanted) this.attempt(s);
    this.armTick();
  }

  /** release everything (graceful stop: successors take over without waiting for expiry) */
  async stop(): Promise<void> {
    this.running = false;
    if (this.tickTimer !== null) this.clock.clearTimeout(this.tickTimer);
    this.tickTimer = null;
    await Promise.all([...this.slots.keys()].map((k) => this.unwant(k)));
  }

  /** one round: renew held keys, retry wanted ones (the timer calls it; tests may too) */
  async tick(): Promise<void> {
    await Promise.all([...this.slots.values()].filter((s) => s.wanted).map((s) => this.attempt(s)));
  }

  private armTick(): void {
    this.tickTimer = this.clock.setTimeout(() => {
      if (!this.running) return;
      if (!this.ticking) {
        this.ticking = true;
        void this.tick().finally(() => (this.ticking = false));
      }
      this.armTick();
    }, this.renewEveryMs);
  }

  /** one store operation per key at a time */
  private attempt(s: Slot): Promise<void> {
    s.op = s.op.then(() => (s.wanted ? this.once(s) : undefined));
    return s.op;
  }

  private async once(s: Slot): Promise<void> {
    const sentAt = this.clock.now();
    let rev: number | null;
    try {
      rev = s.revision !== null ? await this.store.renew(s.key, this.holder, s.revision) : await this.store.create(s.key, this.holder);
    } catch (err) {
      // the write may or may not have landed; the deadline we have stays, and lapses if this goes on
      s.uncertain = true;
      this.log.debug({ key: s.key, err: describeError(err) }, 'lease write failed');
      return;
    }
    if (rev !== null) {
      s.uncertain = false;
      s.stale = null;
      s.revision = rev;
      if (!s.wanted) return this.releaseInStore(s);
      this.extend(s, sentAt);
      return;
    }
    // refused: someone else holds it, or an earlier write of ours landed though its answer was lost
    let cur: { holder: string; revision: number } | null = null;
    if (s.uncertain || s.revision !== null || this.holderLive) {
      try {
        cur = await this.store.read(s.key);
      } catch {
        return;
      }
    }
    s.uncertain = false;
    if (cur && cur.holder === this.holder) {
      s.revision = cur.revision; // ours; the next renewal confirms it and only then extends
      return;
    }
    s.revision = null;
    if (s.held) this.drop(s, { type: 'lost', key: s.key, reason: 'taken' });
    if (cur) await this.takeOverIfGone(s, cur);
  }

  /** someone else's key: taken over once its holder has been gone, and the key unchanged, for a TTL */
  private async takeOverIfGone(s: Slot, cur: { holder: string; revision: number }): Promise<void> {
    if (!this.holderLive || this.holderLive(cur.holder)) {
      s.stale = null;
      return;
    }
    const now = this.clock.now();
    if (!s.stale || s.stale.revision !== cur.revision) {
      s.stale = { revision: cur.revision, holder: cur.holder, since: now };
      return;
    }
    const since = s.stale.since;
    if (now - since < this.ttlMs || !s.wanted) return;
    let rev: number | null;
    try {
      rev = await this.store.takeOver(s.key, this.holder, cur.revision);
    } catch (err) {
      s.uncertain = true;
      this.log.debug({ key: s.key, err: describeError(err) }, 'lease take-over write failed');
      return;
    }
    s.stale = null;
    if (rev === null) return; // someone wrote it meanwhile
    this.log.warn({ key: s.key, holder: cur.holder, revision: cur.revision, unchanged_ms: Math.round(now - since) }, 'lease taken over: its holder left the cluster and the store kept its key past the TTL');
    s.revision = rev;
    if (!s.wanted) return this.releaseInStore(s);
    this.extend(s, now);
  }

  private extend(s: Slot, sentAt: number): void {
    const deadline = sentAt + this.holdMs;
    if (deadline <= this.clock.now()) return; // confirmed too late to count
    s.deadline = Math.max(s.deadline, deadline);
    if (s.timer !== null) this.clock.clearTimeout(s.timer);
    s.timer = this.clock.setTimeout(() => this.checkExpiry(s), s.deadline - this.clock.now());
    if (!s.held) {
      s.held = true;
      s.acquired = s.revision;
      this.emit({ type: 'acquired', key: s.key, revision: s.revision! });
    }
  }

  private checkExpiry(s: Slot): void {
    s.timer = null;
    if (!s.held) return;
    const left = s.deadline - this.clock.now();
    if (left > 0) {
      s.timer = this.clock.setTimeout(() => this.checkExpiry(s), left);
      return;
    }
    this.log.warn({ key: s.key }, 'lease lapsed: no confirmed renewal in time');
    this.drop(s, { type: 'lost', key: s.key, reason: 'expired' });
  }

  private drop(s: Slot, e: LeaseEvent): void {
    s.held = false;
    s.acquired = null;
    s.deadline = 0;
    if (s.timer !== null) this.clock.clearTimeout(s.timer);
    s.timer = null;
    this.emit(e);
  }

  private async releaseInStore(s: Slot): Promise<void> {
    if (s.wanted || s.revision === null) return;
    const rev = s.revision;
    s.revision = null;
    try {
      await this.store.release(s.key, rev);
    } catch (err) {
      this.log.debug({ key: s.key, err: describeError(err) }, 'lease release failed; it expires instead');
    }
    if (!s.wanted && !s.held) this.slots.delete(s.key);
  }

  private emit(e: LeaseEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'lease listener failed');
      }
    }
  }
}
