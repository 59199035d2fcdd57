import { createHash } from 'node:crypto';
import { Agent } from 'undici';
import webPush from 'web-push';
import { SsrfGuard, parseRetryAfter, type LookupFn } from '../fetch/index.js';
import { checkEndpointUrl } from './endpoint.js';
import type { Answer } from './policy.js';
import type { VapidKeys } from './vapid.js';

/**
 * Sends one push message (RFC 8030 §5) to a push service. The `web-push` package builds the
 * request: the payload encrypted for the subscription (RFC 8291, aes128gcm) and the VAPID
 * `Authorization: vapid t=<JWT>, k=<public key>` header (RFC 8292). The request itself goes out
 * through undici over the fetcher's SSRF guard (checked at every connection), with time limits
 * and no redirects, instead of the package's own https call, which has neither.
 */

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  payload: string;
  /** seconds the push service may hold the message for an offline browser */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** messages with the same topic replace each other while waiting at the push service */
  topic?: string;
}

export interface PushSenderOptions {
  vapid: VapidKeys;
  /** the VAPID `sub` claim: a mailto: or https: contact */
  subject: string;
  /** `--fetch-allowlist`: addresses the SSRF guard lets through */
  allowlist?: readonly string[];
  /** `--push-allow-http`: plain http to loopback endpoints (tests) */
  allowHttp?: boolean;
  timeoutMs?: number;
  lookup?: LookupFn;
  now?: () => number;
}

/** A VAPID JWT is valid this long (RFC 8292: at most 24 h) ... */
const JWT_LIFE_S = 12 * 3600;
/** ... and reused for this long, so one in use always has hours left */
const JWT_REUSE_S = 3600;
/** push service origins whose JWT is kept (browsers use a handful) */
const JWT_CACHE_MAX = 1000;

/** A topic header value for a story: base64url, at most 32 characters (RFC 8030 §5.4). */
export function topicOf(storyId: string): string {
  return createHash('sha256').update(storyId).digest('base64url').slice(0, 22);
}

export class PushSender {
  private readonly guard: SsrfGuard;
  private readonly agent: Agent;
  private readonly now: () => number;
  private readonly jwts = new Map<string, { header: string; until: number }>();

  constructor(private readonly o: PushSenderOptions) {
    const timeout = o.timeoutMs ?? 10_000;
    this.guard = new SsrfGuard([...(o.allowlist ?? [])], o.lookup, timeout);
    this.agent = new Agent({ connect: this.guard.connector({ timeout }), headersTimeout: timeout, bodyTimeout: timeout, connections: 16 });
    this.now = o.now ?? Date.now;
  }

  /** Posts the message; the push service's answer, or `status: null` when none came. Never throws for the network. */
  async send(to: PushTarget, m: PushMessage): Promise<Answer & { error?: string }> {
    let url: URL;
    try {
      url = checkEndpointUrl(to.endpoint, this.guard, this.o.allowHttp ?? false);
    } catch (err) {
      return { status: 400, retryAfterMs: null, error: (err as Error).message };
    }
    const details = webPush.generateRequestDetails({ endpoint: url.href, keys: { p256dh: to.p256dh, auth: to.auth } }, m.payload, {
      // the VAPID header is added below, signed once per push service and reused
      vapidDetails: null,
      TTL: Math.max(0, Math.floor(m.ttlSeconds)),
      urgency: m.urgency,
      ...(m.topic ? { topic: m.topic } : {}),
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(details.headers)) headers[k.toLowerCase()] = String(v);
    headers.authorization = this.vapidHeader(url.origin);
    try {
      const res = await this.agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers,
        body: details.body ?? Buffer.alloc(0),
      });
      // the answer's body says nothing we act on: drained (bounded) so the connection is reused
      await res.body.dump({ limit: 16 * 1024 }).catch(() => undefined);
      const ra = res.headers['retry-after'];
      return { status: res.statusCode, retryAfterMs: parseRetryAfter(Array.isArray(ra) ? ra[0] : ra, this.now()) };
    } catch (err) {
      return { status: null, retryAfterMs: null, error: (err as Error).message };
    }
  }

  /**
   * The `Authorization: vapid t=<JWT>, k=<key>` for a push service (RFC 8292 §2: the audience is
   * its origin). Signing costs more than encrypting a payload, and a JWT may be reused until it
   * expires, so each origin's is kept for an hour of its 12-hour life.
   */
  private vapidHeader(origin: string): string {
    const nowS = Math.floor(Date.now() / 1000);
    const had = this.jwts.get(origin);
    if (had && had.until > nowS) return had.header;
    const { subject, vapid } = this.o;
    const header = webPush.getVapidHeaders(origin, subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', nowS + JWT_LIFE_S).Authorization;
    if (this.jwts.size >= JWT_CACHE_MAX) this.jwts.clear();
    this.jwts.set(origin, { header, until: nowS + JWT_REUSE_S });
    return header;
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
