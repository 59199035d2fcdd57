import type { Message, MailboxOptions, OverflowPolicy } from './actor.js';
import type { Envelope } from './envelope.js';

const EMPTY: (Envelope | undefined)[] = [];

export type OfferOutcome = 'queued' | 'refused' | 'dropped-new' | 'dropped-old' | 'coalesced';

/**
 * FIFO mailbox on a growable ring buffer. Bounded mailboxes apply their kind's overflow policy;
 * the caller learns what happened so it can count drops or refuse the sender.
 */
export class Mailbox {
  private buf: (Envelope | undefined)[];
  private head = 0;
  private len = 0;
  readonly capacity: number;
  readonly overflow: OverflowPolicy;
  private readonly coalesceKey: (m: Message) => string;

  constructor(opts?: MailboxOptions) {
    this.capacity = opts?.capacity ?? Infinity;
    this.overflow = opts?.overflow ?? 'backpressure';
    this.coalesceKey = (opts?.coalesceKey as ((m: Message) => string) | undefined) ?? ((m) => m.type);
    // allocated on first use: most actors are idle most of the time, with empty mailboxes
    this.buf = EMPTY;
  }

  get length(): number {
    return this.len;
  }

  get full(): boolean {
    return this.len >= this.capacity;
  }

  /** Enqueue respecting the overflow policy. A dropped envelope is returned via `evicted`. */
  offer(env: Envelope, evicted?: (e: Envelope) => void): OfferOutcome {
    if (this.len < this.capacity) {
      this.push(env);
      return 'queued';
    }
    switch (this.overflow) {
      case 'backpressure':
        return 'refused';
      case 'drop-newest':
        evicted?.(env);
        return 'dropped-new';
      case 'drop-oldest': {
        const old = this.shift();
        if (old) evicted?.(old);
        this.push(env);
        return 'dropped-old';
      }
      case 'coalesce': {
        const key = this.coalesceKey(env.msg);
        for (let i = 0; i < this.len; i++) {
          const idx = (this.head + i) % this.buf.length;
          const e = this.buf[idx]!;
          if (this.coalesceKey(e.msg) === key) {
            this.buf[idx] = env;
            evicted?.(e);
            return 'coalesced';
          }
        }
        // nothing to merge with: make room by dropping the oldest
        const old = this.shift();
        if (old) evicted?.(old);
        this.push(env);
        return 'dropped-old';
      }
    }
  }

  /** Put an envelope back at the head (a failed message waiting for its retry). */
  unshift(env: Envelope): void {
    if (this.len === this.buf.length) this.grow();
    this.head = (this.head - 1 + this.buf.length) % this.buf.length;
    this.buf[this.head] = env;
    this.len++;
  }

  shift(): Envelope | undefined {
    if (this.len === 0) return undefined;
    const e = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) % this.buf.length;
    this.len--;
    // an actor that went quiet gives its buffer back
    if (this.len === 0 && this.buf.length > 64) {
      this.buf = EMPTY;
      this.head = 0;
    }
    return e;
  }

  /** Remove and return everything queued. */
  drain(): Envelope[] {
    const out: Envelope[] = [];
    for (let e = this.shift(); e; e = this.shift()) out.push(e);
    return out;
  }

  private push(env: Envelope): void {
    if (this.len === this.buf.length) this.grow();
    this.buf[(this.head + this.len) % this.buf.length] = env;
    this.len++;
  }

  private grow(): void {
    const next = new Array<Envelope | undefined>(Math.max(4, this.buf.length * 2));
    for (let i = 0; i < this.len; i++) next[i] = this.buf[(this.head + i) % this.buf.length];
    this.buf = next;
    this.head = 0;
  }
}
