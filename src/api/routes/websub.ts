import type { TrustedProxies } from '../client-address.js';
import type { PublisherMsg, PublisherReply } from '../../actors/publisher/actor.js';
import type { WebSubIntents } from '../../actors/publisher/websub-intents.js';
import { publisherExists } from '../../actors/store/publishers.js';
import type { Sql } from '../../runtime/sql.js';
import { parseId } from '../params.js';
import { RateLimiter } from '../rate-limit.js';
import { HttpError, errorReply, type Reply, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { clientIp } from './common.js';

export interface WebSubRouteDeps {
  sql: Sql;
  /** request/reply with the publisher actor of an id (rejects with AskTimeoutError when it is busy too long) */
  ask(id: string, msg: PublisherMsg, timeoutMs: number): Promise<PublisherReply>;
  /** fire-and-forget to the publisher actor of an id */
  send(id: string, msg: PublisherMsg): void;
  /** subscriptions this node holds, to answer verifications without waiting for busy actors */
  intents: WebSubIntents;
  /** per publisher: how many callbacks a second, and the burst */
  perPublisher: { rps: number; burst: number };
  /** per client, charged only for callbacks naming no known publisher (so ids cannot be probed fast) */
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

function limited(waitMs: number): Reply {
  return errorReply(429, 'rate_limited', 'too many callbacks for this subscription; slow down', {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    'cache-control': 'no-store',
  });
}

/**
 * WebSub callbacks (W3C WebSub §5.3, §7): `GET /websub/:id` answers a hub's verification of
 * intent, `POST /websub/:id` takes signed content for the publisher `:id`. Each publisher has
 * its own token bucket; a callback for an unknown publisher costs the caller from a per-client
 * bucket. A verification is answered from the subscriptions on record at once; an actor that
 * stays busy longer than the ask allows gives 503 with Retry-After, and hubs retry.
 */
export function registerWebSubRoutes(router: Router, d: WebSubRouteDeps): void {
  const now = d.now ?? Date.now;
  const byPublisher = new RateLimiter(d.perPublisher.rps, d.perPublisher.burst, now);
  const byClient = new RateLimiter(d.perClient.rps, d.perClient.burst, now);

  /** the publisher id, after its bucket; unknown ids are 404 and charged to the client */
  const admit = (req: Request): string | Reply => {
    const id = parseId(req.params.id);
    const wait = byPublisher.take(id);
    if (wait > 0) return limited(wait);
    return id;
  };
  const known = async (req: Request, id: string): Promise<Reply | null> => {
    if (await publisherExists(d.sql, id)) return null;
    const wait = byClient.take(clientIp(req, d.trustProxy));
    if (wait > 0) return limited(wait);
    throw new HttpError(404, 'not_found', 'no such subscription');
  };

  router.get('/websub/:id', async (req) => {
    const id = admit(req);
    if (typeof id !== 'string') return id;
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
      // the actor records the lease (or the denial) when its turn comes
      d.send(id, msg);
      return { status: ready.status, headers: TEXT, body: ready.body };
    }
    const miss = await known(req, id);
    if (miss) return miss;
    const out = (await d.ask(id, msg, VERIFY_ASK_MS)) as { status: number; body?: string };
    return { status: out.status, headers: TEXT, body: out.body ?? '' };
  });

  router.post('/websub/:id', async (req) => {
    const id = admit(req);
    if (typeof id !== 'string') return id;
    const miss = await known(req, id);
    if (miss) return miss;
    const body = await req.body();
    const r = (await d.ask(
      id,
      { type: 'websub-push', body: new Uint8Array(body), signature: req.headers['x-hub-signature'] ?? null, contentType: req.headers['content-type'] ?? null },
      PUSH_ASK_MS,
    )) as { status: number };
    // 2xx tells the hub the delivery arrived; a bad signature is acknowledged and ignored (WebSub §8)
    return { status: r.status, headers: TEXT, body: '' };
  });
}
