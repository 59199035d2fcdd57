import uWS from 'uWebSockets.js';
import { NewsaggError, describeError } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';

/**
 * The HTTP base on uWebSockets.js: a tiny router (method + `/path/:param` patterns), lazy query
 * parsing, capped body reading, JSON replies and errors. uWS hands out `req` only for the
 * synchronous part of a callback, so everything a handler may need later is copied up front,
 * and nothing is written after the client went away.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface Request {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  /** parsed on first use */
  readonly query: URLSearchParams;
  /** the query string as sent, without the `?` ('' when none) */
  readonly rawQuery: string;
  /**
   * lower-cased header names, copied on first use. A handler that answers asynchronously can
   * read them at any time; one that answers synchronously must read them before it returns.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** one header by lower-cased name without copying them all (same availability as `headers`) */
  header(name: string): string | undefined;
  /** remote address as text */
  readonly ip: string;
  /** true once the client disconnected; a slow handler can stop early */
  readonly aborted: boolean;
  /** the request body, at most `bodyLimitBytes` (else a 413 error) */
  body(): Promise<Buffer>;
  /** the body parsed as JSON (400 on malformed JSON) */
  json<T = unknown>(): Promise<T>;
}

export interface Reply {
  status?: number;
  headers?: Readonly<Record<string, string>>;
  /**
   * The same headers as `headers`, UTF-8 encoded once as name, value, name, value...; written
   * instead of them when present (uWS copies bytes as they are, strings it must encode first).
   */
  encodedHeaders?: readonly Uint8Array[];
  body?: string | Uint8Array;
}

/** `headers` encoded for Reply.encodedHeaders. */
export function encodeHeaders(headers: Readonly<Record<string, string>>): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const k in headers) out.push(Buffer.from(k, 'utf8'), Buffer.from(headers[k]!, 'utf8'));
  return out;
}

export type Handler = (req: Request) => Reply | Promise<Reply>;

/** An error with an HTTP status and a stable snake_case code shown to the client. */
export class HttpError extends NewsaggError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(code, message, options);
    this.headers = options.headers ?? {};
  }
  readonly headers: Readonly<Record<string, string>>;
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 301: '301 Moved Permanently', 302: '302 Found',
  304: '304 Not Modified', 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found',
  405: '405 Method Not Allowed', 409: '409 Conflict', 413: '413 Payload Too Large', 415: '415 Unsupported Media Type',
  422: '422 Unprocessable Entity', 429: '429 Too Many Requests', 500: '500 Internal Server Error', 503: '503 Service Unavailable',
};
const statusLine = (s: number) => STATUS_TEXT[s] ?? String(s);

/** A JSON reply. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(data) };
}

/** The JSON error body every route uses: `{"error": {"code", "message"}}`. */
export function errorReply(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  return json({ error: { code, message } }, status, headers);
}

/** Maps anything thrown to a reply without internals: HttpErrors keep their status and code. */
export function toErrorReply(err: unknown, log: Logger): Reply {
  if (err instanceof HttpError) return errorReply(err.status, err.code, err.userMessage, { ...err.headers });
  if (err instanceof NewsaggError && (err.code === 'DEPENDENCY_UNAVAILABLE' || err.code === 'CACHE_UNAVAILABLE')) {
    log.warn({ err: describeError(err) }, 'request failed: dependency unavailable');
    return errorReply(503, 'unavailable', 'a backing service is unavailable, try again shortly', { 'retry-after': '5' });
  }
  log.error({ err: describeError(err), stack: err instanceof Error ? err.stack : undefined }, 'request failed');
  return errorReply(500, 'internal', 'internal error');
}

interface RouteNode {
  statics: Map<string, RouteNode>;
  param: RouteNode | null;
  /** method -> handler and the names of the `:params` on the way here, in order */
  methods: Map<string, { handler: Handler; names: string[] }> | null;
}

const newNode = (): RouteNode => ({ statics: new Map(), param: null, methods: null });
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Routes by method and path: static paths are one map lookup; patterns live in a segment trie
 * (static segments before `:params`), so matching costs the path's depth, not the route count.
 */
export class Router {
  /** method -> static path -> the match result, built once (a static route allocates nothing per request) */
  private readonly exact = new Map<string, Map<string, { handler: Handler; params: Record<string, string> }>>();
  private readonly root = newNode();

