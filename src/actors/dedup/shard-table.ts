import { SKETCH_BINS as SKETCH_BINS_EXPORTED, SKETCH_BYTES as SKETCH_BYTES_EXPORTED } from './sketch.js';
import { copyEntry, toMin, type MatchOut, type TableItem, type TableOptions } from './shard-entry.js';
import { VERIFY_SHORT, VERIFY_TEXT, verifyCandidate, type VerifyPolicy } from './verify.js';

export type { MatchOut, TableItem, TableOptions } from './shard-entry.js';

/**
 * One dedup shard's table: the fingerprints whose block `blockIndex` falls in this partition,
 * in typed arrays only (no per-entry objects, nothing for the GC to trace).
 *
 * Layout, chosen for memory locality: a lookup must compare every entry sharing its 16-bit
 * block, so those entries should sit side by side. The table is a sorted *base* (entries
 * grouped by block value, CSR style: `offsets[h]..offsets[h+1]`) plus a small *delta* of recent
 * inserts chained per block. When the delta reaches a sixteenth of the base, both are merged by a
 * counting sort (O(n), amortised ~16 entry copies per insert); the merge also drops expired entries.
 * Records are 4 uint32 (hi, lo, time<<3|flags, handle) = 16 bytes, four to a cache line, plus
 * the 24-byte sketch (16 bins and the 8-byte anchor mask): 40 bytes per entry in the base, 44 in the delta.
 */
// a module-local copy: imported bindings can cost a getter call per access under some loaders
const SKETCH_BINS: number = SKETCH_BINS_EXPORTED;
const SKETCH_BYTES: number = SKETCH_BYTES_EXPORTED;
export const BYTES_PER_ENTRY = 16 + SKETCH_BYTES;

// entry flags, stored in the low bits of the time word
const F_SKETCH = 1;
const FLAG_BITS = 3;
const FLAG_MASK = (1 << FLAG_BITS) - 1;
const MIN_DELTA = 8192;

export class ShardTable {
  readonly blockIndex: number;
  readonly partitions: number;
  /** window in minutes (entry times are whole minutes) */
  readonly windowMin: number;
  private readonly nHeads: number;
  // sorted base
  private offsets: Uint32Array;
  private base: Uint32Array;
  private baseSketch: Uint8Array;
  private baseCount = 0;
  // delta: chained per block, newest first
  private heads: Int32Array;
  private delta: Uint32Array;
  private deltaNext: Int32Array;
  private deltaSketch: Uint8Array;
  private deltaCount = 0;
  // merge scratch, kept between merges (sized to the head count and the delta capacity)
  private spareOffsets: Uint32Array;
  private scratchCounts: Uint32Array;
  private scratchFill: Uint32Array;
  private scratchHeads: Uint32Array;
  private scratchOrder: Uint32Array;

  constructor(opts: TableOptions) {
    this.blockIndex = opts.blockIndex;
    this.partitions = opts.partitions;
    this.windowMin = Math.max(0, Math.floor(opts.windowMs / 60_000));
    this.nHeads = Math.ceil(65536 / opts.partitions);
    this.offsets = new Uint32Array(this.nHeads + 1);
    // a shard that knows its expected size reserves it: no growth copies, no big frees later
    const reserve = Math.max(0, opts.initialCapacity ?? 0);
    this.base = new Uint32Array(reserve * 4);
    this.baseSketch = new Uint8Array(reserve * SKETCH_BYTES);
    this.heads = new Int32Array(this.nHeads).fill(-1);
    const cap = Math.max(1024, Math.min(opts.initialCapacity ?? 0, MIN_DELTA));
    this.delta = new Uint32Array(cap * 4);
    this.deltaNext = new Int32Array(cap);
    this.deltaSketch = new Uint8Array(cap * SKETCH_BYTES);
    this.spareOffsets = new Uint32Array(this.nHeads + 1);
    this.scratchCounts = new Uint32Array(this.nHeads + 1);
    this.scratchFill = new Uint32Array(this.nHeads);
    this.scratchHeads = new Uint32Array(cap);
    this.scratchOrder = new Uint32Array(cap);
  }

  /** entries held (expired ones count until the next merge) */
  get size(): number {
    return this.baseCount + this.deltaCount;
  }

  /** bytes of typed-array memory held, spare capacity included */
  get bytes(): number {
    return this.offsets.byteLength * 2 + this.base.byteLength + this.baseSketch.byteLength + this.heads.byteLength +
      this.delta.byteLength + this.deltaNext.byteLength + this.deltaSketch.byteLength + this.scratchCounts.byteLength +
      this.scratchFill.byteLength + this.scratchHeads.byteLength + this.scratchOrder.byteLength;
  }

