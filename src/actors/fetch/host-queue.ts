import { FetchError } from './errors.js';
import type { Layer } from './types.js';

export interface HostQueueOptions {
  /** requests in flight per origin at once */
  concurrency: number;
  /** minimum spacing between request starts to one origin */
  delayMs: number;
  now: () => number;
  /** remembered robots Crawl-delays are forgotten beyond this many origins (oldest first) */
  maxHosts?: number;
}

interface Waiter { start: () => void; fail: (err: unknown) => void; signal: AbortSignal | undefined; onAbort: () => void }
interface HostState { active: number; lastStart: number; waiting: Waiter[]; timer: NodeJS.Timeout | null }

/** Longest Crawl-delay we obey; a robots.txt asking for more would starve every feed on the host. */
export const MAX_CRAWL_DELAY_MS = 60_000;

/**
 * Per-origin politeness: at most `concurrency` requests in flight to an origin (scheme, host and
 * port, as robots.txt is per origin), and starts spaced by at least the crawl delay (the larger of
 * the configured one and the origin's robots Crawl-delay). FIFO per origin; origins never wait on
 * each other. Idle origins are forgotten so memory follows the number of busy origins, not of
 * origins ever seen. (The queue's keys are opaque: `host` below is whatever key the layer uses.)
 */
export class HostQueue {
  private readonly hosts = new Map<string, HostState>();
  private readonly crawlDelays = new Map<string, number>();

  constructor(private readonly opts: HostQueueOptions) {}

  /** Raises the spacing for one host (from robots.txt Crawl-delay), capped at {@link MAX_CRAWL_DELAY_MS}. */
  setCrawlDelay(host: string, ms: number): void {
    this.crawlDelays.delete(host);
    if (!(ms > 0)) return;
    this.crawlDelays.set(host, Math.min(ms, MAX_CRAWL_DELAY_MS));
    if (this.crawlDelays.size > (this.opts.maxHosts ?? 10_000)) this.crawlDelays.delete(this.crawlDelays.keys().next().value!);
  }

  delayFor(host: string): number {
    return Math.max(this.opts.delayMs, this.crawlDelays.get(host) ?? 0);
  }

  /** Waits for a slot on `host`; the returned function releases it (call exactly once). */
  acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, lastStart: -Infinity, waiting: [], timer: null };
      this.hosts.set(host, state);
    }
    const s = state;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            s.active--;
            this.pump(host, s);
          });
        },
        fail: reject,
        onAbort: () => {
          const i = s.waiting.indexOf(waiter);
          if (i >= 0) s.waiting.splice(i, 1);
          reject(signal?.reason ?? new FetchError('FETCH_ABORTED', `wait for ${host} aborted`));
          this.pump(host, s);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      s.waiting.push(waiter);
      s.timer?.ref(); // an idle-cleanup timer now gates a waiter: it must keep the process alive
      this.pump(host, s);
    });
  }

  private pump(host: string, s: HostState): void {
    if (s.timer) return; // a timer will pump when the spacing has passed
    while (s.waiting.length > 0 && s.active < this.opts.concurrency) {
      const wait = s.lastStart + this.delayFor(host) - this.opts.now();
      if (wait > 0) {
        s.timer = setTimeout(() => {
          s.timer = null;
          this.pump(host, s);
        }, wait);
        return;
      }
      const next = s.waiting.shift()!;
      s.active++;
      s.lastStart = this.opts.now();
      next.start();
    }
    if (s.active !== 0 || s.waiting.length !== 0) return;
    // Idle: forget the host once its spacing has passed, not before (the next start must still wait).
    const left = s.lastStart + this.delayFor(host) - this.opts.now();
    if (left <= 0) {
      this.hosts.delete(host);
      return;
    }
    s.timer = setTimeout(() => {
      s.timer = null;
      this.pump(host, s);
    }, left);
    s.timer.unref();
  }

  /** Hosts with requests in flight or waiting (for metrics and tests). */
  get busyHosts(): number {
    return this.hosts.size;
  }

  /**
   * Keys the queue by origin (`scheme://host:port`, default ports left out): two sites served on
   * different ports of one address are two sites, as they are to robots.txt (RFC 9309 §2.3).
   */
  layer(): Layer {
    return (next) => async (req) => {
      const release = await this.acquire(req.url.origin, req.signal);
      try {
        return await next(req);
      } finally {
        release();
      }
    };
  }

  /** Rejects everything still waiting (used by Fetcher.close). */
  close(reason: Error): void {
    for (const s of this.hosts.values()) {
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
      for (const w of s.waiting.splice(0)) {
        w.signal?.removeEventListener('abort', w.onAbort);
        w.fail(reason);
      }
    }
    this.hosts.clear();
  }
}
