/**
 * Topic fan-out with bounded buffers. Each connection is subscribed to topics; a pushed frame
 * goes once to every connection subscribed to any of its topics. A connection whose unsent
 * bytes pass `maxBufferBytes` gets no more frames for now: updates for it wait in a small map
 * keyed by story, where a newer update replaces an older one (coalesced), and are sent when its
 * buffer drains. A connection that stays behind (`maxPending` distinct updates waiting, or
 * `stallMs` without draining) is given up: it gets nothing more, its waiting updates are
 * dropped, and its close frame (1013) is sent once what it was already sent has drained, so
 * the frame is not stuck behind data it never read (the socket layer would drop it with the
 * connection); one that never drains is closed hard after `closeWaitMs`. Nothing here can grow
 * without bound.
 */

/** What the fan-out needs of a socket (a uWS WebSocket in the hub). */
export interface Sock {
  /** 1 sent, 0 sent but buffered, 2 dropped (over the hard limit) */
  send(frame: string): number;
  getBufferedAmount(): number;
  /** closes with a close frame, after what is buffered */
  end(code: number, reason: string): void;
  /** closes at once, without a close frame */
  close(): void;
}

/** Per-connection state, kept in the socket's user data. */
export interface ConnState {
  topics: Set<string>;
  /** updates waiting for the buffer to drain, by coalescing key; null when not behind */
  pending: Map<string, string> | null;
  /** when the connection fell behind, or was given up */
  behindSince: number;
  open: boolean;
}

export interface FanoutOptions {
  maxBufferBytes: number;
  /** distinct updates kept for a connection that is behind (default 256) */
  maxPending?: number;
  /** a connection behind for this long is closed (default 30 s) */
  stallMs?: number;
  /** a connection given up whose buffer does not drain within this long is closed without a close frame (default 10 s) */
  closeWaitMs?: number;
  now?: () => number;
  /** counts, for metrics */
  onEvent?: (what: 'sent' | 'coalesced' | 'closed_slow', n?: number) => void;
}

/** Close code for a connection that could not keep up (1013: try again later). */
export const SLOW_CLOSE = 1013;

export function newConnState(): ConnState {
  return { topics: new Set(), pending: null, behindSince: 0, open: true };
}

export class Fanout<S extends Sock> {
  private readonly index = new Map<string, Set<S>>();
  private readonly behind = new Set<S>();
  /** given up, waiting for their buffer to drain before the close frame */
  private readonly closing = new Set<S>();
  private readonly maxPending: number;
  private readonly stallMs: number;
  private readonly closeWaitMs: number;
  private readonly now: () => number;

  constructor(
    private readonly stateOf: (s: S) => ConnState,
    private readonly opts: FanoutOptions,
  ) {
    this.maxPending = opts.maxPending ?? 256;
    this.stallMs = opts.stallMs ?? 30_000;
    this.closeWaitMs = opts.closeWaitMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** Subscribers of a topic now. */
  subscribers(topic: string): number {
    return this.index.get(topic)?.size ?? 0;
  }

  /** Connections currently behind. */
  get behindCount(): number {
    return this.behind.size;
  }

  /** Connections given up, their close frame waiting for their buffer to drain. */
  get closingCount(): number {
    return this.closing.size;
  }

  subscribe(s: S, topics: readonly string[]): void {
    const c = this.stateOf(s);
    for (const t of topics) {
      if (c.topics.has(t)) continue;
      c.topics.add(t);
      let set = this.index.get(t);
      if (!set) this.index.set(t, (set = new Set()));
      set.add(s);
    }
  }

  unsubscribe(s: S, topics: Iterable<string>): void {
    const c = this.stateOf(s);
    for (const t of [...topics]) {
      if (!c.topics.delete(t)) continue;
      const set = this.index.get(t);
      set?.delete(s);
      if (set?.size === 0) this.index.delete(t);
    }
  }

  /** Forgets a closed connection. */
  remove(s: S): void {
    const c = this.stateOf(s);
    c.open = false;
    this.unsubscribe(s, c.topics);
    c.pending = null;
    this.behind.delete(s);
    this.closing.delete(s);
  }

  /**
   * Sends `frame` once to every connection subscribed to one of `topics`; `key` names what the
   * frame is about (a story), so a newer frame with the same key replaces one still waiting.
   * Returns how many connections got it or have it waiting.
   */
  deliver(topics: readonly string[], key: string, frame: string): number {
    let n = 0;
    if (topics.length === 1) {
      const set = this.index.get(topics[0]!);
      if (set) for (const s of set) n += this.sendTo(s, key, frame);
      return n;
    }
    const done = new Set<S>();
    for (const t of topics) {
      const set = this.index.get(t);
      if (!set) continue;
      for (const s of set) {
        if (done.has(s)) continue;
        done.add(s);
        n += this.sendTo(s, key, frame);
      }
    }
    return n;
  }

  /** Sends one frame to one connection, under the same rules (replies, replays). */
  sendTo(s: S, key: string, frame: string): number {
    const c = this.stateOf(s);
    if (!c.open) return 0;
    if (c.pending !== null) {
      const had = c.pending.delete(key);
      c.pending.set(key, frame);
      this.opts.onEvent?.('coalesced');
      if (!had && c.pending.size > this.maxPending) this.closeSlow(s, c);
      return 1;
    }
    if (s.getBufferedAmount() > this.opts.maxBufferBytes) {
      c.pending = new Map([[key, frame]]);
      c.behindSince = this.now();
      this.behind.add(s);
      this.opts.onEvent?.('coalesced');
      return 1;
    }
    if (s.send(frame) === 2) {
      this.closeSlow(s, c);
      return 0;
    }
    this.opts.onEvent?.('sent');
    return 1;
  }

  /** The socket's buffer drained a little: send what waits while it stays under the limit. */
  drain(s: S): void {
    if (this.closing.has(s)) {
      if (s.getBufferedAmount() === 0) this.finish(s);
      return;
    }
    const c = this.stateOf(s);
    if (!c.open || c.pending === null) return;
    for (const [key, frame] of c.pending) {
      if (s.getBufferedAmount() > this.opts.maxBufferBytes) {
        c.behindSince = this.now();
        return;
      }
      c.pending.delete(key);
      if (s.send(frame) === 2) {
        this.closeSlow(s, c);
        return;
      }
      this.opts.onEvent?.('sent');
    }
    c.pending = null;
    this.behind.delete(s);
  }

  /** Closes connections that have been behind for `stallMs` without catching up (and those given up that never drained). */
  sweep(): number {
    const now = this.now();
    let closed = 0;
    for (const s of [...this.closing]) {
      if (now - this.stateOf(s).behindSince < this.closeWaitMs) continue;
      this.closing.delete(s);
      s.close();
    }
    for (const s of [...this.behind]) {
      const c = this.stateOf(s);
      if (c.pending !== null && now - c.behindSince >= this.stallMs) {
        this.closeSlow(s, c);
        closed++;
      }
    }
    return closed;
  }

  private closeSlow(s: S, c: ConnState): void {
    if (!c.open) return;
    this.remove(s);
    this.opts.onEvent?.('closed_slow');
    if (s.getBufferedAmount() === 0) return this.finish(s);
    // the close frame would queue behind what the client has not read; it goes once that drains
    c.behindSince = this.now();
    this.closing.add(s);
  }

  private finish(s: S): void {
    this.closing.delete(s);
    s.end(SLOW_CLOSE, 'too slow: updates were not read');
  }
}
