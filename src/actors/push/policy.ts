/**
 * Push delivery policy, pure (clock and randomness passed in): quiet hours and the local day in a
 * reader's time zone, what a push service's answer means, and when to try again.
 */

const DAY_MS = 86_400_000;

/** 'HH:MM' → minutes after midnight, or null when malformed. */
export function parseClock(s: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Minutes after local midnight at `now` for a time zone `tzOffsetMinutes` east of UTC. */
export function localMinute(now: number, tzOffsetMinutes: number): number {
  const m = Math.floor(now / 60_000) + tzOffsetMinutes;
  return ((m % 1440) + 1440) % 1440;
}

/** The reader's local day at `now` (days since 1970-01-01 in its time zone). */
export function localDay(now: number, tzOffsetMinutes: number): number {
  return Math.floor((now + tzOffsetMinutes * 60_000) / DAY_MS);
}

/**
 * True when `now` falls in the quiet hours [start, end) of the reader's local clock; a span that
 * crosses midnight (22:00–07:00) wraps, and start = end is no quiet time at all.
 */
export function inQuietHours(now: number, tzOffsetMinutes: number, quiet: { start: string; end: string } | null): boolean {
  if (!quiet) return false;
  const start = parseClock(quiet.start);
  const end = parseClock(quiet.end);
  if (start === null || end === null || start === end) return false;
  const m = localMinute(now, tzOffsetMinutes);
  return start < end ? m >= start && m < end : m >= start || m < end;
}

/** The first retry waits this long; each next one twice as long, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 3_600_000;
/** A push service's Retry-After is honoured up to this long. */
export const RETRY_AFTER_MAX_MS = 6 * 3_600_000;
/** Delivery attempts before an alert is given up. */
export const MAX_ATTEMPTS = 8;

/** The delay before attempt `attempts + 1`: exponential with ±20 % jitter (`rand` in [0, 1)). */
export function deliveryBackoffMs(attempts: number, rand: number): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * rand));
}

/** What to do with an alert after a push service's answer (or none). */
export type Verdict =
  | { outcome: 'sent' }
  /** the subscription no longer exists (404, 410): delete it */
  | { outcome: 'gone' }
  /** try again at `at` */
  | { outcome: 'retry'; at: number }
  /** give the alert up: refused for good, or out of attempts or time */
  | { outcome: 'failed' | 'expired' };

export interface Answer {
  /** HTTP status, or null when no answer came (network error, timeout) */
  status: number | null;
  /** Retry-After in ms from now, when the answer carried one */
  retryAfterMs: number | null;
}

/**
 * RFC 8030 §5: 201 (or any 2xx) is accepted; 404 and 410 mean the subscription is gone; 429 and
 * 5xx, or no answer, are tried again later (Retry-After first, else exponential backoff), until
 * MAX_ATTEMPTS or the alert's expiry; any other answer (400, 401, 403, 413) will not improve.
 */
export function judge(a: Answer, attempts: number, now: number, expiresAt: number, rand: number): Verdict {
  const s = a.status;
  if (s !== null && s >= 200 && s < 300) return { outcome: 'sent' };
  if (s === 404 || s === 410) return { outcome: 'gone' };
  if (s === null || s === 429 || s >= 500) {
    if (attempts >= MAX_ATTEMPTS) return { outcome: 'failed' };
    const wait = a.retryAfterMs !== null ? Math.min(RETRY_AFTER_MAX_MS, Math.max(1000, a.retryAfterMs)) : deliveryBackoffMs(attempts, rand);
    const at = now + wait;
    return at >= expiresAt ? { outcome: 'expired' } : { outcome: 'retry', at };
  }
  return { outcome: 'failed' };
}
