/**
 * When a publisher that was never polled gets its first poll. A feed just added (admin API, OPML
 * import, found at start) should show its articles within seconds, not after a tier interval:
 * its first poll comes at a random moment within `windowMs`, so feeds added together do not
 * all start in one tick. Feeds that share an origin (scheme, host, port) are also spaced
 * `spacingMs` apart, one after the other, so a list of many feeds of one site does not pile up
 * in that site's politeness queue (and time out there); only they may be spread past the window.
 * Pure but for its memory of origins; time and randomness are passed in.
 */
export interface FirstPollOptions {
  /** distinct origins poll within this window (default 20 s) */
  windowMs?: number;
  /** first polls of one origin are at least this far apart (default 1 s: the fetcher's default crawl delay) */
  spacingMs?: number;
  random: () => number;
  /** origins remembered at most (the ones whose slots are in the past are dropped first) */
  maxOrigins?: number;
}

export class FirstPolls {
  /** origin → the earliest moment its next first poll may start */
  private readonly free = new Map<string, number>();
  private readonly windowMs: number;
  private readonly spacingMs: number;
  private readonly maxOrigins: number;

  constructor(private readonly opts: FirstPollOptions) {
    this.windowMs = Math.max(0, opts.windowMs ?? 20_000);
    this.spacingMs = Math.max(0, opts.spacingMs ?? 1_000);
    this.maxOrigins = opts.maxOrigins ?? 100_000;
  }

  /** The moment a never-polled feed at `url` polls first. */
  at(url: string, now: number): number {
    const origin = originOf(url);
    const soonest = now + Math.floor(this.opts.random() * this.windowMs);
    const free = this.free.get(origin);
    const slot = free === undefined ? soonest : Math.max(free, now);
    if (this.spacingMs > 0) {
      if (this.free.size >= this.maxOrigins && free === undefined) this.prune(now);
      this.free.set(origin, slot + this.spacingMs);
    }
    return slot;
  }

  private prune(now: number): void {
    for (const [o, t] of this.free) if (t <= now) this.free.delete(o);
    // still full of busy origins: forget the oldest entries rather than grow without bound
    for (const o of this.free.keys()) {
      if (this.free.size < this.maxOrigins) break;
      this.free.delete(o);
    }
  }
}

/** `scheme://host:port` of a URL (default ports left out, as URL#origin does); the URL itself when unparseable. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
