import type { DedupItem, FingerprintStore } from './dedup-shard.js';
import type { FingerprintSink, StoredFingerprint } from './coordinator.js';
import { block } from './simhash.js';

/**
 * Fingerprints kept in process, for tests that run a dedup shard without a database. The
 * server's store reads the same records from the articles table instead.
 */
export class MemoryFingerprintStore implements FingerprintStore, FingerprintSink {
  readonly records: StoredFingerprint[] = [];

  append(rec: StoredFingerprint): void {
    this.records.push(rec);
  }

  load(blockIndex: number, partition: number, partitions: number, sinceMs: number): DedupItem[] {
    const out: DedupItem[] = [];
    for (const r of this.records) {
      if (r.publishedAt >= sinceMs && block(r.hi, r.lo, blockIndex) % partitions === partition) out.push(r);
    }
    return out;
  }
}
