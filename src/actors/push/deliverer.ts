import { defineBehaviour, type ActorContext, type Behaviour } from '../../runtime/actor.js';
import { describeError, isOutage } from '../../runtime/errors.js';
import type { ClaimedAlert } from '../store/push-queue.js';
import { alertPayload } from './payload.js';
import { inQuietHours, judge, localDay, type Answer } from './policy.js';
import { topicOf, type PushMessage, type PushTarget } from './sender.js';

/**
 * PushDeliverer (`push/deliver`, one per API node): takes due alerts from the durable queue
 * (claimed with a lease, so the nodes share them and a node that dies leaves its share to the
 * others), applies the reader's quiet hours and daily cap, sends each to its push service and
 * settles the row by the answer: sent (deleted), gone (the subscription deleted), tried again
 * later (Retry-After or backoff), or given up. It polls the queue every `pollMs`, at once when
 * told alerts were enqueued here, and straight on while it finds full batches.
 */

export type DelivererMsg =
  /** look for due alerts (a timer, or a nudge after alerts were enqueued) */
  | { type: 'poll' }
  /** answered once the batch in hand is settled (the node is stopping) */
  | { type: 'drain' };

export const PUSH_DELIVERER = 'push/deliver';

/** What happened to one alert: `newsagg_push_sent_total{outcome}`. */
export type DeliveryOutcome = 'sent' | 'retry' | 'gone' | 'failed' | 'expired' | 'quiet' | 'capped';

export interface DelivererConfig {
  pollMs: number;
  /** alerts claimed per poll */
  batch: number;
  /** sends in flight at once */
  concurrency: number;
  leaseMs: number;
  /** an alert not delivered this long after it was enqueued is dropped (and is the push TTL) */
  ttlMs: number;
  /** `--push-daily-cap`: the most a reader may ask for */
  dailyCap: number;
  /** forget marks older than this (default 7 days) */
  keepMarksMs?: number;
}

export interface DelivererDeps {
  cfg: DelivererConfig;
  now(): number;
  rand(): number;
  /** true once the node is stopping: claimed alerts not yet sent are released */
  stopping(): boolean;
  claim(at: number, limit: number, leaseMs: number): Promise<ClaimedAlert[]>;
  remove(ids: string[]): Promise<void>;
  retry(id: string, at: number): Promise<void>;
  release(ids: string[]): Promise<void>;
  dropSubscription(id: string): Promise<void>;
  takeSlot(readerId: string, day: number, alertKey: string, cap: number): Promise<boolean>;
  send(to: PushTarget, m: PushMessage): Promise<Answer & { error?: string }>;
  prune(marksBefore: number, dayBefore: number): Promise<void>;
  counted(outcome: DeliveryOutcome): void;
}

