import { defineBehaviour, type ActorContext, type Behaviour } from '../../runtime/actor.js';
import { NewsaggError } from '../../runtime/errors.js';
import { ShardTable, type MatchOut, type TableItem } from './shard-table.js';
import { DEFAULT_VERIFY_POLICY, type VerifyPolicy } from './verify.js';

/**
 * DedupShard: the actor owning shard (i, p) of the SimHash block tables (address `dedup/i-p`).
 * It lives in a long-lived worker so its typed arrays persist; `init` rebuilds them from the
 * fingerprint store after a restart or a move, so answers stay right within the window.
 */

/** A fingerprint in a message. `handle` is the article's numeric handle (the coordinator maps ids). */
export type DedupItem = TableItem;

export type DedupShardMessage =
  /** look up then insert each item, in order; replies `LookupInsertReply` */
  | { type: 'lookupInsert'; items: DedupItem[] }
  /** insert without lookup (state transfer); replies `{ type: 'rebuilt', size }` */
  | { type: 'rebuild'; items: DedupItem[] }
  /** drop entries older than `now - window`; replies `{ type: 'expired', removed, size }` */
  | { type: 'expire'; now: number }
  | { type: 'stats' };

/** Per item, in order: the handle of the closest verified earlier entry (-1 none) and its distance. */
export interface LookupInsertReply {
  type: 'matches';
  candidates: number[];
  distances: number[];
}

export type DedupShardReply =
  | LookupInsertReply
  | { type: 'rebuilt'; size: number }
  | { type: 'expired'; removed: number; size: number }
  | { type: 'stats'; size: number; bytes: number };

export interface DedupShardState {
  table: ShardTable;
}

/** Where a shard reloads fingerprints from: the articles stored within the window. */
export interface FingerprintStore {
  /** fingerprints whose block `blockIndex` falls in `partition` (of `partitions`), published at or after `sinceMs` */
  load(blockIndex: number, partition: number, partitions: number, sinceMs: number): Promise<DedupItem[]> | DedupItem[];
}

export interface DedupShardOptions {
  partitions: number;
  /** dedup window; default 72 h */
  windowMs?: number;
  policy?: VerifyPolicy;
  store?: FingerprintStore;
  /** table capacity to allocate up front (avoids growth copies in big shards) */
  initialCapacity?: number;
}

export const DEFAULT_WINDOW_MS = 72 * 3600_000;

/** A shard key `i-p` could not be parsed, or names a shard outside the layout. */
export class InvalidShardKeyError extends NewsaggError {
  constructor(key: string, partitions: number) {
    super('DEDUP_SHARD_KEY', `bad dedup shard key ${JSON.stringify(key)} (expected "<0-3>-<0-${partitions - 1}>")`);
  }
}

export function shardKey(blockIndex: number, partition: number): string {
  return `${blockIndex}-${partition}`;
}

export function parseShardKey(key: string, partitions: number): { blockIndex: number; partition: number } {
  const m = /^([0-3])-(\d+)$/.exec(key);
  const p = m ? Number(m[2]) : -1;
  if (!m || p >= partitions) throw new InvalidShardKeyError(key, partitions);
  return { blockIndex: Number(m[1]), partition: p };
}

/** The behaviour for one shard group layout (P partitions per table). */
export function dedupShardBehaviour(opts: DedupShardOptions): Behaviour<DedupShardState, DedupShardMessage> {
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  const policy = opts.policy ?? DEFAULT_VERIFY_POLICY;
  const out: MatchOut = { candidate: -1, distance: -1 };
  return defineBehaviour<DedupShardState, DedupShardMessage>({
    kind: 'dedup',
    async init(key: string, ctx: ActorContext) {
      const { blockIndex, partition } = parseShardKey(key, opts.partitions);
      const table = new ShardTable({ blockIndex, partitions: opts.partitions, windowMs, initialCapacity: opts.initialCapacity });
      if (opts.store) {
        const items = await opts.store.load(blockIndex, partition, opts.partitions, ctx.now() - windowMs);
        for (const it of items) table.add(it);
        ctx.log.info({ shard: key, size: table.size }, 'dedup shard rebuilt from stored fingerprints');
      }
      return { table };
    },
    receive(state, msg) {
      switch (msg.type) {
        case 'lookupInsert': {
          const n = msg.items.length;
          const candidates = new Array<number>(n);
          const distances = new Array<number>(n);
          for (let i = 0; i < n; i++) {
            state.table.lookupInsert(msg.items[i]!, policy, out);
            candidates[i] = out.candidate;
            distances[i] = out.distance;
          }
          return { type: 'matches', candidates, distances } satisfies DedupShardReply;
        }
        case 'rebuild':
          for (const it of msg.items) state.table.add(it);
          return { type: 'rebuilt', size: state.table.size } satisfies DedupShardReply;
        case 'expire': {
          const removed = state.table.expire(msg.now);
          return { type: 'expired', removed, size: state.table.size } satisfies DedupShardReply;
        }
        case 'stats':
          return { type: 'stats', size: state.table.size, bytes: state.table.bytes } satisfies DedupShardReply;
      }
    },
  });
}
