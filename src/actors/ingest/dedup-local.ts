import { DedupCoordinator, type StoredFingerprint } from '../dedup/coordinator.js';
import { shardKey, type DedupItem, type DedupShardMessage, type DedupShardReply } from '../dedup/dedup-shard.js';
import { block } from '../dedup/simhash.js';
import type { Logger } from '../../runtime/log.js';
import { siblingModule } from '../../runtime/module-url.js';
import type { Sql } from '../../runtime/sql.js';
import type { ActorSystem } from '../../runtime/system.js';
import { WorkerGroup } from '../../runtime/worker-group.js';
import { SqlFingerprints } from './fingerprints-sql.js';

/** The dedup coordinator with its shards in a worker of this node, rebuilt from stored fingerprints. */
export interface LocalDedup {
  readonly coordinator: DedupCoordinator;
  /** ends the shards' worker (a later `openLocalDedup` rebuilds them from the store) */
  close(): Promise<void>;
  /**
   * adds stored fingerprints the coordinator does not know to it and to the shards (a new owner
   * catching up with batches its predecessor decided, stored after the rebuild); returns how many
   */
  add(records: readonly StoredFingerprint[]): Promise<number>;
}

export interface LocalDedupOptions {
  system: ActorSystem;
  sql: Sql;
  /** PostgreSQL URL the worker reloads its shards from; null (embedded) = this thread sends them */
  databaseUrl: string | null;
  partitions: number;
  windowMs: number;
  log: Logger;
  now: () => number;
  /**
   * handles skipped after the stored ones (a successor in a cluster: decisions the previous owner
   * made for batches not yet stored keep handles of their own)
   */
  handleGap?: number;
}

/** Fingerprints per page of the coordinator's rebuild. */
const HANDLE_PAGE = 20_000;

/**
 * Opens the dedup shards in their own worker (`dedup/<t>-<p>`, routed there on `system`) and
 * the coordinator that numbers articles, both rebuilt from the fingerprints stored within the
 * window. In server mode the worker reads PostgreSQL itself; in embedded mode (PGlite takes one
 * connection) this thread loads the fingerprints and sends them to the shards, again after a
 * worker failure.
 */
export async function openLocalDedup(o: LocalDedupOptions): Promise<LocalDedup> {
  const fingerprints = new SqlFingerprints(o.sql);
  const group = new WorkerGroup({
    name: 'dedup',
    kinds: { dedup: siblingModule(import.meta.url, './dedup-shard-worker.js').filename },
    workerData: { databaseUrl: o.databaseUrl, partitions: o.partitions, windowMs: o.windowMs },
    log: o.log,
  });
  o.system.hostInWorkers(group);
  // while shards are being refilled from this thread, lookups wait (in order) behind the refill
  let refill: Promise<void> = Promise.resolve();
  const coordinator = new DedupCoordinator(
    {
      ask: async (i, p, msg: DedupShardMessage) => {
        await refill;
        return o.system.ask<DedupShardReply>(`dedup/${shardKey(i, p)}`, msg, 60_000);
      },
    },
    o.partitions,
    { windowMs: o.windowMs },
  );
  // records into the shards without lookup, each into its partition of every table
  const fill = async (records: readonly DedupItem[]) => {
    for (let t = 0; t < 4; t++) {
      const byShard = new Map<number, DedupItem[]>();
      for (const r of records) {
        const part = block(r.hi, r.lo, t) % o.partitions;
        let list = byShard.get(part);
        if (!list) byShard.set(part, (list = []));
        list.push(r);
      }
      for (const [part, items] of byShard) await o.system.ask(`dedup/${shardKey(t, part)}`, { type: 'rebuild', items } satisfies DedupShardMessage, 120_000);
    }
  };
  try {
    if (!o.databaseUrl) {
      const stored = await fingerprints.loadAll(o.now() - o.windowMs);
      coordinator.restore(stored);
      if (o.handleGap) coordinator.skipHandles(o.handleGap);
      refill = fill(stored);
      await refill;
      stored.length = 0;
      group.onWorkerFailed = () => {
        refill = refill.then(async () => fill(await fingerprints.loadAll(o.now() - o.windowMs))).catch((err: unknown) => o.log.warn({ err: String(err) }, 'dedup shard refill failed'));
      };
    } else {
      // the shards load themselves in their worker on their first message, meanwhile the
      // coordinator's handles come a page at a time here, the event loop running between pages
      // (heartbeats and lease renewals are never held up, whatever the window holds)
      const shardsReady = Promise.all(Array.from({ length: 4 * o.partitions }, (_, s) => o.system.ask(`dedup/${shardKey((s / o.partitions) | 0, s % o.partitions)}`, { type: 'stats' } satisfies DedupShardMessage, 300_000)));
      shardsReady.catch(() => undefined);
      await fingerprints.pageHandles(o.now() - o.windowMs, HANDLE_PAGE, async (page) => {
        coordinator.restore(page);
        await new Promise<void>((r) => setImmediate(r));
      });
      if (o.handleGap) coordinator.skipHandles(o.handleGap);
      // have the shards ready before the first batch
      await shardsReady;
    }
  } catch (err) {
    await group.close().catch(() => undefined);
    throw err;
  }
  return {
    coordinator,
    close: () => group.close(),
    async add(records) {
      const fresh = records.filter((r) => !coordinator.knows(r.handle));
      if (fresh.length === 0) return 0;
      coordinator.restore(fresh);
      await fill(fresh);
      return fresh.length;
    },
  };
}
