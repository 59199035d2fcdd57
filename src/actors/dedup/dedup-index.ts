import type { ActorContext } from '../../runtime/actor.js';
import { NewsaggError } from '../../runtime/errors.js';
import { silentLogger } from '../../runtime/log.js';
import { DedupCoordinator, type DedupDecision, type DedupInput, type FingerprintSink, type ShardTransport } from './coordinator.js';
import { dedupShardBehaviour, shardKey, type DedupShardMessage, type DedupShardOptions, type DedupShardReply, type DedupShardState } from './dedup-shard.js';

/**
 * The whole near-dup index in one thread: 4 × P DedupShard behaviours driven directly, behind
 * the same coordinator as the online path. `newsagg process` and the tests use it.
 */
export interface DedupIndexOptions extends Omit<DedupShardOptions, 'partitions'> {
  partitions?: number;
  sink?: FingerprintSink;
  now?: () => number;
}

/** Minimal actor context for behaviours driven in-process (no mailboxes, no timers). */
export function localContext(key: string, now: () => number): ActorContext {
  const refuse = (what: string) => () => {
    throw new NewsaggError('LOCAL_CONTEXT', `${what} is not available to an in-process dedup shard`);
  };
  return {
    self: `dedup/${key}`,
    kind: 'dedup',
    key,
    log: silentLogger,
    now,
    send: refuse('send'),
    ask: refuse('ask'),
    schedule: refuse('schedule'),
    cancelTimer: refuse('cancelTimer'),
    stop: refuse('stop'),
  };
}

export class DedupIndex {
  readonly partitions: number;
  private readonly states: DedupShardState[] = [];
  private readonly coordinator: DedupCoordinator;
  private readonly behaviour;
  private readonly sink: FingerprintSink | null;

  private constructor(opts: DedupIndexOptions, private readonly now: () => number) {
    this.partitions = opts.partitions ?? 4;
    this.behaviour = dedupShardBehaviour({ ...opts, partitions: this.partitions });
    const transport: ShardTransport = {
      ask: (i: number, p: number, msg: DedupShardMessage) =>
        this.behaviour.receive(this.states[i * this.partitions + p]!, msg, localContext(shardKey(i, p), this.now)) as DedupShardReply,
    };
    this.coordinator = new DedupCoordinator(transport, this.partitions, opts.windowMs === undefined ? {} : { windowMs: opts.windowMs });
    this.sink = opts.sink ?? null;
  }

  /** Builds the shards (rebuilding from `store` when given). */
  static async create(opts: DedupIndexOptions = {}): Promise<DedupIndex> {
    const idx = new DedupIndex(opts, opts.now ?? Date.now);
    for (let i = 0; i < 4; i++) {
      for (let p = 0; p < idx.partitions; p++) {
        const key = shardKey(i, p);
        idx.states.push(await idx.behaviour.init(key, localContext(key, idx.now)));
      }
    }
    return idx;
  }

  get coordinatorRef(): DedupCoordinator {
    return this.coordinator;
  }

  /** Decisions in input order; each decided fingerprint also goes to the sink, when there is one. */
  async submit(batch: readonly DedupInput[]): Promise<DedupDecision[]> {
    const out = await this.coordinator.submit(batch);
    if (this.sink) for (const d of out) if (d.record) this.sink.append(d.record);
    return out;
  }

  expire(now: number): Promise<number> {
    return this.coordinator.expire(now);
  }

  /** live entries summed over all shards (each fingerprint counts once per table) */
  get size(): number {
    return this.states.reduce((n, s) => n + s.table.size, 0);
  }

  get bytes(): number {
    return this.states.reduce((n, s) => n + s.table.bytes, 0);
  }
}
