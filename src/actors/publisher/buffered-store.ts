import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { PublisherState, PublisherStore } from './state.js';

/** The database is unreachable (as opposed to refusing the statement): worth keeping and retrying. */
function isUnavailable(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'DEPENDENCY_UNAVAILABLE';
}

/**
 * A PublisherStore that rides out a database outage. A save the database cannot take because it
 * is unreachable is kept in memory (the latest state per publisher) and written when it answers
 * again, so actors carry on polling instead of failing and restarting, and no polling state is
 * lost. While a publisher has a kept state, its newer saves replace it and go out in order with
 * the retry; a load sees the kept state first.
 */
export class BufferedPublisherStore implements PublisherStore {
  private readonly pending = new Map<string, PublisherState>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly log: Logger;
  private readonly retryMs: number;

  constructor(
    private readonly inner: PublisherStore,
    opts: { log?: Logger; retryMs?: number } = {},
  ) {
    this.log = opts.log ?? silentLogger;
    this.retryMs = opts.retryMs ?? 5_000;
  }

  /** states waiting for the database */
  get waiting(): number {
    return this.pending.size;
  }

  async load(id: string): Promise<PublisherState | null> {
    const kept = this.pending.get(id);
    if (kept) return kept;
    return this.inner.load(id);
  }

  async save(state: PublisherState): Promise<void> {
    if (this.pending.has(state.id)) {
      this.pending.set(state.id, state);
      return;
    }
    try {
      await this.inner.save(state);
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      if (this.pending.size === 0) this.log.debug({ err: describeError(err) }, 'publisher states kept in memory until the database answers');
      this.pending.set(state.id, state);
      this.arm();
    }
  }

  /** Writes what is kept; stops at the first sign the database is still away. */
  flush(): Promise<void> {
    this.flushing ??= this.writeKept().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async writeKept(): Promise<void> {
    let written = 0;
    for (const [id, state] of this.pending) {
      try {
        await this.inner.save(state);
        written++;
      } catch (err) {
        if (isUnavailable(err)) break;
        // refused for another reason: retrying would not help, and the actor saves again after its next poll
        this.log.warn({ publisher_id: id, err: describeError(err) }, 'kept publisher state not written');
      }
      // a newer state that arrived meanwhile stays for the next round
      if (this.pending.get(id) === state) this.pending.delete(id);
    }
    if (written > 0 && this.pending.size === 0) this.log.info({ states: written }, 'publisher states written after the database outage');
    if (this.pending.size > 0) this.arm();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.retryMs);
    this.timer.unref();
  }
}
