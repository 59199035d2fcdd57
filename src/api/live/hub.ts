import uWS from 'uWebSockets.js';
import type { BreakingItem, LiveEvent, LiveEventSource } from '../../actors/store/live-events.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import { Fanout, newConnState, type ConnState } from './fanout.js';
import { breakingTopics, errorFrame, parseFrame, storyTopics } from './protocol.js';

/**
 * The live hub: WebSocket `/v1/live` on the node's uWS app (same port as HTTP). Clients
 * subscribe to topics; live events from every node (stories written, breaking news) arrive
 * through a LiveEventSource and are pushed to the matching connections (fanout.ts). Story
 * updates are coalesced for `coalesceMs` so a story growing fast costs one frame per interval.
 * Limits: topics per connection, frame size, frames per second, connections per client address;
 * uWS pings idle connections and closes silent ones.
 */

export interface LiveHubOptions {
  maxSubscriptions: number;
  maxFrameBytes: number;
  maxConnectionsPerClient: number;
  maxBufferBytes: number;
  heartbeatSeconds: number;
  /** breaking stories now, for a client that subscribes to a breaking topic ('global' = all) */
  breaking?: (region: string) => Promise<BreakingItem[]>;
  /** story updates are gathered this long before they are pushed (default 100 ms) */
  coalesceMs?: number;
  /** frames a client may send per second (burst twice that; default 20) */
  framesPerSecond?: number;
  log?: Logger;
  metrics?: Metrics;
  now?: () => number;
}

interface Conn extends ConnState {
  ip: string;
  tokens: number;
  tokensAt: number;
  /** error frames sent for exceeding the frame rate: a client that keeps on is closed */
  strikes: number;
}

type WS = uWS.WebSocket<Conn>;

export const LIVE_PATH = '/v1/live';

export class LiveHub {
  private readonly fanout: Fanout<WS>;
  private readonly all = new Set<WS>();
  private readonly perClient = new Map<string, number>();
  private readonly log: Logger;
  private readonly now: () => number;
  /** story id -> latest frame and topics, waiting for the next flush */
  private queued = new Map<string, { topics: string[]; frame: string }>();
  private flushTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private closing = false;
  private replies = 0;
  private readonly counters: { inc(what: string, n?: number): void };

  constructor(private readonly opts: LiveHubOptions) {
    this.log = opts.log ?? silentLogger;
    this.now = opts.now ?? Date.now;
    const c = opts.metrics?.counter('newsagg_live_frames_total', 'WebSocket frames by outcome (sent, coalesced, closed_slow, error)', ['outcome']);
    this.counters = { inc: (what, n = 1) => c?.inc({ outcome: what }, n) };
    opts.metrics?.gauge('newsagg_live_connections', 'Open WebSocket connections', [], (g) => g.set(this.all.size));
    this.fanout = new Fanout<WS>((ws) => ws.getUserData(), {
      maxBufferBytes: opts.maxBufferBytes,
      stallMs: Math.max(30_000, opts.heartbeatSeconds * 2000),
      now: this.now,
      onEvent: (what, n) => this.counters.inc(what, n),
    });
  }

  /** Open connections. */
  get connections(): number {
    return this.all.size;
  }

  /** Connections currently behind (their updates coalesced). */
  get behind(): number {
    return this.fanout.behindCount;
  }

  subscribers(topic: string): number {
    return this.fanout.subscribers(topic);
  }

  /** What the hub holds for its connections now: unsent bytes in uWS, and updates waiting to be coalesced. */
  stats(): { connections: number; behind: number; bufferedBytes: number; maxBufferedBytes: number; pendingUpdates: number } {
    let bufferedBytes = 0;
    let maxBufferedBytes = 0;
    let pendingUpdates = 0;
    for (const ws of this.all) {
      const b = ws.getBufferedAmount();
      bufferedBytes += b;
      if (b > maxBufferedBytes) maxBufferedBytes = b;
      pendingUpdates += ws.getUserData().pending?.size ?? 0;
    }
    return { connections: this.all.size, behind: this.fanout.behindCount, bufferedBytes, maxBufferedBytes, pendingUpdates };
  }

