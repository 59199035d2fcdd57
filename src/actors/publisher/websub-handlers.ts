import type { ActorContext } from '../../runtime/actor.js';
import type { LivePublisher } from './state.js';
import type { FeedMeta, HubPostFn, ParsedFeed, ParseFn } from './types.js';
import type { WebSubIntents } from './websub-intents.js';
import {
  answerVerification,
  buildHubRequest,
  discoverWebSub,
  pushActive,
  renewalAt,
  subscribeRetryMs,
  verifySignature,
  type WebSubState,
} from './websub.js';

/**
 * The publisher actor's WebSub side: subscribing, answering verification, renewing leases and
 * taking pushes. Hub requests are fired without being awaited (the answer comes back as a
 * `websub-requested` message) because a synchronous hub verifies *before* answering our POST,
 * and the verification has to reach this very actor.
 */

export interface WebSubDeps {
  callbackUrl(id: string): string;
  post: HubPostFn;
  leaseSeconds: number | undefined;
  secret: () => string;
  now: () => number;
  random: () => number;
  /** the node's read model of subscriptions, so verifications are answered without waiting for the actor */
  intents?: WebSubIntents | undefined;
}

/** The hub's answer to a subscription POST, as a message to the actor itself. */
export interface RequestedMsg {
  type: 'websub-requested';
  ok: boolean;
  error: string | null;
}

/** A pending subscription whose verification never came is given up after this long. */
const VERIFY_TIMEOUT_MS = 3600_000;

function fail(sub: WebSubState, error: string, now: number): void {
  sub.failures += 1;
  sub.status = 'failed';
  sub.lastError = error.slice(0, 200);
  sub.retryAt = now + subscribeRetryMs(sub.failures);
  sub.renewAt = 0;
}

function requestSubscription(p: LivePublisher, hub: string, topic: string, ws: WebSubDeps, ctx: ActorContext): void {
  const now = ws.now();
  const prev = p.websub;
  const same = prev !== null && prev.hub === hub && prev.topic === topic;
  const keepActive = same && pushActive(prev, now);
  p.websub = {
    hub,
    topic,
    secret: same ? prev.secret : ws.secret(),
    status: keepActive ? 'active' : 'pending',
    requestedAt: now,
    leaseExpiresAt: keepActive ? prev.leaseExpiresAt : 0,
    renewAt: 0,
    failures: same ? prev.failures : 0,
    retryAt: 0,
    lastError: same ? prev.lastError : null,
  };
  // known before the hub hears of it: a hub may verify before it even answers our POST
  ws.intents?.note(p);
  const req = buildHubRequest({ hub, topic, callback: ws.callbackUrl(p.id), secret: p.websub.secret, leaseSeconds: ws.leaseSeconds });
  const self = ctx.self;
  const answered = (ok: boolean, error: string | null): void => {
    const msg: RequestedMsg = { type: 'websub-requested', ok, error };
    ctx.send(self, msg);
  };
  ws.post(req).then(
    (r) => answered(r.status >= 200 && r.status < 300, r.status >= 200 && r.status < 300 ? null : `HUB_HTTP_ERROR: HTTP ${r.status}`),
    (err: unknown) => answered(false, `HUB_UNREACHABLE: ${err instanceof Error ? err.message : String(err)}`),
  );
}

/**
 * After a successful poll: subscribe when the feed advertises a hub and we hold no usable
 * subscription; give up on a hub that missed entries (the poll found them first) or never verified.
 */
