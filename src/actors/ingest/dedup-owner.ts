import type { DedupDecision, DedupInput } from '../dedup/coordinator.js';
import type { Address, Message } from '../../runtime/actor.js';
import type { ReplyFn } from '../../runtime/envelope.js';
import { ActorUnavailableError, describeError } from '../../runtime/errors.js';
import type { ShardHost } from '../../runtime/ownership.js';
import type { Route } from '../../runtime/system.js';
import { databaseNow } from '../store/stories.js';
import { CATCH_UP_AFTER_MS, catchUpDelay, storedSince } from './decision-time.js';
import { openLocalDedup, type LocalDedup, type LocalDedupOptions } from './dedup-local.js';
import { SqlFingerprints } from './fingerprints-sql.js';

/** What process nodes ask the node owning the dedup shard (`dedup-owner/0`). */
export type DedupOwnerMsg = { type: 'submit'; batch: DedupInput[] };

/** Handles left unused by a new owner, above the stored ones (see `LocalDedupOptions.handleGap`). */
const HANDLE_GAP = 1 << 17;

/**
 * The dedup coordinator and its shard worker as one cluster shard: opened (rebuilt from the
 * stored fingerprints) when this node acquires it, closed when the node lets it go. It is the
 * local route of `dedup-owner/0`: submissions are handed to the coordinator in arrival order,
 * so every shard sees one global order whichever node the batch came from. After the rebuild it
 * reads the store again a few times (decision-time.ts): batches the previous owner decided may
 * be stored after the rebuild read, and their fingerprints are added when they are.
 */
export class DedupOwner implements ShardHost, Route {
  private current: Promise<LocalDedup> | null = null;
  private expiry: NodeJS.Timeout | null = null;
  private catchUpTimer: NodeJS.Timeout | null = null;
  private readonly fingerprints: SqlFingerprints;
  private readonly catchUpAfterMs: readonly number[];

  constructor(private readonly o: Omit<LocalDedupOptions, 'handleGap'> & { expireEveryMs: number; catchUpAfterMs?: readonly number[] }) {
    this.fingerprints = new SqlFingerprints(o.sql);
    this.catchUpAfterMs = o.catchUpAfterMs ?? CATCH_UP_AFTER_MS;
  }

  async acquired(): Promise<void> {
    // the database's clock before the rebuild's read: what the first catch-up pass looks back to
    const clock = await databaseNow(this.o.sql);
    const opening = openLocalDedup({ ...this.o, handleGap: HANDLE_GAP });
    this.current = opening;
    try {
      await opening;
    } catch (err) {
      if (this.current === opening) this.current = null;
      throw err;
    }
    this.expiry = setInterval(() => {
      void this.current
        ?.then((d) => d.coordinator.expire(this.o.now()))
        .catch((err: unknown) => this.o.log.warn({ err: describeError(err) }, 'dedup expiry failed'));
    }, this.o.expireEveryMs);
    this.expiry.unref();
    this.catchUp(opening, storedSince(clock), 0);
  }

  /** Pass `pass` of the catch-up, reading fingerprints stored since `from` (the database's clock). */
  private catchUp(of: Promise<LocalDedup>, from: number, pass: number): void {
    const delay = catchUpDelay(this.catchUpAfterMs, pass);
    if (delay === undefined) return;
    this.catchUpTimer = setTimeout(() => {
      void (async () => {
        if (this.current !== of) return;
        const dedup = await of;
        const clock = await databaseNow(this.o.sql);
        const records = await this.fingerprints.loadStoredSince(this.o.now() - this.o.windowMs, from);
        // let go meanwhile: the next owner rebuilds
        if (this.current !== of) return;
        const added = await dedup.add(records);
        if (added > 0) this.o.log.info({ added, pass }, 'dedup shard caught up with fingerprints stored after its rebuild');
        this.catchUp(of, storedSince(clock), pass + 1);
      })().catch((err: unknown) => {
        this.o.log.warn({ err: describeError(err), pass }, 'dedup catch-up read failed; the next pass reads the same rows');
        if (this.current !== of) return;
        // the next pass from the same instant (after the last, that pass once more)
        this.catchUp(of, from, this.catchUpAfterMs[pass + 1] !== undefined ? pass + 1 : pass);
      });
    }, Math.max(0, delay));
    this.catchUpTimer.unref();
  }

  async released(): Promise<void> {
    const c = this.current;
    this.current = null;
    if (this.expiry) clearInterval(this.expiry);
    this.expiry = null;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = null;
    const d = await c?.catch(() => null);
    await d?.close();
  }

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    const c = this.current;
    const m = msg as DedupOwnerMsg;
    if (!c || m.type !== 'submit') {
      const err = new ActorUnavailableError(to, c ? `unknown message ${msg.type}` : 'the dedup shard is not open here');
      if (reply) return reply(err);
      throw err;
    }
    // `then` callbacks run in registration order: submissions reach the coordinator as they arrived
    void c
      .then((d) => d.coordinator.submit(m.batch))
      .then(
        (v: DedupDecision[]) => reply?.(null, v),
        (err: Error) => reply?.(err),
      );
  }
}
