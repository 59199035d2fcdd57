import type { Message } from './actor.js';

export interface DeadLetter {
  address: string;
  type: string;
  msg: Message;
  error: string;
  code: string | null;
  attempts: number;
  at: number;
}

/**
 * Messages that kept failing (or could not be delivered) with their errors. Kept in a bounded
 * ring for inspection; a sink (e.g. a SQL writer set by the node) can persist them.
 */
export class DeadLetterLog {
  private ring: DeadLetter[] = [];
  private sinks: ((d: DeadLetter) => void)[] = [];
  total = 0;

  constructor(private readonly keep = 1000) {}

  add(d: DeadLetter): void {
    this.total++;
    this.ring.push(d);
    if (this.ring.length > this.keep) this.ring.shift();
    for (const s of this.sinks) {
      try {
        s(d);
      } catch {
        // a failing sink must not turn one dead letter into a crash
      }
    }
  }

  onDeadLetter(sink: (d: DeadLetter) => void): () => void {
    this.sinks.push(sink);
    return () => {
      this.sinks = this.sinks.filter((s) => s !== sink);
    };
  }

  recent(): readonly DeadLetter[] {
    return this.ring;
  }
}
