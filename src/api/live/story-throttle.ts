/**
 * At most one `story` frame per story per interval, the latest state winning, and at most
 * `perSecond` story frames a second in all: a story that grows fast costs a subscriber one frame
 * per interval, not one per article, and a flood of stories (a node's first fetch brings a
 * thousand, each updated as its articles arrive) is paced, the stories waiting their turn in
 * order, each newer state replacing the one waiting, so the flood shrinks while it waits. The
 * first update of a story not sent within the interval is due at once; later ones when the
 * interval since its last frame has passed. In steady traffic nothing waits but a story's second
 * update within the interval. Pure, with an injected clock; memory is bounded by `maxHeld`
 * stories waiting (past it, the longest waiting go out whatever the pace) and by the stories sent
 * within the last interval.
 */

export interface HeldFrame {
  id: string;
  topics: string[];
  frame: string;
}

export interface StoryThrottleOptions {
  /** at most one frame per story this often (ms) */
  intervalMs: number;
  /** stories waiting at most; past it the earliest due go out before their time */
  maxHeld: number;
  /** story frames a second in all, with a burst of as many (default: no pace) */
  perSecond?: number;
  now: () => number;
}

interface Held extends HeldFrame {
  dueAt: number;
}

export class StoryThrottle {
  /** story -> when its last frame went out, oldest first (re-inserted on each send) */
  private readonly sentAt = new Map<string, number>();
  private readonly held = new Map<string, Held>();
  private readonly perSecond: number;
  private tokens: number;
  private tokensAt: number;

  constructor(private readonly opts: StoryThrottleOptions) {
    this.perSecond = opts.perSecond ?? Infinity;
    this.tokens = this.perSecond;
    this.tokensAt = opts.now();
  }

  /** Stories waiting for their turn. */
  get size(): number {
    return this.held.size;
  }

  /** A new state of a story: replaces the one waiting, or waits for the story's next turn. */
  offer(id: string, topics: string[], frame: string): void {
    const had = this.held.get(id);
    if (had !== undefined) {
      had.topics = topics;
      had.frame = frame;
      return;
    }
    const now = this.opts.now();
    const last = this.sentAt.get(id);
    const dueAt = last === undefined ? now : Math.max(now, last + this.opts.intervalMs);
    this.held.set(id, { id, topics, frame, dueAt });
  }

  /** Forgets the state waiting for a story (a breaking frame carrying it went out instead). */
  drop(id: string): void {
    this.held.delete(id);
  }

  /** The frames due now, as many as the pace allows (and any beyond `maxHeld`), marked as sent; the rest keep waiting. */
  take(): HeldFrame[] {
    const now = this.opts.now();
    this.prune(now);
    this.refill(now);
    const byDue = [...this.held.values()].sort((a, b) => a.dueAt - b.dueAt);
    let n = 0;
    while (n < byDue.length && byDue[n]!.dueAt <= now && this.tokens >= 1) {
      n++;
      this.tokens -= 1;
    }
    // bounded memory: past maxHeld, the earliest due go out whatever the pace
    n = Math.max(n, byDue.length - this.opts.maxHeld);
    const out = byDue.slice(0, n);
    for (const h of out) {
      this.held.delete(h.id);
      this.sentAt.delete(h.id);
      this.sentAt.set(h.id, now);
    }
    return out.map(({ id, topics, frame }) => ({ id, topics, frame }));
  }

  /** When the next waiting frame is due, or may go at the pace (epoch ms), or null when none waits. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const h of this.held.values()) if (next === null || h.dueAt < next) next = h.dueAt;
    if (next === null || this.tokens >= 1) return next;
    return Math.max(next, this.tokensAt + Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
  }

  private refill(now: number): void {
    if (this.perSecond === Infinity) return;
    this.tokens = Math.min(this.perSecond, this.tokens + (Math.max(0, now - this.tokensAt) / 1000) * this.perSecond);
    this.tokensAt = now;
  }

  /** A story last sent an interval ago or more is free again: its entry is no longer needed. */
  private prune(now: number): void {
    for (const [id, at] of this.sentAt) {
      if (now - at < this.opts.intervalMs) break;
      this.sentAt.delete(id);
    }
  }
}