  /** Adds `/v1/live` to the app. */
  attach(app: uWS.TemplatedApp): void {
    const o = this.opts;
    app.ws<Conn>(LIVE_PATH, {
      compression: uWS.DISABLED,
      // frames up to 16x the answered size are read (and refused with an error frame); beyond, uWS closes
      maxPayloadLength: o.maxFrameBytes * 16,
      // a hard cap behind the fan-out's own limit: what it sends at most after the limit is one frame
      maxBackpressure: o.maxBufferBytes * 4 + 1024 * 1024,
      closeOnBackpressureLimit: 1,
      idleTimeout: o.heartbeatSeconds,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => this.upgrade(res, req, context),
      open: (ws) => {
        this.all.add(ws);
      },
      message: (ws, message, isBinary) => this.message(ws, message, isBinary),
      drain: (ws) => this.fanout.drain(ws),
      close: (ws) => this.closed(ws),
    });
    this.sweepTimer = setInterval(() => this.fanout.sweep(), 5_000);
    this.sweepTimer.unref();
  }

  /** Listens to live events from every node. */
  async start(source: LiveEventSource): Promise<void> {
    this.unsubscribe = await source.subscribe((e) => this.onEvent(e));
  }

  /** Pushes one live event to the matching subscribers (stories after the coalescing interval). */
  onEvent(e: LiveEvent): void {
    if (this.closing) return;
    if (e.type === 'breaking') {
      const frame = JSON.stringify({ type: 'breaking', story: e.story, active: e.active });
      // a breaking alert overtakes queued updates of the same story
      this.queued.delete(e.story.story_id);
      this.fanout.deliver(breakingTopics(e.regions), `b:${e.story.story_id}`, frame);
      return;
    }
    for (const s of e.stories) {
      const id = s.item.story_id;
      this.queued.delete(id);
      this.queued.set(id, { topics: storyTopics(id, s.item.category, s.regions), frame: JSON.stringify({ type: 'story', story: s.item }) });
    }
    if (this.flushTimer === null && this.queued.size > 0) {
      this.flushTimer = setTimeout(() => this.flush(), this.opts.coalesceMs ?? 100);
      this.flushTimer.unref();
    }
  }

  private flush(): void {
    this.flushTimer = null;
    const q = this.queued;
    this.queued = new Map();
    for (const [id, { topics, frame }] of q) this.fanout.deliver(topics, `s:${id}`, frame);
  }

  /** Closes every connection (1001 going away) and stops listening to events. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const ws of [...this.all]) {
      try {
        ws.end(1001, 'server shutting down');
      } catch {
        // already closed
      }
    }
    await this.unsubscribe?.().catch(() => {});
  }

  private upgrade(res: uWS.HttpResponse, req: uWS.HttpRequest, context: uWS.us_socket_context_t): void {
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    const ip = Buffer.from(res.getRemoteAddressAsText()).toString();
    const refuse = (status: string, code: string, message: string, extra: Record<string, string> = {}) => {
      res.cork(() => {
        res.writeStatus(status).writeHeader('content-type', 'application/json; charset=utf-8').writeHeader('cache-control', 'no-store');
        for (const [k, v] of Object.entries(extra)) res.writeHeader(k, v);
        res.end(JSON.stringify({ error: { code, message } }));
      });
    };
    if (this.closing) return refuse('503 Service Unavailable', 'unavailable', 'the server is shutting down', { 'retry-after': '5' });
    const open = this.perClient.get(ip) ?? 0;
    if (open >= this.opts.maxConnectionsPerClient) {
      this.counters.inc('refused');
      return refuse('429 Too Many Requests', 'too_many_connections', `at most ${this.opts.maxConnectionsPerClient} live connections per client`, { 'retry-after': '30' });
    }
    this.perClient.set(ip, open + 1);
    const conn: Conn = { ...newConnState(), ip, tokens: this.burst(), tokensAt: this.now(), strikes: 0 };
    res.upgrade<Conn>(conn, key, protocol, extensions, context);
  }

  private burst(): number {
    return 2 * (this.opts.framesPerSecond ?? 20);
  }

  private closed(ws: WS): void {
    const c = ws.getUserData();
    this.all.delete(ws);
    this.fanout.remove(ws);
    const n = (this.perClient.get(c.ip) ?? 1) - 1;
    if (n <= 0) this.perClient.delete(c.ip);
    else this.perClient.set(c.ip, n);
  }

  /** A reply to the client's own frame: never replaced by another while the connection is behind. */
  private reply(ws: WS, frame: string): void {
    this.fanout.sendTo(ws, `r:${++this.replies}`, frame);
  }

