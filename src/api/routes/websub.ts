import type { TrustedProxies } from '../client-address.js';
import type { PublisherMsg, PublisherReply } from '../../actors/publisher/actor.js';
import type { PushReply } from '../../actors/publisher/websub-handlers.js';
import type { WebSubIntents } from '../../actors/publisher/websub-intents.js';
import { verifySignature } from '../../actors/publisher/websub.js';
import { publisherExists } from '../../actors/store/publishers.js';
import { ActorUnavailableError } from '../../runtime/errors.js';
import type { Sql } from '../../runtime/sql.js';
import { KnownPublishers } from '../known-publishers.js';
import { parseId } from '../params.js';
import { RateLimiter } from '../rate-limit.js';
import { HttpError, errorReply, type Reply } from '../reply.js';
import type { Router } from '../router.js';
import { clientIp } from './common.js';

export interface WebSubRouteDeps {
  sql: Sql;
  /** request/reply with the publisher actor of an id (rejects with AskTimeoutError when it is busy too long) */
  ask(id: string, msg: PublisherMsg, timeoutMs: number): Promise<PublisherReply>;
  /** fire-and-forget to the publisher actor of an id */
  send(id: string, msg: PublisherMsg): void;
  /** subscriptions this node holds, to answer verifications and check signatures without waiting for busy actors */
  intents: WebSubIntents;
  /** which publisher ids exist (default: a fresh cache over `sql`); the caller tells it of publishers added or removed */
  known?: KnownPublishers;
  /** per publisher: how many accepted callbacks a second, and the burst */
  perPublisher: { rps: number; burst: number };
  /** per client: what refused callbacks (unknown id, bad signature, a verification not asked for) cost the caller */
  perClient: { rps: number; burst: number };
  /** `--trust-proxy`: the client address behind trusted proxies */
  trustProxy?: TrustedProxies | null;
  now?: () => number;
}

/** How long a verification waits for an actor that has no subscription on record here. */
const VERIFY_ASK_MS = 5_000;
/** A push is parsed and put into the ingest log before it is acknowledged. */
const PUSH_ASK_MS = 30_000;
const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
/** What a push refused for its signature is answered (WebSub §8: acknowledge, ignore, tell a forger nothing). */
const IGNORED: Reply = { status: 202, headers: TEXT, body: '' };

function limited(waitMs: number, message: string): Reply {
  return errorReply(429, 'rate_limited', message, {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    'cache-control': 'no-store',
  });
}
const PUBLISHER_LIMITED = 'too many callbacks for this subscription; slow down';
const CLIENT_LIMITED = 'too many refused callbacks from this client; slow down';

/**
 * WebSub callbacks (W3C WebSub §5.3, §7): `GET /websub/:id` answers a hub's verification of
 * intent, `POST /websub/:id` takes signed content for the publisher `:id`.
 *
 * Abuse costs the abuser: whatever is refused (an unknown id, a bad signature, a verification of
 * something this node never asked for) is paid from the caller's per-client bucket, and that
 * bucket is charged *before* any database lookup, so a flood of probes costs at most its burst in
 * queries (ids found are refunded; ids are remembered in a bounded cache). Each publisher's own
 * bucket pays only for what is accepted: a push's signature is checked first (here, when this
 * node holds the subscription's secret; else by the owner's actor, and the bucket is charged after
 * its answer), so forged pushes cannot spend a publisher's limit and crowd out the hub's real ones.
 * A verification is answered from the subscriptions on record at once; an actor that stays busy
 * longer than the ask allows, or a publisher shard moving between nodes, gives 503 with
 * Retry-After, and hubs retry.
 */
/**
 * The actor's answer to a callback, or a 503 for the hub to retry: a publisher actor met in the
 * middle of a shard move (stopping, or started on a node about to let it go) can reply nothing.
 */
function answered(id: string, reply: PublisherReply): PublisherReply {
  if (reply && typeof reply === 'object' && typeof (reply as { status?: unknown }).status === 'number') return reply;
  throw new ActorUnavailableError(`publisher/${id}`, 'no answer while its shard moves');
}

