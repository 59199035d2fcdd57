import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FeedMeta, HubRequest } from './types.js';

/**
 * The pure parts of a W3C WebSub subscriber: discovery, the subscription request, the answer to
 * a verification of intent, the `X-Hub-Signature` check and lease-renewal timing. The actor
 * does the I/O; the HTTP routes in `src/api/` hand requests to the actor.
 */

export type WebSubStatus = 'pending' | 'active' | 'failed';

/** A publisher's subscription, persisted with it (plain JSON). */
export interface WebSubState {
  hub: string;
  topic: string;
  /** per-subscription HMAC secret (hex) */
  secret: string;
  status: WebSubStatus;
  requestedAt: number;
  /** epoch ms the hub's lease ends; 0 before verification */
  leaseExpiresAt: number;
  /** when the renewal timer fires; 0 when none is due */
  renewAt: number;
  /** consecutive failed subscription attempts */
  failures: number;
  /** earliest next subscription attempt after a failure */
  retryAt: number;
  lastError: string | null;
}

/** Lease we ask for; hubs may grant another. */
export const DEFAULT_LEASE_SECONDS = 10 * 24 * 3600;

/** `hub` and `self` from the parsed feed: the topic is `self` when given, else the feed URL. */
export function discoverWebSub(meta: Pick<FeedMeta, 'hubs' | 'self'> | null | undefined, feedUrl: string): { hub: string; topic: string } | null {
  const hub = meta?.hubs?.find((h) => isHttpUrl(h));
  if (!hub) return null;
  const topic = meta?.self && isHttpUrl(meta.self) ? meta.self : feedUrl;
  return { hub, topic };
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The form-encoded POST to the hub (mode `subscribe` or `unsubscribe`). */
export function buildHubRequest(opts: {
  hub: string;
  topic: string;
  callback: string;
  secret: string;
  mode?: 'subscribe' | 'unsubscribe';
  leaseSeconds?: number;
}): HubRequest {
  const form = new URLSearchParams();
  form.set('hub.mode', opts.mode ?? 'subscribe');
  form.set('hub.topic', opts.topic);
  form.set('hub.callback', opts.callback);
  if ((opts.mode ?? 'subscribe') === 'subscribe') {
    form.set('hub.secret', opts.secret);
    form.set('hub.lease_seconds', String(opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS));
  }
  return { url: opts.hub, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() };
}

/** The hub's verification-of-intent GET, as parsed query parameters. */
export interface VerificationQuery {
  mode: string;
  topic: string;
  challenge?: string | null;
  leaseSeconds?: number | null;
  reason?: string | null;
}

export type VerificationAnswer =
  | { status: 200; body: string; leaseSeconds: number; mode: 'subscribe' | 'unsubscribe' }
  | { status: 404; body: ''; denied?: string };

/**
 * Answer a verification of intent. We confirm only what we asked for: a subscribe for our topic
 * while we hold a subscription, an unsubscribe when we hold none. `denied` is acknowledged with
 * 404 and reported so the actor falls back to polling.
 */
export function answerVerification(q: VerificationQuery, sub: Pick<WebSubState, 'topic' | 'status'> | null, expectedTopic: string): VerificationAnswer {
  if (q.mode === 'denied') return { status: 404, body: '', denied: q.reason ?? 'denied by hub' };
  const topic = sub?.topic ?? expectedTopic;
  if (!q.challenge || q.topic !== topic) return { status: 404, body: '' };
  if (q.mode === 'subscribe' && sub && sub.status !== 'failed') {
    const lease = q.leaseSeconds != null && q.leaseSeconds > 0 ? q.leaseSeconds : DEFAULT_LEASE_SECONDS;
    return { status: 200, body: q.challenge, leaseSeconds: lease, mode: 'subscribe' };
  }
  if (q.mode === 'unsubscribe' && !sub) return { status: 200, body: q.challenge, leaseSeconds: 0, mode: 'unsubscribe' };
  return { status: 404, body: '' };
}

const ALGORITHMS: Record<string, number> = { sha1: 20, sha256: 32, sha384: 48, sha512: 64 };

/**
 * Checks `X-Hub-Signature: <algo>=<hex>` (sha1, sha256, sha384, sha512) over the raw body with
 * the subscription secret, in constant time. Missing, malformed or unknown signatures fail.
 */
export function verifySignature(header: string | null | undefined, body: Uint8Array | string, secret: string): boolean {
  if (!header || !secret) return false;
  const eq = header.indexOf('=');
  if (eq <= 0) return false;
  const algo = header.slice(0, eq).trim().toLowerCase();
  const hex = header.slice(eq + 1).trim();
  const len = ALGORITHMS[algo];
  if (len === undefined || hex.length !== 2 * len || !/^[0-9a-fA-F]+$/.test(hex)) return false;
  const expected = createHmac(algo, secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/** Signs a body as a hub would (tests, the simulator). */
export function signBody(body: Uint8Array | string, secret: string, algo: 'sha1' | 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  return `${algo}=${createHmac(algo, secret).update(body).digest('hex')}`;
}

/**
 * When to renew a lease granted at `verifiedAt`: at 75–85 % of the lease (jittered so renewals do
 * not align), no later than five minutes before expiry, but never before half the lease, so a
 * hub granting tiny leases cannot drive us into a renewal storm.
 */
export function renewalAt(verifiedAt: number, leaseSeconds: number, random: () => number): number {
  const leaseMs = leaseSeconds * 1000;
  const at = verifiedAt + leaseMs * (0.75 + 0.1 * random());
  const latest = verifiedAt + leaseMs - 5 * 60_000;
  return Math.max(verifiedAt + leaseMs / 2, Math.min(at, latest));
}

/** Whether pushed content can be relied on now (polling then only runs as a safety net). */
export function pushActive(sub: WebSubState | null, now: number): boolean {
  return sub !== null && sub.status === 'active' && sub.leaseExpiresAt > now;
}

/** Delay before retrying a failed subscription: 1 h doubling per failure, capped at a day. */
export function subscribeRetryMs(failures: number): number {
  return Math.min(24 * 3600_000, 3600_000 * 2 ** Math.max(0, failures - 1));
}
