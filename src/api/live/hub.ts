import uWS from 'uWebSockets.js';
import type { BreakingItem, LiveEvent, LiveEventSource } from '../../actors/store/live-events.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { TrustedProxies } from '../client-address.js';
import { normalizeAddress } from '../client-address.js';
import { RateLimiter } from '../rate-limit.js';
import { Fanout, newConnState, type ConnState } from './fanout.js';
import { newFrameBudget, spendFrame, type FrameBudget } from './frame-budget.js';
import { breakingTopics, errorFrame, parseFrame, storyTopics } from './protocol.js';
import { StoryThrottle } from './story-throttle.js';

/**
 * The live hub: WebSocket `/v1/live` on the node's uWS app (same port as HTTP). Clients
 * subscribe to topics; live events from every node (stories written, breaking news) arrive
 * through a LiveEventSource and are pushed to the matching connections (fanout.ts). Story
 * updates are gathered for `coalesceMs` and then sent at most once per story per
 * `storyIntervalMs` and at most `storyFramesPerSecond` in all, the latest state winning
 * (story-throttle.ts), so a story growing fast costs one frame per interval and a flood of
 * stories is paced; breaking frames are never held. Limits: upgrades per second and open
 * connections per client address, topics per connection, frame size, frames per second (a
 * sustained flood is closed with 1008, frame-budget.ts); uWS pings idle connections and closes
 * silent ones.
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
  /** at most one frame per story this often, its latest state (default 1,000 ms) */
  storyIntervalMs?: number;
  /** story frames a second in all, the rest waiting their turn (default 100; breaking frames are never paced) */
  storyFramesPerSecond?: number;
  /** stories whose update waits for its turn, at most (default 5,000; past it they go out early) */
  maxHeldStories?: number;
  /** WebSocket upgrades per second per client address, and the burst (default 1 and 16; rps 0 = no limit) */
  upgrades?: { rps: number; burst: number };
  /** `--trust-proxy`: the client address of an upgrade from these peers is taken from X-Forwarded-For */
  trustProxy?: TrustedProxies | null;
  /** frames a client may send per second (burst twice that; default 20) */
  framesPerSecond?: number;
  log?: Logger;
  metrics?: Metrics;
  now?: () => number;
}

interface Conn extends ConnState {
  ip: string;
  budget: FrameBudget;
}

type WS = uWS.WebSocket<Conn>;

export const LIVE_PATH = '/v1/live';

/** Close code for a frame over 16 times the limit (RFC 6455: message too big). */
export const TOO_BIG_CLOSE = 1009;
/** Close code for a sustained flood of frames (RFC 6455: policy violation). */
export const FLOOD_CLOSE = 1008;
/**
 * Frames the WebSocket layer reads at most (or 32 times the frame limit, if larger). A frame
 * between 16 times the limit and this is read and closed with 1009; beyond it, uWebSockets.js
 * drops the connection itself without a close frame (clients report 1006), as it does for
 * invalid UTF-8 in a text frame and for unknown opcodes.
 */
export const READ_CAP_BYTES = 1 << 20;

export class LiveHub {
  private readonly fanout: Fanout<WS>;
  private readonly all = new Set<WS>();
  private readonly perClient = new Map<string, number>();
  private readonly log: Logger;
  private readonly now: () => number;
  /** story updates waiting for their turn (one frame per story per interval) */
  private readonly stories: StoryThrottle;
  private readonly upgrades: RateLimiter;
  private flushTimer: NodeJS.Timeout | null = null;
  private flushAt = 0;
  private sweepTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private closing = false;
  private replies = 0;
  private received = 0;
  private readonly counters: { inc(what: string, n?: number): void };

