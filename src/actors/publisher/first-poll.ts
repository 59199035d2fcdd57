/**
 * When a publisher that was never polled gets its first poll. A feed just added (admin API, OPML
 * import, found at start) should show its articles within seconds, not after a tier interval:
 * its first poll comes at a random moment within `windowMs`, so feeds added together do not
 * all start in one tick. Feeds that share an origin (scheme, host, port) are also kept
 * `spacingMs` apart: each takes the free moment nearest its random one, so a site's feeds fill
 * the window one by one and only a site with more feeds than the window holds runs past it (a
 * pile of them in the site's politeness queue would time out there). Pure but for its memory of
 * planned first polls; time and randomness are passed in.
 */
export interface FirstPollOptions {
  /** distinct origins poll within this window (default 20 s) */
  windowMs?: number;
  /** first polls of one origin are at least this far apart (default 1 s: the fetcher's default crawl delay) */
  spacingMs?: number;
  random: () => number;
  /** origins remembered at most (those whose plans are all in the past are dropped first) */
  maxOrigins?: number;
}

/** Beyond this many planned first polls of one origin, a new one simply goes after the last. */
const MAX_SEARCH = 1_000;

export class FirstPolls {
  /** origin → planned first-poll moments still ahead (or within a spacing of now), ascending */
  private readonly planned = new Map<string, number[]>();
  private readonly windowMs: number;
  private readonly spacingMs: number;
  private readonly maxOrigins: number;

  constructor(private readonly opts: FirstPollOptions) {
    this.windowMs = Math.max(0, opts.windowMs ?? 20_000);
    this.spacingMs = Math.max(0, opts.spacingMs ?? 1_000);
    this.maxOrigins = opts.maxOrigins ?? 100_000;
  }

  /** The moment a never-polled feed at `url` polls first (within `windowMs`, default the planner's). */
  at(url: string, now: number, windowMs = this.windowMs): number {
    const want = now + Math.floor(this.opts.random() * Math.max(0, windowMs));
    const s = this.spacingMs;
    if (s === 0) return want;
    const origin = originOf(url);
    let taken = this.planned.get(origin);
    if (taken === undefined) {
      if (this.planned.size >= this.maxOrigins) this.prune(now);
      this.planned.set(origin, (taken = []));
    }
    // a plan more than a spacing ago constrains nothing from now on
    let past = 0;
    while (past < taken.length && taken[past]! <= now - s) past++;
    if (past > 0) taken.splice(0, past);
    const slot = taken.length >= MAX_SEARCH ? Math.max(want, taken[taken.length - 1]! + s) : nearestFree(taken, want, now, s);
    taken.splice(upperBound(taken, slot), 0, slot);
    return slot;
  }

  private prune(now: number): void {
    for (const [o, t] of this.planned) if (t.length === 0 || t[t.length - 1]! <= now) this.planned.delete(o);
    // still full of busy origins: forget the oldest entries rather than grow without bound
    for (const o of this.planned.keys()) {
      if (this.planned.size < this.maxOrigins) break;
      this.planned.delete(o);
    }
  }
}

/** first index whose value is above `x` */
function upperBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** No planned moment within `s` of `x` (`taken` ascending). */
function free(taken: readonly number[], x: number, s: number): boolean {
  const i = upperBound(taken, x);
  return (i === 0 || x - taken[i - 1]! >= s) && (i === taken.length || taken[i]! - x >= s);
}

/**
 * The moment at or after `lo`, at least `s` from every planned one, nearest `want` (the earlier on
 * a tie). Moments are kept on a grid of `s` from the first planned one, so they pack tightly.
 */
export function nearestFree(taken: readonly number[], want: number, lo: number, s: number): number {
  let target = Math.max(want, lo);
  if (taken.length > 0) {
    const a = taken[0]!;
    target = a + Math.round((target - a) / s) * s;
    if (target < lo) target += Math.ceil((lo - target) / s) * s;
  }
  if (free(taken, target, s)) return target;
  let best = Infinity;
  const consider = (x: number) => {
    if (x < lo || !free(taken, x, s)) return;
    const d = Math.abs(x - target);
    const bd = Math.abs(best - target);
    if (d < bd || (d === bd && x < best)) best = x;
  };
  for (const t of taken) {
    consider(t - s);
    consider(t + s);
  }
  return best;
}

/** `scheme://host:port` of a URL (default ports left out, as URL#origin does); the URL itself when unparseable. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
