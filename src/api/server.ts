import uWS from 'uWebSockets.js';
import { NewsaggError } from '../runtime/errors.js';
import { silentLogger } from '../runtime/log.js';
import { Exchange } from './exchange.js';
import { UNMATCHED, type HttpMetrics } from './http-metrics.js';
import { errorReply, toErrorReply, type Reply } from './reply.js';
import type { Router } from './router.js';
import type { Logger } from '../runtime/log.js';

/**
 * The HTTP base on uWebSockets.js: a tiny router (method + `/path/:param` patterns), lazy query
 * parsing, capped body reading, JSON replies and errors. uWS hands out `req` only for the
 * synchronous part of a callback, so everything a handler may need later is copied up front,
 * and nothing is written after the client went away.
 */

/** `LIBUS_LISTEN_EXCLUSIVE_PORT`: exported at runtime, only as an enum member in the typings */
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

export interface HttpServerOptions {
  host: string;
  port: number;
  router: Router;
  log?: Logger;
  bodyLimitBytes?: number;
  /** request counts and durations by route pattern */
  metrics?: HttpMetrics;
}

/**
 * The node's HTTP server. `app` is exposed so the live hub can add its WebSocket route (`app.ws`).
 * `close()` stops accepting, waits for requests in flight (bounded), then closes every socket.
 */
export class HttpServer {
  readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | null = null;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private boundPort = 0;
  private closed = false;
  private readonly closeHooks: (() => void | Promise<void>)[] = [];
  private readonly unmatched: number;
  /** bound once: every request's exchange calls it when it is done */
  private readonly finished = (ex: Exchange): void => {
    this.opts.metrics?.observe(ex.route < 0 ? this.unmatched : ex.route, ex.status, (performance.now() - ex.startedAt) / 1000);
    if (--this.inFlight === 0 && this.drained) this.drained();
  };

  constructor(private readonly opts: HttpServerOptions) {
    this.unmatched = opts.metrics?.routeId(UNMATCHED) ?? -1;
    this.app = uWS.App();
    this.app.any('/*', (res, req) => this.handle(res, req));
  }

  /** The port actually bound (useful with port 0). */
  get port(): number {
    return this.boundPort;
  }

  /** Runs when the server closes, after the listening socket (the live hub says goodbye to its WebSocket clients). */
  beforeClose(fn: () => void | Promise<void>): void {
    this.closeHooks.push(fn);
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      // exclusive: uWS otherwise sets SO_REUSEPORT, and a second node on the same port would
      // silently share it instead of failing at start
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, cb: (t: uWS.us_listen_socket | false) => void) => void;
      listen.call(this.app, this.opts.host, this.opts.port, EXCLUSIVE_PORT, (token) => {
        if (!token) {
          reject(new NewsaggError('LISTEN_FAILED', `cannot listen on ${this.opts.host}:${this.opts.port} (in use or not permitted)`));
          return;
        }
        this.listenSocket = token;
        this.boundPort = uWS.us_socket_local_port(token);
        resolve(this.boundPort);
      });
    });
  }

  /** Stops intake now; waits up to `graceMs` for requests in flight; then closes all connections. */
  async close(graceMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.listenSocket) {
      uWS.us_listen_socket_close(this.listenSocket);
      this.listenSocket = null;
    }
    for (const hook of this.closeHooks.splice(0)) await Promise.resolve(hook()).catch(() => {});
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    (this.app as uWS.TemplatedApp & { close(): void }).close(); // missing from the typings
  }

  private handle(res: uWS.HttpResponse, req: uWS.HttpRequest): void {
    const log = this.opts.log ?? silentLogger;
    const exchange = new Exchange(res, req, this.opts.bodyLimitBytes ?? 1 << 20, this.finished);
    this.inFlight++;
    let out: Reply | Promise<Reply>;
    try {
      const m = this.opts.router.match(exchange.method, exchange.path);
      if (m === null) out = errorReply(404, 'not_found', `no route for ${exchange.method} ${exchange.path}`);
      else if ('allowed' in m) out = errorReply(405, 'method_not_allowed', `${exchange.method} is not allowed on ${exchange.path}`, { allow: m.allowed.join(', ') });
      else {
        exchange.params = m.params;
        if (this.opts.metrics !== undefined) exchange.route = this.opts.metrics.routeId(m.pattern);
        out = m.handler(exchange);
      }
    } catch (err) {
      out = toErrorReply(err, log);
    }
    exchange.leaveCallback(out instanceof Promise);
    if (out instanceof Promise) {
      exchange.watchAbort(); // still inside the uWS callback, as uWS requires
      out.then(
        (r) => exchange.send(r, false),
        (err: unknown) => exchange.send(toErrorReply(err, log), false),
      );
    } else {
      exchange.send(out, true);
    }
  }
}
