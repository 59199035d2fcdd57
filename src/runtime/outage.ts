import { describeError } from './errors.js';
import type { Logger } from './log.js';

/**
 * Says when a backing service goes away and when it is back: one warn line at the first failure
 * and one info line at the first success after it, however many calls fail in between (a
 * request per failed call would bury the log). Adapters call `failed` and `ok`; `down` tells
 * callers whether an outage is on.
 */
export class OutageLog {
  private since: number | null = null;
  private failures = 0;
  /**
   * Outages begun so far. A call records it when it starts: only a success of a call begun after
   * the outage did ends it (one started before may still complete while the service goes down).
   */
  generation = 0;

  constructor(
    private readonly what: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  failed(err: unknown): void {
    this.failures++;
    if (this.since !== null) return;
    this.since = this.now();
    this.generation++;
    this.log.warn({ dependency: this.what, err: describeError(err) }, `${this.what} unavailable; requests that need it answer 503 until it is back`);
  }

  /** A call begun at `generation` (default: now) succeeded. */
  ok(generation = this.generation): void {
    if (this.since === null || generation !== this.generation) return;
    const downMs = this.now() - this.since;
    this.log.info({ dependency: this.what, down_ms: downMs, failed_calls: this.failures }, `${this.what} available again`);
    this.since = null;
    this.failures = 0;
  }
}
