/**
 * Token buckets per client (API token, else IP): `rps` tokens per second up to `burst`. Pure
 * maths with an injected clock; idle buckets are swept so memory stays bounded under many IPs.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    private readonly rps: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
    private readonly maxClients = 100_000,
  ) {
    this.lastSweep = now();
  }

  /** Take one token; returns 0 when allowed, else the milliseconds until a token is available. */
  take(client: string): number {
    if (this.rps <= 0) return 0;
    const b = this.refill(client);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return this.waitFor(b);
  }

  /** What `take` would answer, without taking: 0 when a token is there now. */
  peek(client: string): number {
    if (this.rps <= 0) return 0;
    const b = this.refill(client);
    return b.tokens >= 1 ? 0 : this.waitFor(b);
  }

  /** Gives back a token taken for work that turned out not to be the client's to pay (up to the burst). */
  refund(client: string): void {
    const b = this.buckets.get(client);
    if (b) b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  private refill(client: string): { tokens: number; at: number } {
    const t = this.now();
    if (t - this.lastSweep > 60_000 || this.buckets.size > this.maxClients) this.sweep(t);
    let b = this.buckets.get(client);
    if (!b) this.buckets.set(client, (b = { tokens: this.burst, at: t }));
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.rps);
    b.at = t;
    return b;
  }

  private waitFor(b: { tokens: number }): number {
    return Math.ceil(((1 - b.tokens) / this.rps) * 1000);
  }

  private sweep(t: number): void {
    this.lastSweep = t;
    const full = (this.burst / this.rps) * 1000;
    for (const [k, b] of this.buckets) if (t - b.at > full) this.buckets.delete(k);
    if (this.buckets.size > this.maxClients) this.buckets.clear();
  }
}