  add(method: Method, pattern: string, handler: Handler): this {
    if (!pattern.startsWith('/')) throw new TypeError(`route pattern must start with /: ${pattern}`);
    if (!pattern.includes('/:')) {
      let paths = this.exact.get(method);
      if (paths === undefined) this.exact.set(method, (paths = new Map()));
      paths.set(pattern, { handler, params: NO_PARAMS });
    }
    let node = this.root;
    const names: string[] = [];
    for (const seg of pattern.split('/').slice(1)) {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        node = node.param ??= newNode();
      } else {
        let next = node.statics.get(seg);
        if (next === undefined) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    (node.methods ??= new Map()).set(method, { handler, names });
    return this;
  }

  get(pattern: string, h: Handler): this {
    return this.add('GET', pattern, h);
  }

  post(pattern: string, h: Handler): this {
    return this.add('POST', pattern, h);
  }

  /** The handler and params for a request, `{allowed}` when only the method is wrong, or null. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | { allowed: string[] } | null {
    const m = method === 'HEAD' ? 'GET' : method;
    const hit = this.exact.get(m)?.get(path);
    if (hit !== undefined) return hit;
    const parts = path.split('/');
    const values: string[] = [];
    const allowed = new Set<string>();
    const leaf = walk(this.root, parts, 1, values, m, allowed);
    if (leaf === null) return allowed.size > 0 ? { allowed: [...allowed] } : null;
    const params: Record<string, string> = {};
    for (let i = 0; i < leaf.names.length; i++) params[leaf.names[i]!] = decodeSegment(values[i]!);
    return { handler: leaf.handler, params };
  }
}

/** Depth-first, static before param; collects the methods of matching paths for a 405. */
function walk(node: RouteNode, parts: string[], i: number, values: string[], method: string, allowed: Set<string>): { handler: Handler; names: string[] } | null {
  if (i === parts.length) {
    if (node.methods === null) return null;
    const hit = node.methods.get(method);
    if (hit !== undefined) return hit;
    for (const k of node.methods.keys()) allowed.add(k);
    return null;
  }
  const seg = parts[i]!;
  const next = node.statics.get(seg);
  if (next !== undefined) {
    const hit = walk(next, parts, i + 1, values, method, allowed);
    if (hit !== null) return hit;
  }
  if (node.param !== null && seg !== '') {
    values.push(seg);
    const hit = walk(node.param, parts, i + 1, values, method, allowed);
    if (hit !== null) return hit;
    values.pop();
  }
  return null;
}

function decodeSegment(v: string): string {
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    throw new HttpError(400, 'bad_request', 'malformed percent-encoding in the path');
  }
}

/** `LIBUS_LISTEN_EXCLUSIVE_PORT`: exported at runtime, only as an enum member in the typings */
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

export interface HttpServerOptions {
  host: string;
  port: number;
  router: Router;
  log?: Logger;
  bodyLimitBytes?: number;
}

/**
 * The node's HTTP server. `app` is exposed so the live-feed issue can add `app.ws(...)`.
 * `close()` stops accepting, waits for requests in flight (bounded), then closes every socket.
 */
export class HttpServer {
  readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | null = null;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private boundPort = 0;
  private closed = false;

  constructor(private readonly opts: HttpServerOptions) {
    this.app = uWS.App();
    this.app.any('/*', (res, req) => this.handle(res, req));
  }

