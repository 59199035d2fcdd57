/**
 * How long a batch's decisions may wait to be stored, and how a shard's new owner uses that to
 * catch up with what its predecessor decided. A process node asks the dedup and story shards
 * about a batch, then stores it in one transaction; when a shard moves meanwhile (its node died
 * or lost NATS), the new owner rebuilds from the store and cannot see that batch yet. So a
 * decided batch is stored only within `DECISION_TTL_MS` of its first question to a shard
 * (checked just before the commit; later, it is decided again, by the new owners), and a new
 * owner reads the store again a few times after its rebuild (`CATCH_UP_AFTER_MS`, the last past
 * the TTL). A row committed after a read began its transaction after its decision, so at most the
 * TTL (plus a margin for the commit and clock rates) before that read: each pass reads the rows
 * whose transaction began since `storedSince(clock of the previous read)`. After the last pass
 * nothing the predecessor decided can still be stored.
 */

/** how long a decided batch may wait to be stored */
export const DECISION_TTL_MS = 60_000;

/** slack for the commit after the deadline check and for clock-rate differences */
export const CATCH_UP_MARGIN_MS = 5_000;

/** when a new owner reads the store again after its rebuild (ms after it): soon, as late commits normally follow within a second, and once past the TTL */
export const CATCH_UP_AFTER_MS: readonly number[] = [1_000, 5_000, 20_000, DECISION_TTL_MS + CATCH_UP_MARGIN_MS];

/** the instant (store clock) from which a pass must read, given the store's clock before the previous read */
export function storedSince(clock: number): number {
  return clock - DECISION_TTL_MS - CATCH_UP_MARGIN_MS;
}

/** how long after pass `pass - 1` (or after the rebuild) pass `pass` of `after` runs; undefined past the last */
export function catchUpDelay(after: readonly number[], pass: number): number | undefined {
  const at = after[pass];
  return at === undefined ? undefined : Math.max(0, at - (pass > 0 ? after[pass - 1]! : 0));
}
