/**
 * Time as a dependency. Everything that waits or reads the time takes a Clock, so tests drive
 * timers, backoff and polling policies with a ManualClock instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A clock that moves only when told to; `advance` fires due callbacks in time order. */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Move time forward, firing every callback that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let nextId = -1;
      let nextAt = Infinity;
      for (const [id, p] of this.pending) {
        if (p.at <= end && p.at < nextAt) {
          nextAt = p.at;
          nextId = id;
        }
      }
      if (nextId < 0) break;
      const p = this.pending.get(nextId)!;
      this.pending.delete(nextId);
      this.t = Math.max(this.t, p.at);
      p.fn();
    }
    this.t = end;
  }
}

/**
 * The real clock on the monotonic timeline (`performance.now()`): durations that must not
 * stretch or shrink when the wall clock is stepped (lease deadlines) are measured on it.
 */
export const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: realClock.setTimeout,
  clearTimeout: realClock.clearTimeout,
};