export interface DelivererState {
  lastPrune: number;
}

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export function delivererBehaviour(deps: DelivererDeps): Behaviour<DelivererState, DelivererMsg> {
  const cfg = deps.cfg;

  async function settle(a: ClaimedAlert, ctx: ActorContext): Promise<DeliveryOutcome> {
    const now = deps.now();
    const expiresAt = a.created_ms + cfg.ttlMs;
    const prefs = a.prefs;
    const tz = Number.isInteger(prefs.tz_offset_minutes) ? prefs.tz_offset_minutes : 0;
    if (now >= expiresAt) {
      await deps.remove([a.id]);
      return 'expired';
    }
    if (inQuietHours(now, tz, prefs.quiet_hours)) {
      await deps.remove([a.id]);
      return 'quiet';
    }
    const cap = Math.min(cfg.dailyCap, Number.isInteger(prefs.daily_cap) && prefs.daily_cap > 0 ? prefs.daily_cap : cfg.dailyCap);
    if (!(await deps.takeSlot(a.reader_id, localDay(now, tz), a.alert_key, cap))) {
      await deps.remove([a.id]);
      return 'capped';
    }
    const payload = JSON.stringify(alertPayload(a));
    const answer = await deps.send(
      { endpoint: a.endpoint, p256dh: a.p256dh, auth: a.auth },
      { payload, ttlSeconds: (expiresAt - now) / 1000, urgency: a.kind === 'breaking' ? 'high' : 'normal', topic: topicOf(a.story_id) },
    );
    const verdict = judge(answer, a.attempts, deps.now(), expiresAt, deps.rand());
    switch (verdict.outcome) {
      case 'sent':
        await deps.remove([a.id]);
        break;
      case 'gone':
        // the cascade takes the subscription's other queued alerts and marks with it
        await deps.dropSubscription(a.subscription_id);
        ctx.log.info({ subscription_id: a.subscription_id, status: answer.status }, 'push subscription gone; removed');
        break;
      case 'retry':
        await deps.retry(a.id, verdict.at);
        ctx.log.debug({ subscription_id: a.subscription_id, status: answer.status, err: answer.error, attempts: a.attempts, retry_at: new Date(verdict.at).toISOString() }, 'push not delivered; will retry');
        break;
      default:
        await deps.remove([a.id]);
        ctx.log.warn({ subscription_id: a.subscription_id, status: answer.status, err: answer.error, attempts: a.attempts, outcome: verdict.outcome }, 'push alert given up');
    }
    return verdict.outcome;
  }

  async function poll(state: DelivererState, ctx: ActorContext): Promise<number> {
    const now = deps.now();
    if (now - state.lastPrune >= PRUNE_EVERY_MS) {
      state.lastPrune = now;
      await deps.prune(now - (cfg.keepMarksMs ?? 7 * DAY_MS), Math.floor(now / DAY_MS) - 2);
    }
    const claimed = await deps.claim(now, cfg.batch, cfg.leaseMs);
    // one reader's alerts one after another, oldest first: its cap keeps the earlier ones and its
    // devices show them in order; different readers in parallel
    const byReader = new Map<string, ClaimedAlert[]>();
    for (const a of claimed) {
      const list = byReader.get(a.reader_id);
      if (list) list.push(a);
      else byReader.set(a.reader_id, [a]);
    }
    const groups = [...byReader.values()];
    const left: ClaimedAlert[] = [];
    const worker = async () => {
      for (let g = groups.shift(); g !== undefined; g = groups.shift()) {
        for (const [i, a] of g.entries()) {
          if (deps.stopping()) {
            left.push(...g.slice(i));
            break;
          }
          try {
            deps.counted(await settle(a, ctx));
          } catch (err) {
            // the row keeps its lease and comes back when it ends
            ctx.log.warn({ err: describeError(err), subscription_id: a.subscription_id }, 'push alert not settled');
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(cfg.concurrency, groups.length) }, worker));
    if (left.length > 0) await deps.release(left.map((a) => a.id));
    return claimed.length;
  }

  return defineBehaviour<DelivererState, DelivererMsg>({
    kind: 'push',
    // polls coalesce: a burst of nudges is one look at the queue
    mailbox: { capacity: 4, overflow: 'coalesce' },
    init(_key, ctx): DelivererState {
      ctx.schedule(cfg.pollMs, { type: 'poll' }, 'poll');
      return { lastPrune: 0 };
    },
    async receive(state, msg, ctx): Promise<void> {
      if (msg.type === 'drain' || deps.stopping()) return;
      let next = cfg.pollMs;
      try {
        // a full batch: more may be due, look again at once
        if ((await poll(state, ctx)) >= cfg.batch) next = 0;
      } catch (err) {
        (isOutage(err) ? ctx.log.debug.bind(ctx.log) : ctx.log.warn.bind(ctx.log))({ err: describeError(err) }, 'push queue not read; retrying');
        next = cfg.pollMs * 5;
      }
      ctx.schedule(next, { type: 'poll' }, 'poll');
    },
  });
}