  private message(ws: WS, data: ArrayBuffer, isBinary: boolean): void {
    const c = ws.getUserData();
    // frame rate: a token bucket per connection; a client that keeps flooding is closed
    const now = this.now();
    const rate = this.opts.framesPerSecond ?? 20;
    c.tokens = Math.min(this.burst(), c.tokens + ((now - c.tokensAt) / 1000) * rate);
    c.tokensAt = now;
    if (c.tokens < 1) {
      if (++c.strikes > 3 * rate) {
        this.fanout.remove(ws);
        ws.end(1008, 'too many frames');
        return;
      }
      if (c.strikes === 1) this.sendError(ws, { code: 'rate_limited', message: `at most ${rate} frames per second` });
      return;
    }
    c.tokens -= 1;
    c.strikes = 0;
    const f = parseFrame(data, isBinary, this.opts.maxFrameBytes);
    if ('error' in f) return this.sendError(ws, f.error);
    if (f.type === 'ping') return this.reply(ws, '{"type":"pong"}');
    if (f.type === 'unsubscribe') {
      this.fanout.unsubscribe(ws, f.topics);
      return this.reply(ws, JSON.stringify({ type: 'unsubscribed', topics: f.topics }));
    }
    const fresh = f.topics.filter((t) => !c.topics.has(t));
    if (c.topics.size + fresh.length > this.opts.maxSubscriptions) {
      return this.sendError(ws, { code: 'too_many_subscriptions', message: `at most ${this.opts.maxSubscriptions} topics per connection` });
    }
    this.fanout.subscribe(ws, f.topics);
    this.reply(ws, JSON.stringify({ type: 'subscribed', topics: f.topics }));
    const regions = fresh.filter((t) => t === 'breaking' || t.startsWith('breaking:')).map((t) => (t === 'breaking' ? 'global' : t.slice(9)));
    if (regions.length > 0) void this.replayBreaking(ws, regions);
  }

  /** A client that subscribes to a breaking topic hears about the stories breaking now. */
  private async replayBreaking(ws: WS, regions: string[]): Promise<void> {
    if (!this.opts.breaking) return;
    // a closed uWS socket throws on any call: its state object says whether it is still open
    const c = ws.getUserData();
    try {
      const region = regions.includes('global') ? 'global' : null;
      const lists = await Promise.all((region ? [region] : regions).map((r) => this.opts.breaking!(r)));
      if (!c.open) return;
      const seen = new Set<string>();
      ws.cork(() => {
        for (const list of lists) {
          for (const item of list) {
            if (seen.has(item.story_id)) continue;
            seen.add(item.story_id);
            this.fanout.sendTo(ws, `b:${item.story_id}`, JSON.stringify({ type: 'breaking', story: item, active: true }));
          }
        }
      });
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'breaking replay failed');
    }
  }

  private sendError(ws: WS, error: { code: string; message: string }): void {
    this.counters.inc('error');
    this.reply(ws, errorFrame(error));
  }
}
