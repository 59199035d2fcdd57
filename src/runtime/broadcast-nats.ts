import { encode } from '@msgpack/msgpack';
import { ErrorCode, type NatsError, type Subscription } from 'nats';
import type { Cache, Unsubscribe } from './cache.js';
import { NewsaggError, describeError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import { subjectToken, subscribeDecoded, type NatsLink } from './nats-connect.js';

/** A broadcast larger than the server's max payload (1 MB by default). */
export class BroadcastTooLargeError extends NewsaggError {
  constructor(subject: string, bytes: number, cause?: unknown) {
    super('PAYLOAD_TOO_LARGE', `broadcast of ${bytes} bytes to ${subject} exceeds the NATS max payload`, { cause });
  }
}

/** How long `subscribe` waits for the server to confirm before returning anyway (the client renews it). */
const CONFIRM_MS = 2_000;

/**
 * Fan-out between nodes on NATS core subjects: a message published on a channel reaches every
 * subscriber of the channel on every node of the deployment, this node included, exactly once
 * (one path, no local shortcut, so the node that publishes never hears its own message twice).
 * Subject `<prefix>.bc.<channel>` (the channel percent-escaped into one token), payload msgpack.
 * At most once, like Redis pub/sub: what is published while a node is cut off from NATS is lost
 * for that node; callers heal by themselves (hot caches expire, breaking sets refresh by time).
 */
export class NatsBroadcast {
  private readonly log: Logger;

  constructor(
    private readonly link: NatsLink,
    log?: Logger,
  ) {
    this.log = log ?? silentLogger;
  }

  subject(channel: string): string {
    return `${this.link.prefix}.bc.${subjectToken(channel)}`;
  }

  /** Encodes and hands the message to the client; throws when it is too large or the connection is closed. */
  publish(channel: string, data: unknown): void {
    const subject = this.subject(channel);
    const bytes = encode(data);
    try {
      this.link.nc.publish(subject, bytes);
    } catch (err) {
      if ((err as NatsError).code === ErrorCode.MaxPayloadExceeded) throw new BroadcastTooLargeError(subject, bytes.length, err);
      throw err;
    }
  }

  /** `fn` after each reconnect to NATS (broadcasts sent meanwhile were missed); returns an unsubscribe */
  onReconnect(fn: () => void): () => void {
    return this.link.onStatus((s) => {
      if (s !== 'reconnected') return;
      try {
        fn();
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'reconnect handler failed');
      }
    });
  }

  /** The server's max payload in bytes (what one broadcast may carry). */
  get maxPayload(): number {
    return this.link.nc.info?.max_payload ?? 1024 * 1024;
  }

  /**
   * Every message of the channel from now on (decoded; undecodable ones are dropped with a log
   * line). Resolves once the server has the subscription, or after a short wait while NATS is
   * away (the client subscribes again when it reconnects).
   */
  async subscribe(channel: string, handler: (data: unknown) => void): Promise<Unsubscribe> {
    const subject = this.subject(channel);
    const sub: Subscription = subscribeDecoded(this.link.nc, subject, handler, this.log, { channel }, 'broadcast');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.link.nc.flush().catch(() => undefined),
      new Promise<void>((r) => {
        timer = setTimeout(r, CONFIRM_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return async () => {
      try {
        sub.unsubscribe();
      } catch {
        // the connection is closed already: so is the subscription
      }
    };
  }
}

/**
 * The cache with its pub/sub channels carried by NATS instead (server mode with `--nats-url`):
 * every channel of the cache (feed invalidation, reader profiles, live events) then reaches every
 * node on the bus that connects them, while keys and values stay in the cache. Messages are the
 * cache's strings, msgpack-encoded. Everything but `publish`, `subscribe` and `close` is the cache's own.
 */
export function withNatsPubSub(cache: Cache, bus: NatsBroadcast, log?: Logger): Cache {
  const l = log ?? silentLogger;
  const subs = new Set<Unsubscribe>();
  const own: Pick<Cache, 'publish' | 'subscribe' | 'close' | 'onGap'> = {
    // at most once: what was published while this node was cut off is lost to it
    onGap: (fn) => bus.onReconnect(fn),
    async publish(channel, message) {
      bus.publish(channel, message);
    },
    async subscribe(channel, handler) {
      const off = await bus.subscribe(channel, (data) => {
        if (typeof data === 'string') handler(data);
        else l.warn({ channel }, 'broadcast that is not a string dropped');
      });
      const un: Unsubscribe = async () => {
        subs.delete(un);
        await off();
      };
      subs.add(un);
      return un;
    },
    async close() {
      for (const un of [...subs]) await un();
      await cache.close();
    },
  };
  return new Proxy(cache, {
    get(target, prop) {
      if (prop === 'publish' || prop === 'subscribe' || prop === 'close' || prop === 'onGap') return own[prop];
      // getters and methods run on the cache itself (its private fields live there)
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
