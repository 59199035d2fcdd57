import { Agent, request, type Dispatcher } from 'undici';
import type { Metrics } from '../../runtime/metrics.js';
import { bodyLimit } from './body-limit.js';
import { conditional } from './conditional.js';
import { FetchError, toFetchError } from './errors.js';
import { freshness, parseContentType, parseRetryAfter } from './headers.js';
import { HostQueue } from './host-queue.js';
import { redirects } from './redirect.js';
import { RobotsCache } from './robots.js';
import { SsrfGuard } from './ssrf.js';
import { statusErrors } from './status.js';
import { transport } from './transport.js';
import { compose, type FetchRequest, type FetchResult, type FetcherOptions, type Step } from './types.js';
import { checkUrl, urlPolicy } from './url-policy.js';

const MiB = 1024 * 1024;
const DEFAULT_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5';

/** Resolved options: every default in one place. */
function resolve(o: FetcherOptions) {
  return {
    maxBodyBytes: o.maxBodyBytes ?? 5 * MiB,
    connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
    headersTimeoutMs: o.headersTimeoutMs ?? 15_000,
    bodyTimeoutMs: o.bodyTimeoutMs ?? 15_000,
    totalTimeoutMs: o.totalTimeoutMs ?? 60_000,
    maxRedirects: o.maxRedirects ?? 5,
    perHostConcurrency: o.perHostConcurrency ?? 2,
    crawlDelayMs: o.crawlDelayMs ?? 1000,
    respectRobots: o.respectRobots ?? true,
    robotsTtlMs: o.robotsTtlMs ?? 24 * 3600_000,
    now: o.now ?? Date.now,
  };
}

/** 'newsagg/0.1 (+https://…)' → 'newsagg': the token robots.txt groups are matched against. */
function productToken(userAgent: string): string {
  return /^[^\s/]+/.exec(userAgent.trim())?.[0] ?? 'newsagg';
}

/**
 * The safe, polite fetcher: one undici Agent (SSRF-guarded connector, timeouts, wire-size cap)
 * wrapped in layers, outermost first: conditional GET → status → redirects → per hop
 * (URL policy → robots.txt → per-origin queue → transport with decompression cap).
 */
export class Fetcher {
  private readonly agent: Agent;
  private readonly queue: HostQueue;
  private readonly step: Step;
  private readonly guard: SsrfGuard;
  private readonly cfg: ReturnType<typeof resolve>;
  private readonly duration: ReturnType<Metrics['histogram']> | null;
  private readonly dispatcher: Dispatcher;
  private readonly userAgent: string;

  constructor(opts: FetcherOptions & { metrics?: Metrics }) {
    if (!opts.userAgent?.trim()) throw new FetchError('FETCH_BAD_URL', 'a User-Agent naming the project and a contact URL is required');
    const cfg = (this.cfg = resolve(opts));
    this.guard = new SsrfGuard(opts.allowlist ?? [], opts.lookup, cfg.connectTimeoutMs);
    this.agent = new Agent({
      connect: this.guard.connector({ timeout: cfg.connectTimeoutMs }),
      headersTimeout: cfg.headersTimeoutMs,
      bodyTimeout: cfg.bodyTimeoutMs,
    });
    const dispatcher: Dispatcher = (this.dispatcher = this.agent.compose(bodyLimit({ maxBodyBytes: cfg.maxBodyBytes })));
    this.userAgent = opts.userAgent;
    const base = transport(dispatcher, opts.userAgent);
    this.queue = new HostQueue({ concurrency: cfg.perHostConcurrency, delayMs: cfg.crawlDelayMs, now: cfg.now });
    const robots = cfg.respectRobots
      ? new RobotsCache({
          fetch: compose(urlPolicy(this.guard), this.queue.layer())(base),
          productToken: productToken(opts.userAgent),
          ttlMs: cfg.robotsTtlMs,
          unavailableTtlMs: 10 * 60_000,
          maxBytes: 512 * 1024,
          timeoutMs: cfg.totalTimeoutMs,
          now: cfg.now,
          onCrawlDelay: (origin, ms) => this.queue.setCrawlDelay(origin, ms),
        })
      : null;
    const hop = compose(urlPolicy(this.guard), ...(robots ? [robots.layer()] : []), this.queue.layer())(base);
    this.step = compose(conditional(), statusErrors(cfg.now), redirects(cfg.maxRedirects))(hop);
    this.duration = opts.metrics?.histogram('newsagg_fetch_duration_seconds', 'Feed fetch duration by outcome', ['outcome']) ?? null;
  }

