import { NewsaggError, describeError } from '../runtime/errors.js';
import type { Logger } from '../runtime/log.js';

/** What a route sees of a request and what it answers: the types every handler shares, and the JSON error mapping. */

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
   * instead of them when present (uWS copies bytes as they are, strings it must encode first,
   * so only what changes per reply, such as an ETag, is left a string).
   */
  encodedHeaders?: readonly (Uint8Array | string)[];
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
  405: '405 Method Not Allowed', 406: '406 Not Acceptable', 408: '408 Request Timeout', 409: '409 Conflict', 410: '410 Gone',
  411: '411 Length Required', 412: '412 Precondition Failed', 413: '413 Payload Too Large', 414: '414 URI Too Long', 415: '415 Unsupported Media Type',
  416: '416 Range Not Satisfiable', 422: '422 Unprocessable Entity', 426: '426 Upgrade Required', 428: '428 Precondition Required',
  429: '429 Too Many Requests', 431: '431 Request Header Fields Too Large', 500: '500 Internal Server Error', 501: '501 Not Implemented',
  502: '502 Bad Gateway', 503: '503 Service Unavailable', 504: '504 Gateway Timeout',
};
export const statusLine = (s: number) => STATUS_TEXT[s] ?? String(s);

/** A JSON reply. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(data) };
}

/** The JSON error body every route uses: `{"error": {"code", "message"}}`. */
export function errorReply(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  return json({ error: { code, message } }, status, headers);
}

/** Codes of a backing service being away; its adapter logs the outage once, so requests do not. */
const UNAVAILABLE = new Set(['DEPENDENCY_UNAVAILABLE', 'CACHE_UNAVAILABLE']);
/** Codes of work that did not finish in time or found no room: expected under load, worth one warn line. */
const BUSY = new Set(['ASK_TIMEOUT', 'MAILBOX_FULL', 'ACTOR_UNAVAILABLE']);
/** Codes of a shard moving between nodes (its old owner let go, the new one is not ready yet): a retry soon finds it. */
const MOVING = new Set(['SHARD_NOT_OWNED']);
const RETRY = { 'retry-after': '5', 'cache-control': 'no-store' };

/**
 * Maps anything thrown to a reply without internals: HttpErrors keep their status and code; a
 * backing service that is away, an actor too busy to answer in time, or a shard moving between
 * nodes, is 503 with Retry-After (logged without a stack); anything else is a 500 whose stack goes to the log only.
 */
export function toErrorReply(err: unknown, log: Logger): Reply {
  if (err instanceof HttpError) return errorReply(err.status, err.code, err.userMessage, { ...err.headers });
  if (err instanceof NewsaggError && UNAVAILABLE.has(err.code)) {
    log.debug({ err: describeError(err) }, 'request failed: dependency unavailable');
    return errorReply(503, 'unavailable', 'a backing service is unavailable, try again shortly', RETRY);
  }
  if (err instanceof NewsaggError && MOVING.has(err.code)) {
    log.info({ code: err.code, err: err.message }, 'request not answered: shard moving between nodes');
    return errorReply(503, 'unavailable', 'the data this request needs is moving between nodes, try again shortly', RETRY);
  }
  if (err instanceof NewsaggError && BUSY.has(err.code)) {
    log.warn({ code: err.code, err: err.message }, 'request not answered in time: busy');
    return errorReply(503, 'busy', 'the server is busy, try again shortly', RETRY);
  }
  log.error({ err: describeError(err), stack: err instanceof Error ? err.stack : undefined }, 'request failed');
  return errorReply(500, 'internal', 'internal error');
}