export function maybeSubscribe(p: LivePublisher, meta: Pick<FeedMeta, 'hubs' | 'self'> | undefined, ws: WebSubDeps, ctx: ActorContext, newOnPoll: number): void {
  const now = ws.now();
  const sub = p.websub;
  if (sub && newOnPoll > 0 && pushActive(sub, now)) {
    fail(sub, `HUB_MISSED_ENTRIES: polling found ${newOnPoll} entries the hub did not push`, now);
    return;
  }
  const found = discoverWebSub(meta, p.url);
  if (!found) return;
  if (sub && sub.hub === found.hub && sub.topic === found.topic) {
    if (pushActive(sub, now)) return;
    if (sub.status === 'pending' && now - sub.requestedAt < VERIFY_TIMEOUT_MS) return;
    if (sub.status === 'pending') {
      fail(sub, 'HUB_VERIFY_TIMEOUT: the hub never verified the subscription', now);
      return;
    }
    if (sub.status === 'failed' && now < sub.retryAt) return;
  }
  requestSubscription(p, found.hub, found.topic, ws, ctx);
}

/** The hub's answer to our POST: anything but 2xx means the hub failed, so polling stays normal. */
export function handleRequested(p: LivePublisher, msg: { ok: boolean; error: string | null }, ws: WebSubDeps): void {
  if (!msg.ok && p.websub) fail(p.websub, msg.error ?? 'HUB_ERROR', ws.now());
}

export function scheduleRenewal(p: LivePublisher, ctx: ActorContext, now: number): void {
  if (p.websub && p.websub.renewAt > 0) ctx.schedule(Math.max(0, p.websub.renewAt - now), { type: 'websub-renew' }, 'websub-renew');
}

/** Lease renewal timer: subscribe again with the same secret; the lease stays active meanwhile. */
export function handleRenew(p: LivePublisher, ws: WebSubDeps, ctx: ActorContext): void {
  const sub = p.websub;
  if (!sub || sub.status !== 'active') return;
  requestSubscription(p, sub.hub, sub.topic, ws, ctx);
}

export function handleVerify(
  p: LivePublisher,
  q: { mode: string; topic: string; challenge?: string | null; leaseSeconds?: number | null; reason?: string | null },
  ws: WebSubDeps | null,
  ctx: ActorContext,
): { status: number; body: string } {
  if (!ws) return { status: 404, body: '' };
  const now = ws.now();
  const ans = answerVerification(q, p.websub, p.url);
  const sub = p.websub;
  if (ans.status === 200 && ans.mode === 'subscribe' && sub) {
    sub.status = 'active';
    sub.leaseExpiresAt = now + ans.leaseSeconds * 1000;
    sub.renewAt = renewalAt(now, ans.leaseSeconds, ws.random);
    sub.failures = 0;
    sub.retryAt = 0;
    sub.lastError = null;
    scheduleRenewal(p, ctx, now);
  } else if (ans.status === 404 && ans.denied && sub) {
    fail(sub, `HUB_DENIED: ${ans.denied}`, now);
  }
  return { status: ans.status, body: ans.body };
}

export interface PushReply {
  status: number;
  accepted: boolean;
  emitted: number;
  reason?: string;
}

/**
 * Content distribution. Bad or missing signatures are acknowledged with 202 and ignored, as
 * WebSub requires (a 4xx would tell a forger what we check); they change nothing.
 */
export async function handlePush(
  p: LivePublisher,
  msg: { body: Uint8Array | string; signature: string | null; contentType: string | null },
  parse: ParseFn,
  ingest: (parsed: ParsedFeed, now: number) => Promise<number>,
  now: number,
): Promise<PushReply> {
  const sub = p.websub;
  if (!sub) return { status: 410, accepted: false, emitted: 0, reason: 'no-subscription' };
  if (!verifySignature(msg.signature, msg.body, sub.secret)) return { status: 202, accepted: false, emitted: 0, reason: 'bad-signature' };
  let parsed: ParsedFeed;
  try {
    parsed = await parse(msg.body, { baseUrl: sub.topic, contentType: msg.contentType });
  } catch {
    return { status: 202, accepted: false, emitted: 0, reason: 'unparseable' };
  }
  try {
    return { status: 202, accepted: true, emitted: await ingest(parsed, now) };
  } catch {
    // the hub retries on 5xx: nothing was marked seen, so the retry emits the same entries
    return { status: 503, accepted: false, emitted: 0, reason: 'ingest-unavailable' };
  }
}