  constructor(private readonly opts: LiveHubOptions) {
    this.log = opts.log ?? silentLogger;
    this.now = opts.now ?? Date.now;
    const c = opts.metrics?.counter('newsagg_live_frames_total', 'WebSocket frames and connections by outcome (sent, coalesced, closed_slow, closed_flood, closed_too_big, error, refused)', ['outcome']);
    this.counters = { inc: (what, n = 1) => c?.inc({ outcome: what }, n) };
    opts.metrics?.gauge('newsagg_live_connections', 'Open WebSocket connections', [], (g) => g.set(this.all.size));
    this.stories = new StoryThrottle({
      intervalMs: opts.storyIntervalMs ?? 1_000,
      perSecond: opts.storyFramesPerSecond ?? 100,
      maxHeld: opts.maxHeldStories ?? 5_000,
      now: this.now,
    });
    this.upgrades = new RateLimiter(opts.upgrades?.rps ?? 1, opts.upgrades?.burst ?? 16, this.now);
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

  /** Frames received from clients since start (each has been acted on when this counts it). */
  get framesReceived(): number {
    return this.received;
  }

  /** Connections currently behind (their updates coalesced). */
  get behind(): number {
    return this.fanout.behindCount;
  }

  subscribers(topic: string): number {
    return this.fanout.subscribers(topic);
  }

  /**
   * What the hub holds for its connections now: unsent bytes in uWS, updates waiting for a slow
   * connection, connections given up whose close frame waits for their buffer to drain, and
   * story updates waiting for their story's turn.
   */
  stats(): { connections: number; behind: number; closing: number; bufferedBytes: number; maxBufferedBytes: number; pendingUpdates: number; heldStories: number } {
    let bufferedBytes = 0;
    let maxBufferedBytes = 0;
    let pendingUpdates = 0;
    for (const ws of this.all) {
      const b = ws.getBufferedAmount();
      bufferedBytes += b;
      if (b > maxBufferedBytes) maxBufferedBytes = b;
      pendingUpdates += ws.getUserData().pending?.size ?? 0;
    }
    return {
      connections: this.all.size, behind: this.fanout.behindCount, closing: this.fanout.closingCount,
      bufferedBytes, maxBufferedBytes, pendingUpdates, heldStories: this.stories.size,
    };
  }

  /** Adds `/v1/live` to the app. */
  attach(app: uWS.TemplatedApp): void {
    const o = this.opts;
    app.ws<Conn>(LIVE_PATH, {
      compression: uWS.DISABLED,
      // frames up to 16x the answered size get an error frame, larger ones 1009 (read up to the cap; beyond, uWS drops the connection)
      maxPayloadLength: Math.max(READ_CAP_BYTES, o.maxFrameBytes * 32),
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

  /** Pushes one live event to the matching subscribers (stories when their turn comes). */
  onEvent(e: LiveEvent): void {
    if (this.closing) return;
    if (e.type === 'breaking') {
      const frame = JSON.stringify({ type: 'breaking', story: e.story, active: e.active });
      // a breaking alert is never held, and overtakes the story's update waiting
      this.stories.drop(e.story.story_id);
      this.fanout.deliver(breakingTopics(e.regions), `b:${e.story.story_id}`, frame);
      return;
    }
    for (const s of e.stories) {
      const id = s.item.story_id;
      this.stories.offer(id, storyTopics(id, s.item.category, s.regions), JSON.stringify({ type: 'story', story: s.item }));
    }
    this.schedule(this.opts.coalesceMs ?? 100);
  }

  /** Flushes after `delayMs` (real time), unless a flush is already due sooner: a new story never waits for a held one's turn. */
  private schedule(delayMs: number): void {
    if (this.stories.size === 0 || this.closing) return;
    const at = Date.now() + delayMs;
    if (this.flushTimer !== null) {
      if (this.flushAt <= at) return;
      clearTimeout(this.flushTimer);
    }
    this.flushAt = at;
    this.flushTimer = setTimeout(() => this.flush(), delayMs);
    this.flushTimer.unref();
  }

  private flush(): void {
    this.flushTimer = null;
    for (const { id, topics, frame } of this.stories.take()) this.fanout.deliver(topics, `s:${id}`, frame);
    const next = this.stories.nextDue();
    if (next !== null) this.schedule(Math.max(this.opts.coalesceMs ?? 100, next - this.now()));
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
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const ip = this.opts.trustProxy ? this.opts.trustProxy.clientOf(peer, req.getHeader('x-forwarded-for') || undefined) : normalizeAddress(peer);
    const refuse = (status: string, code: string, message: string, extra: Record<string, string> = {}) => {
      res.cork(() => {
        res.writeStatus(status).writeHeader('content-type', 'application/json; charset=utf-8').writeHeader('cache-control', 'no-store');
        for (const [k, v] of Object.entries(extra)) res.writeHeader(k, v);
        res.end(JSON.stringify({ error: { code, message } }));
      });
    };
    if (this.closing) return refuse('503 Service Unavailable', 'unavailable', 'the server is shutting down', { 'retry-after': '5' });
    const wait = this.upgrades.take(ip);
    if (wait > 0) {
      this.counters.inc('refused');
      return refuse('429 Too Many Requests', 'rate_limited', 'too many live connections opened from this client; slow down', { 'retry-after': String(Math.ceil(wait / 1000)) });
    }
    const open = this.perClient.get(ip) ?? 0;
    if (open >= this.opts.maxConnectionsPerClient) {
      this.counters.inc('refused');
      return refuse('429 Too Many Requests', 'too_many_connections', `at most ${this.opts.maxConnectionsPerClient} live connections per client`, { 'retry-after': '30' });
    }
    this.perClient.set(ip, open + 1);
    const conn: Conn = { ...newConnState(), ip, budget: newFrameBudget(this.rate(), this.now()) };
    res.upgrade<Conn>(conn, key, protocol, extensions, context);
  }

  private rate(): number {
    return this.opts.framesPerSecond ?? 20;
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
    try {
      this.act(ws, data, isBinary);
    } finally {
      this.received++;
    }
  }

  private act(ws: WS, data: ArrayBuffer, isBinary: boolean): void {
    const c = ws.getUserData();
    // given up (too slow), its close frame waiting for its buffer to drain: nothing it asks for matters now
    if (!c.open) return;
    if (data.byteLength > 16 * this.opts.maxFrameBytes) {
      this.counters.inc('closed_too_big');
      this.fanout.remove(ws);
      ws.end(TOO_BIG_CLOSE, 'frame too large');
      return;
    }
    const v = spendFrame(c.budget, this.rate(), this.now());
    if (v.kind === 'flood') {
      this.counters.inc('closed_flood');
      this.fanout.remove(ws);
      ws.end(FLOOD_CLOSE, 'too many frames');
      return;
    }
    if (v.kind === 'refused') {
      if (v.warn) this.sendError(ws, { code: 'rate_limited', message: `at most ${this.rate()} frames per second` });
      return;
    }
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