  /** The port actually bound (useful with port 0). */
  get port(): number {
    return this.boundPort;
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
    const exchange = new Exchange(res, req, this.opts.bodyLimitBytes ?? 1 << 20, () => {
      if (--this.inFlight === 0 && this.drained) this.drained();
    });
    this.inFlight++;
    let out: Reply | Promise<Reply>;
    try {
      const m = this.opts.router.match(exchange.method, exchange.path);
      if (m === null) out = errorReply(404, 'not_found', `no route for ${exchange.method} ${exchange.path}`);
      else if ('allowed' in m) out = errorReply(405, 'method_not_allowed', `${exchange.method} is not allowed on ${exchange.path}`, { allow: m.allowed.join(', ') });
      else {
        exchange.params = m.params;
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

/**
 * One request and its response. A class rather than closures: this is the per-request hot path
 * of every API route, so it allocates as little as it can.
 */
class Exchange implements Request {
  readonly method: string;
  readonly path: string;
  params: Record<string, string> = NO_PARAMS;
  aborted = false;
  readonly rawQuery: string;
  private done = false;
  private watching = false;
  private parsedQuery: URLSearchParams | undefined;
  private remote: string | undefined;
  private readonly bodyPromise: Promise<Buffer> | null;
  /** uWS invalidates `req` when its callback returns: kept only until then */
  private req: uWS.HttpRequest | null;
  private copiedHeaders: Record<string, string> | null = null;

  constructor(
    private readonly res: uWS.HttpResponse,
    req: uWS.HttpRequest,
    bodyLimit: number,
    private readonly onFinish: () => void,
  ) {
    this.req = req;
    const method = req.getCaseSensitiveMethod();
    this.method = method === 'GET' ? method : method.toUpperCase();
    this.path = req.getUrl();
    this.rawQuery = req.getQuery() ?? '';
    if (this.method === 'GET' || this.method === 'HEAD') {
      this.bodyPromise = null;
    } else {
      this.watchAbort();
      this.bodyPromise = readBody(res, bodyLimit);
      this.bodyPromise.catch(() => {}); // a handler that never reads the body must not leave a rejection unhandled
    }
  }

  /**
   * uWS requires an abort handler before answering asynchronously (and before reading a body).
   * A synchronous reply needs none, so the hot path of cached pages skips it.
   */
  watchAbort(): void {
    if (this.watching) return;
    this.watching = true;
    this.res.onAborted(() => {
      this.aborted = true;
      this.finish();
    });
  }

  get headers(): Record<string, string> {
    if (this.copiedHeaders === null) {
      const h: Record<string, string> = {};
      this.req?.forEach((k, v) => {
        h[k] = v;
      });
      this.copiedHeaders = h;
    }
    return this.copiedHeaders;
  }

  header(name: string): string | undefined {
    if (this.copiedHeaders !== null) return this.copiedHeaders[name];
    if (this.req === null) return undefined;
    const v = this.req.getHeader(name);
    return v === '' ? undefined : v;
  }

  /**
   * The uWS callback is about to return. A handler still running may read headers later, so
   * they are copied now; a synchronous reply skips the copy (most cached pages read one header).
   */
  leaveCallback(pending: boolean): void {
    if (pending && this.copiedHeaders === null) void this.headers;
    this.req = null;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  get ip(): string {
    if (this.remote === undefined) this.remote = this.aborted ? '' : Buffer.from(this.res.getRemoteAddressAsText()).toString();
    return this.remote;
  }

  body(): Promise<Buffer> {
    return this.bodyPromise ?? Promise.resolve(Buffer.alloc(0));
  }

  async json<T = unknown>(): Promise<T> {
    const buf = await this.body();
    try {
      return JSON.parse(buf.toString('utf8')) as T;
    } catch (err) {
      throw new HttpError(400, 'invalid_json', 'the request body is not valid JSON', { cause: err });
    }
  }

  /** Writes the reply unless the client left; outside the uWS callback the writes must be corked. */
  send(reply: Reply, corked: boolean): void {
    if (this.aborted || this.done) return;
    if (corked) this.write(reply);
    else this.res.cork(() => this.write(reply));
    this.finish();
  }

  private write(reply: Reply): void {
    const res = this.res;
    if (reply.status !== undefined && reply.status !== 200) res.writeStatus(statusLine(reply.status)); // 200 is uWS's default
    const e = reply.encodedHeaders;
    if (e !== undefined) {
      for (let i = 0; i < e.length; i += 2) res.writeHeader(e[i]!, e[i + 1]!);
    } else {
      const h = reply.headers;
      if (h !== undefined) for (const k in h) res.writeHeader(k, h[k]!);
    }
    if (this.method === 'HEAD') res.endWithoutBody();
    else res.end(reply.body ?? '');
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.onFinish();
  }
}

/** Collects the body as it arrives; more than `limit` bytes → 413 (the rest is ignored). */
function readBody(res: uWS.HttpResponse, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, 'payload_too_large', `the request body exceeds ${limit} bytes`));
        return;
      }
      // uWS reuses the chunk's memory after this callback returns: copy it
      chunks.push(Buffer.from(new Uint8Array(chunk))); // Buffer.from(typed array) copies
      if (isLast) resolve(Buffer.concat(chunks));
    });
  });
}