  /** The spacing between request starts to one origin (robots.txt Crawl-delay may raise it per origin). */
  get crawlDelayMs(): number {
    return this.cfg.crawlDelayMs;
  }

  /** The deadline of one whole fetch (redirects and queueing included). */
  get deadlineMs(): number {
    return this.cfg.totalTimeoutMs;
  }

  /**
   * POSTs a small form through the same SSRF guard, timeouts and size cap (WebSub subscription
   * requests to a hub a feed named). No redirects are followed: a hub answers where it is asked.
   */
  async postForm(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<{ status: number; body: string }> {
    const u = checkUrl(url, this.guard);
    try {
      const res = await request(u, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers, 'user-agent': this.userAgent },
        body,
        signal: AbortSignal.timeout(this.cfg.totalTimeoutMs),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text.slice(0, 4096) };
    } catch (err) {
      throw toFetchError(err, u.href, null);
    }
  }

  /** GETs one feed URL; resolves with the answer (200 or 304) or rejects with a coded FetchError. */
  async fetch(req: FetchRequest): Promise<FetchResult> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      const result = await this.run(req);
      if (result.notModified) outcome = 'not_modified';
      return result;
    } catch (err) {
      outcome = err instanceof FetchError ? err.code : 'error';
      throw err;
    } finally {
      this.duration?.observe({ outcome }, (performance.now() - started) / 1000);
    }
  }

  private async run(req: FetchRequest): Promise<FetchResult> {
    const url = checkUrl(req.url, this.guard);
    // One controller fed by the caller's signal and our deadline; listeners are removed after the
    // fetch so a long-lived caller signal (node shutdown) does not collect one per fetch.
    const ctl = new AbortController();
    const deadline = setTimeout(() => ctl.abort(new FetchError('FETCH_TIMEOUT', `fetch of ${url.href} exceeded ${this.cfg.totalTimeoutMs} ms`, { url: url.href })), this.cfg.totalTimeoutMs);
    const onCallerAbort = () => ctl.abort(req.signal?.reason);
    if (req.signal?.aborted) onCallerAbort();
    else req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const signal = ctl.signal;
    let res;
    try {
      res = await this.step({
        url,
        headers: { accept: req.accept ?? DEFAULT_ACCEPT },
        signal,
        maxBodyBytes: this.cfg.maxBodyBytes,
        validators: { etag: req.etag ?? null, lastModified: req.lastModified ?? null },
      });
    } catch (err) {
      throw toFetchError(err, url.href, req.signal?.aborted ? 'caller' : signal.aborted ? 'deadline' : null);
    } finally {
      clearTimeout(deadline);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
    const now = this.cfg.now();
    const h = res.headers;
    const { contentType, charset } = parseContentType(h['content-type']);
    const { maxAgeMs, expiresAt } = freshness(h, now);
    return {
      status: res.status,
      url: res.url.href,
      permanentRedirect: res.permanentRedirect?.href ?? null,
      notModified: res.status === 304,
      body: res.body,
      contentType,
      charset,
      etag: h['etag'] ?? null,
      lastModified: h['last-modified'] ?? null,
      maxAgeMs,
      expiresAt,
      retryAfterMs: parseRetryAfter(h['retry-after'], now),
      headers: h,
    };
  }

  /** Closes idle and active connections and rejects fetches still waiting for a host slot. */
  async close(): Promise<void> {
    this.queue.close(new FetchError('FETCH_ABORTED', 'fetcher closed'));
    await this.agent.close();
  }
}
