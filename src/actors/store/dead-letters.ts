import type { DeadLetter } from '../../runtime/dead-letters.js';
import { describeError, isOutage } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';

export async function insertDeadLetter(sql: Sql, d: DeadLetter): Promise<void> {
  let payload: string | null;
  try {
    payload = JSON.stringify(d.msg);
  } catch {
    payload = null; // e.g. a bigint in the message: keep the letter, drop the payload
  }
  await sql.query('INSERT INTO dead_letters (address, type, payload, error, attempts, at) VALUES ($1, $2, $3::jsonb, $4, $5, to_timestamp($6 / 1000.0))', [
    d.address, d.type, payload, d.error, d.attempts, d.at,
  ]);
}

/**
 * Writes dead letters to the `dead_letters` table so they outlive the process's ring buffer.
 * Letters the database cannot take while it is away (outages make many) wait, up to `keep`,
 * and are written when it answers again.
 */
export class DeadLetterWriter {
  private readonly waiting: DeadLetter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private dropped = 0;

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
    private readonly keep = 10_000,
    private readonly retryMs = 5_000,
  ) {}

  write(d: DeadLetter): void {
    if (this.waiting.length > 0) return this.hold(d);
    insertDeadLetter(this.sql, d).catch((err: unknown) => {
      if (isOutage(err)) this.hold(d);
      else this.log.warn({ err: describeError(err), address: d.address }, 'dead letter not persisted');
    });
  }

  private hold(d: DeadLetter): void {
    this.waiting.push(d);
    if (this.waiting.length > this.keep) {
      this.waiting.shift();
      this.dropped++;
    }
    this.arm();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.retryMs);
    this.timer.unref();
  }

  /** Writes what waits, oldest first; stops at the first sign the database is still away. */
  async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      try {
        await insertDeadLetter(this.sql, this.waiting[0]!);
      } catch (err) {
        if (isOutage(err)) return this.arm();
        this.log.warn({ err: describeError(err), address: this.waiting[0]!.address }, 'dead letter not persisted');
      }
      this.waiting.shift();
    }
    if (this.dropped > 0) this.log.warn({ dropped: this.dropped }, 'dead letters lost while the database was away (the oldest, beyond the kept ones)');
    this.dropped = 0;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
