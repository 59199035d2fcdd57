import { decode } from '@msgpack/msgpack';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { DependencyUnavailableError, NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';

/**
 * One NATS connection per node, shared by the transport, membership, leases and the ingest log.
 * The client reconnects forever (a node outlives a NATS restart); subscriptions are renewed by
 * the client on reconnect. `connected` follows the client's status events so `/readyz` can say
 * "NATS away" at once instead of waiting for a flush that would only finish after reconnecting.
 */
export interface NatsLink {
  readonly nc: NatsConnection;
  /** subject prefix of this deployment (several deployments or tests may share one server) */
  readonly prefix: string;
  readonly connected: boolean;
  /** resolves when the server answers a round trip; rejects at once while disconnected */
  ping(timeoutMs?: number): Promise<void>;
  /** called on every disconnect/reconnect */
  onStatus(fn: (s: 'disconnected' | 'reconnected') => void): () => void;
  close(): Promise<void>;
}

export interface NatsConnectOptions {
  url: string;
  /** client name shown by the server (the node id) */
  name?: string;
  prefix?: string;
  log?: Logger;
  connectTimeoutMs?: number;
  /** pause between reconnect attempts */
  reconnectWaitMs?: number;
  /** client pings: a silent (half-open) connection is given up after pingIntervalMs × 2 */
  pingIntervalMs?: number;
  /** refuse a server without JetStream (server mode needs the ingest log and the lease bucket) */
  requireJetStream?: boolean;
}

/** The bus is reachable but cannot do what the node needs. */
export class NatsUnavailableError extends NewsaggError {
  constructor(detail: string, cause?: unknown) {
    super('NATS_UNAVAILABLE', `NATS unavailable: ${detail}`, { cause });
  }
}

/** host:port of a NATS URL, never its credentials. */
export function safeNatsUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '4222'}`;
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * A subject token from any string: NATS splits subjects on `.`, treats `*` and `>` as wildcards
 * and forbids whitespace, so node ids like `news-1.example.org:8080` are percent-escaped.
 */
/**
 * Subscribes to `subject` with msgpack-decoded payloads: an error, an undecodable message or a
 * handler that throws is one warn line naming `what` (`{ topic }`, `{ channel }`), never a crash.
 */
export function subscribeDecoded(nc: NatsConnection, subject: string, handler: (data: unknown) => void, log: Logger, what: Record<string, string>, noun: string): Subscription {
  return nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return log.warn({ ...what, err: describeError(err) }, `${noun} subscription error`);
      let data: unknown;
      try {
        data = decode(msg.data);
      } catch (e) {
        return log.warn({ ...what, err: describeError(e) }, `undecodable ${noun} dropped`);
      }
      try {
        handler(data);
      } catch (e) {
        log.warn({ ...what, err: describeError(e) }, `${noun} handler failed`);
      }
    },
  });
}

export function subjectToken(s: string): string {
  return s.replace(/[%.*>\s\x00-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Connects; an unreachable server (or one without JetStream, when required) → DependencyUnavailableError. */
export async function connectNats(opts: NatsConnectOptions): Promise<NatsLink> {
  const log = opts.log ?? silentLogger;
  const where = `NATS at ${safeNatsUrl(opts.url)}`;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: opts.url,
      ...(opts.name ? { name: opts.name } : {}),
      timeout: opts.connectTimeoutMs ?? 3000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: opts.reconnectWaitMs ?? 500,
      reconnectJitter: 100,
      pingInterval: opts.pingIntervalMs ?? 2000,
      maxPingOut: 2,
    });
  } catch (err) {
    throw new DependencyUnavailableError(where, describeError(err).replace(/^\w*Error: /, ''), err);
  }
  if (opts.requireJetStream) {
    try {
      await nc.jetstreamManager();
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw new DependencyUnavailableError(where, `no JetStream (start nats-server with -js): ${describeError(err)}`, err);
    }
  }
  return new Link(nc, opts.prefix ?? 'newsagg', log);
}

class Link implements NatsLink {
  private up = true;
  private readonly listeners = new Set<(s: 'disconnected' | 'reconnected') => void>();

  constructor(
    readonly nc: NatsConnection,
    readonly prefix: string,
    private readonly log: Logger,
  ) {
    void this.watch();
  }

  get connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  async ping(timeoutMs = 2000): Promise<void> {
    if (!this.connected) throw new NatsUnavailableError('disconnected (reconnecting)');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.nc.flush(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new NatsUnavailableError(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  onStatus(fn: (s: 'disconnected' | 'reconnected') => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.close();
  }

  private async watch(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        this.up = false;
        this.log.warn({ server: String(s.data) }, 'NATS disconnected; reconnecting');
        this.emit('disconnected');
      } else if (s.type === 'reconnect') {
        this.up = true;
        this.log.info({ server: String(s.data) }, 'NATS reconnected');
        this.emit('reconnected');
      } else if (s.type === 'error') {
        this.log.warn({ err: String(s.data) }, 'NATS async error');
      }
    }
  }

  private emit(s: 'disconnected' | 'reconnected'): void {
    for (const fn of this.listeners) {
      try {
        fn(s);
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'NATS status listener failed');
      }
    }
  }
}
