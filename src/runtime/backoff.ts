/**
 * Bounded exponential backoff with jitter: min * 2^(attempt-1), capped at max, then spread by
 * ±jitter so restarts and retries across many actors do not align. Pure; `random` is injected.
 */
export function backoffDelay(
  attempt: number,
  opts: { minMs: number; maxMs: number; jitter?: number },
  random: () => number = Math.random,
): number {
  if (attempt <= 0) return 0;
  const base = Math.min(opts.maxMs, opts.minMs * 2 ** Math.min(attempt - 1, 30));
  const j = opts.jitter ?? 0.2;
  const spread = base * j * (2 * random() - 1);
  return Math.max(0, Math.min(opts.maxMs, Math.round(base + spread)));
}
