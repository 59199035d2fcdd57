import { randomBytes } from 'node:crypto';
import type { Cache } from '../../runtime/cache.js';
import type { Sql } from '../../runtime/sql.js';
import type { SsrfGuard } from '../fetch/index.js';
import {
  deleteReaderSubscriptions, readerSubscriptions, saveSubscription, stopSubscription,
  type PushPrefs, type StoredSubscription,
} from '../store/push-subscriptions.js';
import { checkEndpoint } from './endpoint.js';

/** Subscriptions changed (added, replaced, removed): every node reloads what alerts listen for. */
export const PUSH_CHANNEL = 'newsagg:push';

/** What a client posted, checked and compiled (keys in the alert key space). */
export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  keys: string[];
  prefs: PushPrefs;
}

/** A subscription as its reader sees it. */
export type PushSubscriptionView = { id: string; endpoint: string; created_at: string } & PushPrefs;

export interface PushSubscriptionsOptions {
  sql: Sql;
  cache: Cache;
  guard: SsrfGuard;
  allowHttp: boolean;
  /** a reader's subscriptions kept at most (its oldest go first) */
  maxPerReader: number;
  now: () => number;
}

const view = (s: StoredSubscription): PushSubscriptionView => ({ id: s.id, endpoint: s.endpoint, created_at: new Date(s.created_at).toISOString(), ...s.prefs });

/** Readers' push subscriptions: saved after the endpoint passes the SSRF guard, removed by their reader or a stop URL. */
export class PushSubscriptions {
  constructor(private readonly o: PushSubscriptionsOptions) {}

  async subscribe(readerId: string, input: SubscriptionInput): Promise<{ view: PushSubscriptionView; created: boolean }> {
    await checkEndpoint(input.endpoint, this.o.guard, this.o.allowHttp);
    const { sub, created } = await saveSubscription(
      this.o.sql,
      { id: randomBytes(12).toString('base64url'), reader_id: readerId, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, stop_token: randomBytes(18).toString('base64url'), keys: input.keys, prefs: input.prefs },
      this.o.now(),
      this.o.maxPerReader,
    );
    await this.changed();
    return { view: view(sub), created };
  }

  async list(readerId: string): Promise<PushSubscriptionView[]> {
    return (await readerSubscriptions(this.o.sql, readerId)).map(view);
  }

  /** Removes the reader's subscription with this endpoint, or all of them (null). */
  async unsubscribe(readerId: string, endpoint: string | null): Promise<number> {
    const n = await deleteReaderSubscriptions(this.o.sql, readerId, endpoint);
    if (n > 0) await this.changed();
    return n;
  }

  /** A stop URL's `<id>.<token>`: removes that subscription when the token is its own. */
  async stop(ref: string): Promise<boolean> {
    const m = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,64})$/.exec(ref);
    if (!m) return false;
    const ok = await stopSubscription(this.o.sql, m[1]!, m[2]!);
    if (ok) await this.changed();
    return ok;
  }

  private async changed(): Promise<void> {
    await this.o.cache.publish(PUSH_CHANNEL, '1').catch(() => undefined);
  }
}
