import { PollHandedOverError } from '../actors/publisher/errors.js';
import type { PollsInFlight } from '../actors/publisher/polls-in-flight.js';
import { spawnAll } from '../actors/publisher/roster.js';
import type { Behaviour, Message } from '../runtime/actor.js';
import type { ShardHost } from '../runtime/ownership.js';
import type { Logger } from '../runtime/log.js';
import type { Sql } from '../runtime/sql.js';
import type { ActorSystem } from '../runtime/system.js';

const address = (id: string) => `publisher/${id}`;

/**
 * The publisher actors of the publisher shards this node owns. On `acquired` the shard's
 * publishers are found in PostgreSQL (one scan serves every shard acquired meanwhile) and their
 * actors started (each loads its polling state); on `released` they are stopped, their polls in
 * progress aborted (a fetch may otherwise run for a minute while the next owner polls the same
 * feed) and awaited until each has saved its state, and buffered state is written, so the next
 * owner starts from what this one did, the time of its last poll included. An actor spawned by a stray message (an acknowledgement arriving after its
 * shard left) finds its shard inactive and stops without loading or polling.
 */
export class PublisherShards implements ShardHost {
  private readonly active = new Set<number>();
  private readonly byShard = new Map<number, Set<string>>();
  private pending = new Set<number>();
  private scan: Promise<void> | null = null;

  constructor(
    private readonly o: {
      sql: Sql;
      system: ActorSystem;
      shardOf: (id: string) => number;
      /** writes buffered publisher state (called after a shard's actors stopped) */
      flush: () => Promise<void>;
      /** the polls running now: aborted on release */
      polls: PollsInFlight;
      /** longest wait for an aborted poll to save its state (a poll that ignores the abort runs at most the fetch deadline) */
      pollEndMs: number;
      log: Logger;
    },
  ) {}

  /** publishers this node runs actors for */
  get size(): number {
    let n = 0;
    for (const s of this.byShard.values()) n += s.size;
    return n;
  }

  /** whether the publisher's shard is active here */
  owns(id: string): boolean {
    return this.active.has(this.o.shardOf(id));
  }

  /** starts the actor of a publisher of an active shard (a new row, an admin add); false when not ours */
  spawn(id: string): boolean {
    const shard = this.o.shardOf(id);
    if (!this.active.has(shard)) return false;
    let set = this.byShard.get(shard);
    if (!set) this.byShard.set(shard, (set = new Set()));
    set.add(id);
    this.o.system.spawn(address(id));
    return true;
  }

  remove(id: string): void {
    this.byShard.get(this.o.shardOf(id))?.delete(id);
    this.o.system.stop(address(id));
  }

  async acquired(_kind: string, shard: number): Promise<void> {
    this.active.add(shard);
    this.pending.add(shard);
    this.scan ??= (async () => {
      await new Promise((r) => setTimeout(r, 25));
      const shards = this.pending;
      this.pending = new Set();
      this.scan = null;
      let n = 0;
      await spawnAll(this.o.sql, (id) => {
        if (shards.has(this.o.shardOf(id)) && this.spawn(id)) n++;
      });
      this.o.log.info({ shards: shards.size, publishers: n }, 'publisher shards started');
    })();
    await this.scan;
  }

  async released(_kind: string, shard: number): Promise<void> {
    this.active.delete(shard);
    const ids = [...(this.byShard.get(shard) ?? [])];
    this.byShard.delete(shard);
    for (const id of ids) this.o.system.stop(address(id));
    // a poll in progress ends, its state saved, before the shard's lease goes: the next owner
    // polls after it and keeps the minimum interval from its start
    const left = await this.o.polls.abort(ids, new PollHandedOverError(), this.o.pollEndMs);
    if (left.length > 0) this.o.log.warn({ shard, publishers: left.length }, 'polls still running when their shard was released');
    // then whatever else the actors were doing (a save after an acknowledgement)
    const end = Date.now() + 4_000;
    while (ids.some((id) => this.o.system.alive(address(id))) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    await this.o.flush().catch((err: unknown) => this.o.log.warn({ err: String(err) }, 'publisher state not flushed on release'));
    this.o.log.info({ shard, publishers: ids.length }, 'publisher shard stopped');
  }

  /** the behaviour, guarded: an actor of a shard not active here stops without loading anything */
  guard<S, M extends Message>(inner: Behaviour<S, M>): Behaviour<S | null, M> {
    return {
      ...inner,
      init: (key, ctx) => {
        if (!this.active.has(this.o.shardOf(key))) {
          ctx.stop();
          return null;
        }
        return inner.init(key, ctx);
      },
      receive: (state, msg, ctx) => {
        if (state === null) {
          ctx.stop();
          return undefined;
        }
        return inner.receive(state, msg, ctx);
      },
      stopped: (state, ctx) => (state === null ? undefined : inner.stopped?.(state, ctx)),
    } as Behaviour<S | null, M>;
  }
}
