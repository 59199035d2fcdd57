import type { Clock } from './clock.js';

interface Entry {
  at: number;
  seq: number;
  key: string;
  fire: () => void;
  live: boolean;
}

/**
 * All actor timers of a node in one binary heap driven by a single clock timeout, so 50,000
 * publishers polling on their own schedules cost one pending `setTimeout`, not 50,000.
 * Entries are keyed (`address#id`): scheduling a key again replaces the earlier entry.
 */
export class TimerHeap {
  private heap: Entry[] = [];
  private byKey = new Map<string, Entry>();
  private seq = 0;
  private handle: unknown = null;
  private armedAt = Infinity;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.byKey.size;
  }

  schedule(key: string, delayMs: number, fire: () => void): void {
    this.cancel(key);
    const e: Entry = { at: this.clock.now() + Math.max(0, delayMs), seq: ++this.seq, key, fire, live: true };
    this.byKey.set(key, e);
    this.push(e);
    if (e.at < this.armedAt) this.arm();
  }

  cancel(key: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    e.live = false; // lazily removed when it reaches the top
    this.byKey.delete(key);
  }

  /** Cancel every key with this prefix (an actor's timers when it stops). */
  cancelPrefix(prefix: string): void {
    for (const k of [...this.byKey.keys()]) if (k.startsWith(prefix)) this.cancel(k);
  }

  clear(): void {
    for (const e of this.byKey.values()) e.live = false;
    this.byKey.clear();
    this.heap = [];
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.armedAt = Infinity;
  }

  private arm(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.armedAt = Infinity;
    while (this.heap.length && !this.heap[0]!.live) this.pop();
    const top = this.heap[0];
    if (!top) return;
    this.armedAt = top.at;
    this.handle = this.clock.setTimeout(() => this.run(), Math.max(0, top.at - this.clock.now()));
  }

  private run(): void {
    this.handle = null;
    this.armedAt = Infinity;
    const now = this.clock.now();
    while (this.heap.length && this.heap[0]!.at <= now) {
      const e = this.pop()!;
      if (!e.live) continue;
      e.live = false;
      this.byKey.delete(e.key);
      e.fire();
    }
    this.arm();
  }

  private less(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}
