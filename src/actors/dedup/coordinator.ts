import type { DedupItem, DedupShardMessage, DedupShardReply, LookupInsertReply } from './dedup-shard.js';
import type { Fingerprint } from './fingerprint.js';
import { block } from './simhash.js';

/**
 * Turns the four tables' answers into one decision per article; used by the online path (shards
 * in workers, reached by `ask`) and by `newsagg process` (shards in-process) alike.
 *
 * Ordering: every batch is sent to all its shards synchronously, in submission order, and shard
 * mailboxes are FIFO, so all shards see the articles in one global order and a shard's "earlier
 * entry" is earlier everywhere: no two copies can both be originals, and no cycle can form.
 * Decisions are made in the same order, so a candidate's root is always known.
 *
 * Original rule (streaming): the earliest-published root among the verified candidates becomes
 * `duplicate_of`. An article is never re-labelled after its decision was emitted, so a copy that
 * arrives *after* its original but claims an earlier publication time still points at the
 * first-seen original (first seen wins; ids already emitted do not change). Within one batch,
 * nothing is emitted yet, so the batch is processed in publication order and the earliest
 * published copy is the original.
 */
export interface ShardTransport {
  ask(blockIndex: number, partition: number, msg: DedupShardMessage): Promise<DedupShardReply> | DedupShardReply;
}

export interface DedupInput {
  id: string;
  fp: Fingerprint;
  /** ms since epoch */
  publishedAt: number;
}

export interface DedupDecision {
  id: string;
  handle: number;
  /** id of the original, or null when this article is an original */
  duplicateOf: string | null;
  /** Hamming distance to the matched candidate, -1 when none */
  distance: number;
}

/** Receives each decided fingerprint so shards can rebuild after a restart (see `FingerprintStore`). */
export interface FingerprintSink {
  append(rec: StoredFingerprint): void;
}

export interface StoredFingerprint extends DedupItem {
  id: string;
  root: number;
}

export class DedupCoordinator {
  private ids: string[] = [];
  private roots = new Uint32Array(1024);
  private published = new Float64Array(1024);
  private nextHandle = 0;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly transport: ShardTransport,
    private readonly partitions: number,
    private readonly sink?: FingerprintSink,
  ) {}

  /** Restores handle bookkeeping from stored fingerprints (after a coordinator restart). */
  restore(records: Iterable<StoredFingerprint>): void {
    for (const r of records) {
      this.ensure(r.handle + 1);
      this.ids[r.handle] = r.id;
      this.roots[r.handle] = r.root;
      this.published[r.handle] = r.publishedAt;
      if (r.handle >= this.nextHandle) this.nextHandle = r.handle + 1;
    }
  }

  /** Looks up and inserts a batch; decisions come back in input order. */
  submit(batch: readonly DedupInput[]): Promise<DedupDecision[]> {
    const P = this.partitions;
    const first = this.nextHandle;
    this.nextHandle += batch.length;
    this.ensure(this.nextHandle);
    const groups: { items: DedupItem[]; index: number[] }[] = Array.from({ length: 4 * P }, () => ({ items: [], index: [] }));
    const items: DedupItem[] = new Array(batch.length);
    // within a batch the earliest published goes first (stable), so it becomes the original;
    // handles follow this order, and every shard sees it
    const order = Array.from(batch.keys()).sort((a, b) => batch[a]!.publishedAt - batch[b]!.publishedAt || a - b);
    for (let k = 0; k < batch.length; k++) {
      const i = order[k]!;
      const { fp, publishedAt } = batch[i]!;
      const it: DedupItem = { handle: first + k, hi: fp.hi, lo: fp.lo, publishedAt, sketch: fp.sketch, hasText: fp.hasText, short: !!fp.short };
      items[i] = it;
      // a wordless article matches every other wordless one by its zero hash: keep it out
      if (fp.empty) continue;
      for (let t = 0; t < 4; t++) {
        const g = groups[t * P + (block(fp.hi, fp.lo, t) % P)]!;
        g.items.push(it);
        g.index.push(i);
      }
    }
    // all asks are issued now, before any await, so shard order equals submission order
    const pending: { g: (typeof groups)[number]; reply: Promise<DedupShardReply> | DedupShardReply }[] = [];
    for (let s = 0; s < groups.length; s++) {
      const g = groups[s]!;
      if (g.items.length) pending.push({ g, reply: this.transport.ask((s / P) | 0, s % P, { type: 'lookupInsert', items: g.items }) });
    }
    const decided = this.tail.then(async () => {
      const bestRoot = new Float64Array(batch.length).fill(-1);
      const bestDist = new Int32Array(batch.length).fill(-1);
      const replies = await Promise.all(pending.map((p) => p.reply));
      // a candidate from this same batch came earlier in `order`, so the loop below decided it already
      const cands: number[][] = Array.from({ length: batch.length }, () => []);
      replies.forEach((r, k) => {
        const rep = r as LookupInsertReply;
        const idx = pending[k]!.g.index;
        for (let j = 0; j < idx.length; j++) {
          const c = rep.candidates[j]!;
          if (c >= 0) cands[idx[j]!]!.push(c, rep.distances[j]!);
        }
      });
      const out: DedupDecision[] = new Array(batch.length);
      for (let k = 0; k < batch.length; k++) {
        const i = order[k]!;
        const h = first + k;
        const list = cands[i]!;
        for (let k = 0; k < list.length; k += 2) {
          const root = this.roots[list[k]!]!;
          const d = list[k + 1]!;
          const cur = bestRoot[i]!;
          if (cur < 0 || this.published[root]! < this.published[cur]! || (root === cur && d < bestDist[i]!)) {
            bestRoot[i] = root;
            bestDist[i] = d;
          }
        }
        const root = bestRoot[i]! >= 0 ? bestRoot[i]! : h;
        this.ids[h] = batch[i]!.id;
        this.roots[h] = root;
        this.published[h] = batch[i]!.publishedAt;
        out[i] = { id: batch[i]!.id, handle: h, duplicateOf: root === h ? null : this.ids[root]!, distance: bestDist[i]! };
        if (!batch[i]!.fp.empty) this.sink?.append({ ...items[i]!, id: batch[i]!.id, root });
      }
      return out;
    });
    this.tail = decided.catch(() => undefined);
    return decided;
  }

  /** Asks every shard to drop entries older than `now - window`; returns how many went. */
  async expire(now: number): Promise<number> {
    const replies = await Promise.all(
      Array.from({ length: 4 * this.partitions }, (_, s) => this.transport.ask((s / this.partitions) | 0, s % this.partitions, { type: 'expire', now })),
    );
    return replies.reduce((n, r) => n + (r.type === 'expired' ? r.removed : 0), 0);
  }

  private ensure(n: number): void {
    if (n <= this.roots.length) return;
    const cap = Math.max(n, this.roots.length * 2);
    const r = new Uint32Array(cap);
    r.set(this.roots);
    this.roots = r;
    const p = new Float64Array(cap);
    p.set(this.published);
    this.published = p;
  }
}
