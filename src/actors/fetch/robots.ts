import robotsParserModule from 'robots-parser';
import { FetchError } from './errors.js';
import type { Layer, Step } from './types.js';

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}
// robots-parser is CommonJS (module.exports = fn) but its typings claim an ES default export.
const mod = robotsParserModule as unknown as { default?: unknown };
const robotsParser = (typeof mod === 'function' ? mod : mod.default) as (url: string, contents: string) => Robot;

export interface RobotsOptions {
  /** fetches one URL through the guarded, queued transport (no redirects, no robots) */
  fetch: Step;
  /** the product token matched against User-agent lines, e.g. 'newsagg' */
  productToken: string;
  ttlMs: number;
  /** how long a 5xx/429 robots.txt means "disallow all" before we ask again */
  unavailableTtlMs: number;
  maxBytes: number;
  /** deadline of one robots.txt load, which is shared by every caller waiting on it */
  timeoutMs: number;
  now: () => number;
  /** a robots.txt asked for a Crawl-delay on an origin (`scheme://host:port`) */
  onCrawlDelay: (origin: string, ms: number) => void;
  maxHosts?: number;
}

interface Entry { rules: Robot | 'allow' | { disallowedUntil: number; status: number }; expiresAt: number }

/** RFC 9309 §2.3.1.2: follow at least five redirects for robots.txt. */
const MAX_ROBOTS_REDIRECTS = 5;

/**
 * robots.txt per origin, cached with a TTL and fetched once even when many feeds of one site ask
 * at the same moment. 2xx → parse; 4xx → allow all; 429/5xx → disallow all for a while (RFC 9309
 * §2.3.1.3-4). Network and SSRF failures are not cached: they surface as the fetch's own error.
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();

  constructor(private readonly opts: RobotsOptions) {}

  /** Throws ROBOTS_DISALLOWED when `url` may not be fetched. */
  async check(url: URL, signal: AbortSignal): Promise<void> {
    if (url.pathname === '/robots.txt') return;
    const entry = await this.entryFor(url, signal);
    const rules = entry.rules;
    if (rules === 'allow') return;
    if ('disallowedUntil' in rules) {
      const retryAfterMs = Math.max(0, rules.disallowedUntil - this.opts.now());
      throw new FetchError('ROBOTS_DISALLOWED', `robots.txt of ${url.origin} unavailable (${rules.status}): crawling paused`, { url: url.href, retryAfterMs });
    }
    // robots-parser answers undefined for another origin; ours is always the same origin.
    if (rules.isAllowed(url.href, this.opts.productToken) === false) {
      throw new FetchError('ROBOTS_DISALLOWED', `robots.txt of ${url.origin} disallows ${url.pathname}`, { url: url.href, retryAfterMs: null });
    }
  }

  layer(): Layer {
    return (next) => async (req) => {
      await this.check(req.url, req.signal);
      return next(req);
    };
  }

  private async entryFor(url: URL, signal: AbortSignal): Promise<Entry> {
    const origin = url.origin;
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.opts.now()) return cached;
    let pending = this.inflight.get(origin);
    if (!pending) {
      // Own deadline, not the first caller's signal: the load is shared by everyone waiting on it.
      pending = this.load(url, AbortSignal.timeout(this.opts.timeoutMs)).finally(() => this.inflight.delete(origin));
      this.inflight.set(origin, pending);
    }
    const entry = await abortable(pending, signal);
    this.entries.delete(origin);
    this.entries.set(origin, entry);
    if (this.entries.size > (this.opts.maxHosts ?? 10_000)) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private async load(url: URL, signal: AbortSignal): Promise<Entry> {
    const robotsUrl = new URL('/robots.txt', url.origin);
    let target = robotsUrl;
    const now = this.opts.now;
    for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
      let res;
      try {
        res = await this.opts.fetch({ url: target, headers: { accept: 'text/plain, */*;q=0.5' }, signal, maxBodyBytes: this.opts.maxBytes });
      } catch (err) {
        // A robots.txt too big to read is treated as absent rather than blocking the site.
        if (err instanceof FetchError && err.code === 'FETCH_TOO_LARGE') return { rules: 'allow', expiresAt: now() + this.opts.ttlMs };
        throw err;
      }
      const { status } = res;
      const location = res.headers['location'];
      if (status >= 300 && status < 400 && location) {
        try {
          target = new URL(location, target);
        } catch {
          break;
        }
        continue;
      }
      if (status >= 200 && status < 300) {
        const robot = robotsParser(robotsUrl.href, res.body.toString('utf8'));
        const delay = robot.getCrawlDelay(this.opts.productToken);
        if (typeof delay === 'number' && delay > 0) this.opts.onCrawlDelay(url.origin, delay * 1000);
        return { rules: robot, expiresAt: now() + this.opts.ttlMs };
      }
      if (status === 429 || status >= 500) {
        const until = now() + this.opts.unavailableTtlMs;
        return { rules: { disallowedUntil: until, status }, expiresAt: until };
      }
      return { rules: 'allow', expiresAt: now() + this.opts.ttlMs };
    }
    // Too many or broken redirects: RFC 9309 treats it as "unavailable" (4xx) → allow.
    return { rules: 'allow', expiresAt: now() + this.opts.ttlMs };
  }
}

/** Waits for `p` unless `signal` fires first. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
