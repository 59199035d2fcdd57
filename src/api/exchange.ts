import type uWS from 'uWebSockets.js';
import { NO_PARAMS } from './router.js';
import { HttpError, statusLine, type Reply, type Request } from './reply.js';

/**
 * One request and its response. A class rather than closures: this is the per-request hot path
 * of every API route, so it allocates as little as it can.
 */
export class Exchange implements Request {
  readonly method: string;
  readonly path: string;
  params: Record<string, string> = NO_PARAMS;
  aborted = false;
  readonly rawQuery: string;
  /** when the request arrived (performance.now()), for the duration metric */
  readonly startedAt: number;
  /** the matched route's metrics id (-1 until matched) */
  route = -1;
  /** the status written, 0 until a reply is written (and for a client that went away) */
  status = 0;
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
    private readonly onFinish: (ex: Exchange) => void,
  ) {
    this.startedAt = performance.now();
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
    this.status = reply.status ?? 200;
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
    this.onFinish(this);
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