export function registerWebSubRoutes(router: Router, d: WebSubRouteDeps): { known: KnownPublishers } {
  const now = d.now ?? Date.now;
  const byPublisher = new RateLimiter(d.perPublisher.rps, d.perPublisher.burst, now);
  const byClient = new RateLimiter(d.perClient.rps, d.perClient.burst, now);
  const directory = d.known ?? new KnownPublishers((id) => publisherExists(d.sql, id), { now });

  /** the caller pays for a refusal: 429 once its bucket is spent */
  const refusedBy = (ip: string, reply: Reply): Reply => {
    const wait = byClient.take(ip);
    return wait > 0 ? limited(wait, CLIENT_LIMITED) : reply;
  };
  /** null when the publisher exists; a cache miss is charged to the caller before the query, and refunded when found */
  const known = async (ip: string, id: string): Promise<Reply | null> => {
    const hit = directory.cached(id);
    if (hit === true) return null;
    const wait = byClient.take(ip);
    if (wait > 0) return limited(wait, CLIENT_LIMITED);
    if (hit === undefined && (await directory.lookup(id))) {
      byClient.refund(ip);
      return null;
    }
    throw new HttpError(404, 'not_found', 'no such subscription');
  };

  router.get('/websub/:id', async (req) => {
    const id = parseId(req.params.id);
    const ip = clientIp(req, d.trustProxy);
    const q = req.query;
    const lease = q.get('hub.lease_seconds');
    const msg: PublisherMsg = {
      type: 'websub-verify',
      mode: q.get('hub.mode') ?? '',
      topic: q.get('hub.topic') ?? '',
      challenge: q.get('hub.challenge'),
      leaseSeconds: lease !== null && /^\d+$/.test(lease) ? Number(lease) : null,
      reason: q.get('hub.reason'),
    };
    const ready = d.intents.answer(id, msg);
    if (ready !== null) {
      // confirming what this node asked for costs the publisher; anything else, the caller
      const wait = ready.status === 200 ? byPublisher.take(id) : byClient.take(ip);
      if (wait > 0) return limited(wait, ready.status === 200 ? PUBLISHER_LIMITED : CLIENT_LIMITED);
      // the actor records the lease (or the denial) when its turn comes
      d.send(id, msg);
      return { status: ready.status, headers: TEXT, body: ready.body };
    }
    const miss = await known(ip, id);
    if (miss) return miss;
    const wait = byPublisher.peek(id);
    if (wait > 0) return limited(wait, PUBLISHER_LIMITED);
    const out = answered(id, await d.ask(id, msg, VERIFY_ASK_MS)) as { status: number; body?: string };
    if (out.status === 200) byPublisher.take(id);
    else byClient.take(ip);
    return { status: out.status, headers: TEXT, body: out.body ?? '' };
  });

  router.post('/websub/:id', async (req) => {
    const id = parseId(req.params.id);
    const ip = clientIp(req, d.trustProxy);
    const secret = d.intents.secretOf(id);
    if (secret === null) {
      const miss = await known(ip, id);
      if (miss) return miss;
    }
    const body = await req.body();
    const signature = req.headers['x-hub-signature'] ?? null;
    const push: PublisherMsg = { type: 'websub-push', body: new Uint8Array(body), signature, contentType: req.headers['content-type'] ?? null };
    if (secret !== null) {
      // checked here, before the publisher's bucket: a forged push is the caller's cost (WebSub §8: 2xx, ignored)
      if (!verifySignature(signature, body, secret)) return refusedBy(ip, IGNORED);
      const wait = byPublisher.take(id);
      if (wait > 0) return limited(wait, PUBLISHER_LIMITED);
      const r = answered(id, await d.ask(id, push, PUSH_ASK_MS)) as PushReply;
      return { status: r.status, headers: TEXT, body: '' };
    }
    // no secret on record here (a node forwarding to the owner, or no subscription held): the
    // owner's actor checks the signature, and the bucket that pays depends on its answer
    const spent = byClient.peek(ip);
    if (spent > 0) return limited(spent, CLIENT_LIMITED);
    const wait = byPublisher.peek(id);
    if (wait > 0) return limited(wait, PUBLISHER_LIMITED);
    const r = answered(id, await d.ask(id, push, PUSH_ASK_MS)) as PushReply;
    if (r.accepted) byPublisher.take(id);
    else if (r.reason === 'bad-signature' || r.reason === 'no-subscription') byClient.take(ip);
    // 2xx tells the hub the delivery arrived; a bad signature is acknowledged and ignored (WebSub §8)
    return { status: r.status, headers: TEXT, body: '' };
  });
  return { known: directory };
}
