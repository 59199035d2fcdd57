import type { ActorContext, Behaviour } from './actor.js';
import { Mailbox } from './mailbox.js';

export type CellStatus = 'starting' | 'ready' | 'busy' | 'backoff' | 'stopped';

/** One live actor: its mailbox, state and supervision bookkeeping. Owned by the ActorSystem. */
export class ActorCell {
  state: unknown = undefined;
  status: CellStatus = 'starting';
  /** consecutive failed restarts/messages; reset by a success */
  restarts = 0;
  /** queued in the system's ready queue */
  scheduled = false;
  stopRequested = false;
  readonly mailbox: Mailbox;
  ctx!: ActorContext;

  constructor(
    readonly address: string,
    readonly kind: string,
    readonly key: string,
    readonly behaviour: Behaviour<unknown, never>,
  ) {
    this.mailbox = new Mailbox(behaviour.mailbox as never);
  }
}

/** A small FIFO of cells waiting for their turn (array with a moving head). */
export class ReadyQueue {
  private items: ActorCell[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(c: ActorCell): void {
    this.items.push(c);
  }

  shift(): ActorCell | undefined {
    if (this.head >= this.items.length) return undefined;
    const c = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return c;
  }
}

export function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
}
