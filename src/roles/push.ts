import { SsrfGuard } from '../actors/fetch/index.js';
import {
  PUSH_CHANNEL, PUSH_DELIVERER, PushAlerts, PushSender, PushSubscriptions, delivererBehaviour, generateVapidKeys, vapidKeysFromPrivate,
  type DelivererMsg, type DeliveryOutcome,
} from '../actors/push/index.js';
import { liveEventsFor } from '../actors/store/live-events.js';
import {
  claimAlerts, prunePush, releaseAlerts, removeAlerts, retryAlert, takeDailySlot,
} from '../actors/store/push-queue.js';
import { dropSubscription, vapidKeys } from '../actors/store/push-subscriptions.js';
import type { PushRoutesDeps } from '../api/routes/push.js';
import type { Component, Node } from '../node.js';
import { ConfigError, describeError } from '../runtime/errors.js';

/** A reader keeps at most this many subscriptions (browsers, devices); the oldest go first. */
const MAX_PER_READER = 10;
/** An alert not delivered within this long is dropped (and it is the push TTL). */
const ALERT_TTL_MS = 12 * 3_600_000;
const OUTCOMES: readonly DeliveryOutcome[] = ['sent', 'retry', 'gone', 'failed', 'expired', 'quiet', 'capped'];

export interface PushComponent extends Component {
  /** the routes' view of push (after start) */
  routes(): PushRoutesDeps;
  /** resolves once the live events handed in so far are evaluated (tests) */
  idle(): Promise<void>;
}

/**
 * Push alerts on an API node: the VAPID keys (from `--vapid-private-key`, else the deployment's
 * pair in the database), the readers' subscriptions, the live-event listener that enqueues alerts
 * (breaking stories, followed stories, followed topics and places), and the PushDeliverer actor
 * that sends them from the durable queue. Started before the API component, which serves its routes.
 */
export function pushComponent(opts: { now?: () => number; pollMs?: number } = {}): PushComponent {
  let deps: PushRoutesDeps | null = null;
  let alerts: PushAlerts | null = null;
  let sender: PushSender | null = null;
  let node: Node | null = null;
  let stopping = false;
  const offs: (() => Promise<void>)[] = [];
  return {
    name: 'push',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const now = opts.now ?? Date.now;
      let keys;
      if (cfg.vapidPrivateKey !== undefined) {
        try {
          keys = vapidKeysFromPrivate(cfg.vapidPrivateKey);
        } catch (err) {
          throw new ConfigError(`--vapid-private-key: ${(err as Error).message}`, err);
        }
      } else {
        keys = await vapidKeys(n.sql, generateVapidKeys);
      }
      const s = (sender = new PushSender({ vapid: keys, subject: cfg.vapidSubject, allowlist: cfg.fetchAllowlist, allowHttp: cfg.pushAllowHttp, now }));
      const sent = n.metrics.counter('newsagg_push_sent_total', 'Push alerts settled, by outcome (sent, retry, gone, failed, expired, quiet, capped)', ['outcome']);
      for (const o of OUTCOMES) sent.inc({ outcome: o }, 0);
      n.system.register(
        delivererBehaviour({
          cfg: { pollMs: opts.pollMs ?? 1000, batch: 128, concurrency: 32, leaseMs: 120_000, ttlMs: ALERT_TTL_MS, dailyCap: cfg.pushDailyCap },
          now,
          rand: Math.random,
          stopping: () => stopping,
          claim: (at, limit, leaseMs) => claimAlerts(n.sql, at, limit, leaseMs),
          remove: (ids) => removeAlerts(n.sql, ids),
          retry: (id, at) => retryAlert(n.sql, id, at),
          release: (ids) => releaseAlerts(n.sql, ids),
          dropSubscription: async (id) => {
            await dropSubscription(n.sql, id);
            await n.cache.publish(PUSH_CHANNEL, '1').catch(() => undefined);
          },
          takeSlot: (reader, day, key, cap) => takeDailySlot(n.sql, reader, day, key, cap),
          send: (to, m) => s.send(to, m),
          prune: (marksBefore, dayBefore) => prunePush(n.sql, marksBefore, dayBefore),
          counted: (outcome) => sent.inc({ outcome }),
        }),
      );
      n.system.spawn(PUSH_DELIVERER);
      const nudge = () => {
        try {
          n.system.send<DelivererMsg>(PUSH_DELIVERER, { type: 'poll' });
        } catch (err) {
          n.log.debug({ err: describeError(err) }, 'push deliverer not nudged');
        }
      };
      const a = (alerts = new PushAlerts({ sql: n.sql, log: n.log, now, throttleMs: cfg.pushStoryThrottleMinutes * 60_000, onEnqueued: nudge }));
      offs.push(await n.cache.subscribe(PUSH_CHANNEL, () => a.markStale()));
      offs.push(await liveEventsFor(n.cache, n.broadcast, n.log).subscribe((e) => a.handle(e)));
      deps = {
        publicKey: keys.publicKey,
        defaults: { threshold: cfg.pushTopicThreshold, quietHours: cfg.pushQuietHours, dailyCap: cfg.pushDailyCap },
        subscriptions: new PushSubscriptions({
          sql: n.sql, cache: n.cache, guard: new SsrfGuard([...cfg.fetchAllowlist]), allowHttp: cfg.pushAllowHttp, maxPerReader: MAX_PER_READER, now,
        }),
      };
    },
    async stop() {
      stopping = true;
      for (const off of offs.splice(0)) await off().catch(() => undefined);
      await alerts?.idle();
      // the batch in hand is settled (its unsent alerts released) before the sender closes
      if (node) await node.system.ask(PUSH_DELIVERER, { type: 'drain' }, Math.max(1000, node.stopBudgetLeftMs() / 2)).catch(() => undefined);
      await sender?.close();
    },
    routes() {
      if (!deps) throw new Error('the push component has not started');
      return deps;
    },
    idle() {
      return alerts?.idle() ?? Promise.resolve();
    },
  };
}
