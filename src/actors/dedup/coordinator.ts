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
  /** what to store so shards and handles rebuild after a restart (null: a wordless article, never indexed) */
  record: StoredFingerprint | null;
}

/** Where decided fingerprints are kept (the stores of `newsagg process` and the tests; a node writes the decisions' records with its batch). */
export interface FingerprintSink {
  append(rec: StoredFingerprint): void;
}

export interface StoredFingerprint extends DedupItem {
  id: string;
  root: number;
}

/** Handles per block of the coordinator's tables; a block is freed whole once all its articles left the window. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;

/** The coordinator's facts about one block of consecutive handles. */
interface Chunk {
  ids: (string | undefined)[];
  roots: Float64Array;
  published: Float64Array;
  /** newest publication time in the block: the block goes when this leaves the window */
  newest: number;
}

export interface CoordinatorOptions {
  /** how long an article can be matched (its facts are freed after it); default 72 h */
  windowMs?: number;
}

export class DedupCoordinator {
  /** handle >> CHUNK_BITS -> facts of those handles; blocks older than the window are deleted */
  private readonly chunks = new Map<number, Chunk>();
  private nextHandle = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly windowMs: number;

  constructor(
    private readonly transport: ShardTransport,
    private readonly partitions: number,
    opts: CoordinatorOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? 72 * 3_600_000;
  }

  /** Handles whose facts are held (in blocks of 4,096): what memory the coordinator keeps. */
  get heldHandles(): number {
    return this.chunks.size * CHUNK;
  }

  /** Restores handle bookkeeping from stored fingerprints (after a coordinator restart). */
  restore(records: Iterable<StoredFingerprint>): void {
    for (const r of records) {
      this.set(r.handle, r.id, r.root, r.publishedAt);
      if (r.handle >= this.nextHandle) this.nextHandle = r.handle + 1;
    }
  }

  /** Whether the facts of this handle are held (it was decided here, or restored). */
  knows(handle: number): boolean {
    return this.idOf(handle) !== undefined;
  }

  /** Leaves `n` handles unused (a successor coordinator: handles a predecessor gave out for batches not yet stored stay unique). */
  skipHandles(n: number): void {
    this.nextHandle += n;
  }

  /**
   * Looks up and inserts a batch; decisions come back in input order. A candidate that is the
   * article itself (the same id submitted again after its batch could not be stored) is not
   * a match: an article is never its own duplicate.
   */
  submit(batch: readonly DedupInput[]): Promise<DedupDecision[]> {
    const P = this.partitions;
    const first = this.nextHandle;
    this.nextHandle += batch.length;
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
        const { id, publishedAt, fp } = batch[i]!;
        const list = cands[i]!;
        let bestRoot = -1;
        let bestDist = -1;
        let bestPublished = Infinity;
        for (let c = 0; c < list.length; c += 2) {
          const root = this.rootOf(list[c]!);
          // the candidate's facts left the window (or it is this article itself): no match
          if (root < 0 || this.idOf(root) === id) continue;
          const d = list[c + 1]!;
          const t = this.publishedOf(root);
          if (bestRoot < 0 || t < bestPublished || (root === bestRoot && d < bestDist)) {
            bestRoot = root;
            bestDist = d;
            bestPublished = t;
          }
        }
        const root = bestRoot >= 0 ? bestRoot : h;
        this.set(h, id, root, publishedAt);
        out[i] = {
          id,
          handle: h,
          duplicateOf: root === h ? null : this.idOf(root)!,
          distance: bestDist,
          record: fp.empty ? null : { ...items[i]!, id, root },
        };
      }
      return out;
    });
    this.tail = decided.catch(() => undefined);
    return decided;
  }

  /**
   * Asks every shard to drop entries older than `now - window` and frees the coordinator's own
   * facts about articles that all left the window; returns how many shard entries went.
   */
  async expire(now: number): Promise<number> {
    const replies = await Promise.all(
      Array.from({ length: 4 * this.partitions }, (_, s) => this.transport.ask((s / this.partitions) | 0, s % this.partitions, { type: 'expire', now })),
    );
    const cutoff = now - this.windowMs;
    const current = this.nextHandle >> CHUNK_BITS;
    for (const [k, c] of this.chunks) if (k !== current && c.newest < cutoff) this.chunks.delete(k);
    return replies.reduce((n, r) => n + (r.type === 'expired' ? r.removed : 0), 0);
  }

  private set(handle: number, id: string, root: number, published: number): void {
    const k = Math.floor(handle / CHUNK);
    let c = this.chunks.get(k);
    if (!c) {
      c = { ids: new Array<string | undefined>(CHUNK), roots: new Float64Array(CHUNK).fill(-1), published: new Float64Array(CHUNK), newest: -Infinity };
      this.chunks.set(k, c);
    }
    const j = handle - k * CHUNK;
    c.ids[j] = id;
    c.roots[j] = root;
    c.published[j] = published;
    if (published > c.newest) c.newest = published;
  }

  /** The root handle of a handle whose facts are held, else -1; a root that left the window makes the handle its own root. */
  private rootOf(handle: number): number {
    const c = this.chunks.get(Math.floor(handle / CHUNK));
    const root = c ? c.roots[handle - Math.floor(handle / CHUNK) * CHUNK]! : -1;
    if (root < 0) return -1;
    return this.idOf(root) === undefined ? handle : root;
  }

  private idOf(handle: number): string | undefined {
    const k = Math.floor(handle / CHUNK);
    return this.chunks.get(k)?.ids[handle - k * CHUNK];
  }

  private publishedOf(handle: number): number {
    const k = Math.floor(handle / CHUNK);
    return this.chunks.get(k)?.published[handle - k * CHUNK] ?? Infinity;
  }
}