  private headOf(hi: number, lo: number): number {
    let b: number;
    switch (this.blockIndex) {
      case 0: b = hi >>> 16; break;
      case 1: b = hi & 0xffff; break;
      case 2: b = lo >>> 16; break;
      default: b = lo & 0xffff;
    }
    return (b / this.partitions) | 0;
  }

  /**
   * Finds the closest verified entry of the same block within the window (written to `out`),
   * then inserts the item. Both in one call, so within a shard nothing can slip between them.
   */
  lookupInsert(it: TableItem, policy: VerifyPolicy, out: MatchOut): void {
    const h = this.headOf(it.hi, it.lo);
    const t = toMin(it.publishedAt);
    const hi = it.hi;
    const lo = it.lo;
    const win = this.windowMin;
    const sk = it.sketch ?? null;
    const mine = flagsOf(it);
    const limit = sk ? policy.maxDistance : policy.maxDistanceBare;
    let best = -1;
    let bestD = limit + 1;
    let bestT = 0;
    const base = this.base;
    for (let e = this.offsets[h]!, end = this.offsets[h + 1]!; e < end; e++) {
      const r = e << 2;
      // popcount of both halves, inlined (this loop is the hottest in the index)
      let x = (hi ^ base[r]!) >>> 0;
      let y = (lo ^ base[r + 1]!) >>> 0;
      x -= (x >>> 1) & 0x55555555;
      y -= (y >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
      const d = (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) + (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
      if (d > bestD) continue;
      const tf = base[r + 2]!;
      const te = tf >>> FLAG_BITS;
      if (te + win < t || t + win < te || (d === bestD && te >= bestT)) continue;
      if (!verifyCandidate(d, sk, 0, mine, tf & F_SKETCH ? this.baseSketch : null, e * SKETCH_BYTES, tf & FLAG_MASK, policy)) continue;
      best = base[r + 3]!;
      bestD = d;
      bestT = te;
    }
    const delta = this.delta;
    for (let e = this.heads[h]!; e !== -1; e = this.deltaNext[e]!) {
      const r = e << 2;
      // popcount of both halves, inlined (this loop is the hottest in the index)
      let x = (hi ^ delta[r]!) >>> 0;
      let y = (lo ^ delta[r + 1]!) >>> 0;
      x -= (x >>> 1) & 0x55555555;
      y -= (y >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      y = (y & 0x33333333) + ((y >>> 2) & 0x33333333);
      const d = (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) + (Math.imul((y + (y >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
      if (d > bestD) continue;
      const tf = delta[r + 2]!;
      const te = tf >>> FLAG_BITS;
      if (te + win < t || t + win < te || (d === bestD && te >= bestT)) continue;
      if (!verifyCandidate(d, sk, 0, mine, tf & F_SKETCH ? this.deltaSketch : null, e * SKETCH_BYTES, tf & FLAG_MASK, policy)) continue;
      best = delta[r + 3]!;
      bestD = d;
      bestT = te;
    }
    out.candidate = best;
    out.distance = best === -1 ? -1 : bestD;
    this.insert(it, h, t);
  }

  /** Inserts without lookup (rebuild from stored fingerprints). */
  add(it: TableItem): void {
    this.insert(it, this.headOf(it.hi, it.lo), toMin(it.publishedAt));
  }

  private insert(it: TableItem, h: number, t: number): void {
    if (this.deltaCount >= Math.max(MIN_DELTA, this.baseCount >> 4)) this.merge();
    const e = this.deltaCount++;
    if (e * 4 >= this.delta.length) this.growDelta();
    const r = e << 2;
    let f = flagsOf(it);
    const sk = it.sketch;
    if (sk && sk.length >= SKETCH_BINS) {
      f |= F_SKETCH;
      const o = e * SKETCH_BYTES;
      // a sketch stored before anchors existed has none: its mask stays 0 (never conflicts)
      const n = Math.min(sk.length, SKETCH_BYTES);
      for (let i = 0; i < n; i++) this.deltaSketch[o + i] = sk[i]!;
      for (let i = n; i < SKETCH_BYTES; i++) this.deltaSketch[o + i] = 0;
    }
    this.delta[r] = it.hi;
    this.delta[r + 1] = it.lo;
    this.delta[r + 2] = ((t << FLAG_BITS) | f) >>> 0;
    this.delta[r + 3] = it.handle;
    this.deltaNext[e] = this.heads[h]!;
    this.heads[h] = e;
  }

  /** Drops every entry older than `nowMs - window`; returns how many went. */
  expire(nowMs: number): number {
    const before = this.size;
    this.merge();
    this.compact(toMin(nowMs) - this.windowMin);
    return before - this.size;
  }

  /**
   * Moves the delta into the base, in place: the delta is bucketed by block (counting sort),
   * then blocks are processed from the last to the first, each block's base run shifted right
   * to its new start (never over an unmoved run) and its delta entries appended after it, oldest
   * first. No per-merge allocation, so no large buffers for the GC to free; the base grows by
   * 1.25x only when full.
   */
  private merge(): void {
    const H = this.nHeads;
    const dn = this.deltaCount;
    if (dn === 0) return;
    const delta = this.delta;
    const dpos = this.scratchCounts;
    dpos.fill(0);
    const dhead = this.scratchHeads;
    for (let e = 0; e < dn; e++) {
      const h = this.headOf(delta[e << 2]!, delta[(e << 2) + 1]!);
      dhead[e] = h;
      dpos[h + 1]!++;
    }
    const newOff = this.spareOffsets;
    const off = this.offsets;
    newOff[0] = 0;
    for (let h = 0; h < H; h++) {
      newOff[h + 1] = newOff[h]! + (off[h + 1]! - off[h]!) + dpos[h + 1]!;
      dpos[h + 1] += dpos[h]!;
    }
    // delta entry indices grouped by block, in insertion order
    const order = this.scratchOrder;
    const fill = this.scratchFill;
    fill.set(dpos.subarray(0, H));
    for (let e = 0; e < dn; e++) order[fill[dhead[e]!]!++] = e;
    this.ensureBase(newOff[H]!);
    const base = this.base;
    const bs = new Uint32Array(this.baseSketch.buffer, 0, this.baseSketch.length >>> 2);
    const ds = new Uint32Array(this.deltaSketch.buffer, 0, this.deltaSketch.length >>> 2);
    for (let h = H - 1; h >= 0; h--) {
      const from = off[h]!;
      const cnt = off[h + 1]! - from;
      let w = newOff[h]!;
      if (w !== from) for (let k = cnt - 1; k >= 0; k--) copyEntry(base, bs, from + k, base, bs, w + k);
      w += cnt;
      for (let j = dpos[h]!, end = dpos[h + 1]!; j < end; j++) copyEntry(delta, ds, order[j]!, base, bs, w++);
    }
    this.spareOffsets = off;
    this.offsets = newOff;
    this.baseCount = newOff[H]!;
    this.heads.fill(-1);
    this.deltaCount = 0;
  }

  /** Drops base entries older than `cutoff` (minutes), moving the rest left; shrinks a mostly empty base. */
  private compact(cutoff: number): void {
    const H = this.nHeads;
    const base = this.base;
    const bs = new Uint32Array(this.baseSketch.buffer, 0, this.baseSketch.length >>> 2);
    const off = this.offsets;
    let w = 0;
    let start = 0;
    for (let h = 0; h < H; h++) {
      const end = off[h + 1]!;
      for (let e = start; e < end; e++) if (base[(e << 2) + 2]! >>> FLAG_BITS >= cutoff) copyEntry(base, bs, e, base, bs, w++);
      start = end;
      off[h + 1] = w;
    }
    this.baseCount = w;
    if (w < (base.length >>> 2) >>> 2) this.resizeBase(Math.ceil(w * 1.25));
  }

  private ensureBase(n: number): void {
    if (n > this.base.length >>> 2) this.resizeBase(Math.max(n, Math.ceil((this.base.length >>> 2) * 1.25)));
  }

  private resizeBase(cap: number): void {
    const b = new Uint32Array(cap * 4);
    b.set(this.base.subarray(0, Math.min(this.baseCount, cap) * 4));
    this.base = b;
    const s = new Uint8Array(cap * SKETCH_BYTES);
    s.set(this.baseSketch.subarray(0, Math.min(this.baseCount, cap) * SKETCH_BYTES));
    this.baseSketch = s;
  }

  private growDelta(): void {
    const cap = Math.ceil(this.deltaNext.length * 1.5);
    const d = new Uint32Array(cap * 4);
    d.set(this.delta);
    this.delta = d;
    const nx = new Int32Array(cap);
    nx.set(this.deltaNext);
    this.deltaNext = nx;
    const s = new Uint8Array(cap * SKETCH_BYTES);
    s.set(this.deltaSketch);
    this.deltaSketch = s;
    this.scratchHeads = new Uint32Array(cap);
    this.scratchOrder = new Uint32Array(cap);
  }
}

/** verification flags of an item (the sketch bit is added when the sketch is stored) */
function flagsOf(it: TableItem): number {
  return (it.hasText ? VERIFY_TEXT : 0) | (it.short ? VERIFY_SHORT : 0);
}
