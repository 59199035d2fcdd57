import { describeError, isOutage } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import type { FeedItem } from '../model/index.js';
import type { LiveEvent, LiveStory } from '../store/live-events.js';
import { enqueueBreaking, enqueueStories, type AlertCandidate, type AlertItem } from '../store/push-queue.js';
import { loadInterest, type PushInterest } from '../store/push-subscriptions.js';
import { storySignals, type StorySignals } from '../store/stories.js';

/**
 * From live events to queued alerts. Every API node hears every live event (the same path the
 * WebSocket hub listens on: the breaking detector's announcements and the written stories) and
 * enqueues what they trigger; marks in the database make the alert single however many nodes
 * evaluate it. What any subscription listens for is kept in memory (reloaded on a change notice
 * and every `refreshMs`), so events that concern nobody cost no query at all.
 */

export interface PushAlertsOptions {
  sql: Sql;
  log: Logger;
  now: () => number;
  /** `--push-story-throttle-minutes`: a followed story alerts a subscription at most this often */
  throttleMs: number;
  /** told how many alerts were enqueued, when any */
  onEnqueued?: (n: number) => void;
  /** the interest snapshot is reloaded at least this often (default 30 s) */
  refreshMs?: number;
}

/** events waiting to be evaluated at most; more are dropped (a database away for long) */
const PENDING_MAX = 256;

/** What a notification shows of a feed item. */
export function alertItem(i: FeedItem): AlertItem {
  return { title: i.title, publisher_name: i.publisher_name, coverage_count: i.coverage_count, category: i.category };
}

/** The topic and place keys a story matches (the same key space as subscriptions: `c:`, `e:`, `l:`). */
export function storyAlertKeys(item: Pick<FeedItem, 'category'>, sig: StorySignals | undefined): string[] {
  const keys = new Set<string>();
  if (item.category) keys.add(`c:${item.category}`);
  if (sig) {
    for (const e of Array.isArray(sig.entities) ? sig.entities : []) if (typeof e === 'string' && e) keys.add(`e:${e.toLowerCase()}`);
    for (const e of Array.isArray(sig.lead_entities) ? sig.lead_entities : []) if (e && typeof e.name === 'string') keys.add(`e:${e.name.toLowerCase()}`);
    for (const p of Array.isArray(sig.lead_places) ? sig.lead_places : []) if (typeof p === 'string' && p) keys.add(`l:${p}`);
  }
  return [...keys];
}

/**
 * The stories of a `stories` event that may alert: followed ones, and those big enough for the
 * smallest topic threshold in use whose keys someone follows (`signals` gives their entities and
 * places). Keys nobody listens for are left out.
 */
export function candidatesOf(stories: readonly LiveStory[], interest: PushInterest, signals: ReadonlyMap<string, StorySignals>): AlertCandidate[] {
  const out: AlertCandidate[] = [];
  for (const s of stories) {
    const id = s.item.story_id;
    const keys: string[] = [];
    if (interest.keys.has(`s:${id}`)) keys.push(`s:${id}`);
    if (s.item.coverage_count >= interest.minThreshold) for (const k of storyAlertKeys(s.item, signals.get(id))) if (interest.keys.has(k)) keys.push(k);
    if (keys.length > 0) out.push({ story: id, count: s.item.coverage_count, item: alertItem(s.item), keys });
  }
  return out;
}

export class PushAlerts {
  private interest: PushInterest | null = null;
  private loadedAt = 0;
  private stale = true;
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private dropped = 0;
  private readonly refreshMs: number;

  constructor(private readonly o: PushAlertsOptions) {
    this.refreshMs = o.refreshMs ?? 30_000;
  }

  /** Subscriptions changed somewhere: reload what they listen for before the next event. */
  markStale(): void {
    this.stale = true;
  }

  /** Evaluates an event after those before it (one at a time: a slow database never piles up queries). */
  handle(event: LiveEvent): void {
    if (event.type === 'breaking' && !event.active) return;
    if (this.pending >= PENDING_MAX) {
      if (this.dropped++ % 100 === 0) this.o.log.warn({ dropped: this.dropped }, 'push alerts: events dropped while the database is slow');
      return;
    }
    this.pending++;
    this.chain = this.chain
      .then(() => this.evaluate(event))
      .catch((err: unknown) => {
        const log = isOutage(err) ? this.o.log.debug.bind(this.o.log) : this.o.log.warn.bind(this.o.log);
        log({ err: describeError(err), event: event.type }, 'push alerts not enqueued');
      })
      .finally(() => void this.pending--);
  }

  /** Resolves once every event handed in so far is evaluated. */
  idle(): Promise<void> {
    return this.chain;
  }

  private async current(): Promise<PushInterest> {
    const now = Date.now();
    if (this.stale || !this.interest || now - this.loadedAt >= this.refreshMs) {
      this.stale = false;
      try {
        this.interest = await loadInterest(this.o.sql);
        this.loadedAt = now;
      } catch (err) {
        this.stale = true;
        throw err;
      }
    }
    return this.interest;
  }

  private async evaluate(event: LiveEvent): Promise<void> {
    const interest = await this.current();
    if (interest.keys.size === 0) return;
    const now = this.o.now();
    let n = 0;
    if (event.type === 'breaking') {
      if (!interest.breaking) return;
      n = await enqueueBreaking(this.o.sql, event.story.story_id, alertItem(event.story), now);
    } else {
      const big = interest.topical ? event.stories.filter((s) => s.item.coverage_count >= interest.minThreshold).map((s) => s.item.story_id) : [];
      const signals = new Map((big.length > 0 ? await storySignals(this.o.sql, big) : []).map((s) => [s.id, s]));
      const candidates = candidatesOf(event.stories, interest, signals);
      if (candidates.length === 0) return;
      n = await enqueueStories(this.o.sql, candidates, now, this.o.throttleMs);
    }
    if (n > 0) this.o.onEnqueued?.(n);
  }
}
