import type { DedupDecision, DedupInput } from '../dedup/coordinator.js';
import type { Address, Message } from '../../runtime/actor.js';
import type { ReplyFn } from '../../runtime/envelope.js';
import { ActorUnavailableError, describeError } from '../../runtime/errors.js';
import type { ShardHost } from '../../runtime/ownership.js';
import type { Route } from '../../runtime/system.js';
import { openLocalDedup, type LocalDedup, type LocalDedupOptions } from './dedup-local.js';

/** What process nodes ask the node owning the dedup shard (`dedup-owner/0`). */
export type DedupOwnerMsg = { type: 'submit'; batch: DedupInput[] };

/** Handles left unused by a new owner, above the stored ones (see `LocalDedupOptions.handleGap`). */
const HANDLE_GAP = 1 << 17;

/**
 * The dedup coordinator and its shard worker as one cluster shard: opened (rebuilt from the
 * stored fingerprints) when this node acquires it, closed when the node lets it go. It is the
 * local route of `dedup-owner/0`: submissions are handed to the coordinator in arrival order,
 * so every shard sees one global order whichever node the batch came from.
 */
export class DedupOwner implements ShardHost, Route {
  private current: Promise<LocalDedup> | null = null;
  private expiry: NodeJS.Timeout | null = null;

  constructor(private readonly o: Omit<LocalDedupOptions, 'handleGap'> & { expireEveryMs: number }) {}

  async acquired(): Promise<void> {
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
  }

  async released(): Promise<void> {
    const c = this.current;
    this.current = null;
    if (this.expiry) clearInterval(this.expiry);
    this.expiry = null;
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
