import { Announcer } from '../actors/ingest/announce.js';
import { recomputeAuthority } from '../actors/store/authority.js';
import { applyRetention } from '../actors/store/retention.js';
import { StoryCountCheck } from '../actors/store/story-count-check.js';
import type { Component, Node } from '../node.js';
import { describeError, isOutage } from '../runtime/errors.js';

export interface MaintenanceOptions {
  /** first pass after start (default 1 min: start-up is busy enough) */
  firstDelayMs?: number;
  /** retention passes (default every 6 h) */
  retentionEveryMs?: number;
  /** publisher authority recomputation (default every hour) */
  authorityEveryMs?: number;
  /** story count check passes (default every minute) */
  storyCountsEveryMs?: number;
  /** stories of the rolling count check per pass (default 2,000) */
  storyCountsSlice?: number;
  now?: () => number;
}

/**
 * Scheduled upkeep of the store on a node that writes it (the `process` role): retention
 * (`--retention-days`: old article partitions, clicks, emptied stories), publisher authority
 * from each publisher's record, and the check that story counts follow their rows (repairs
 * counted in `newsagg_story_count_repairs_total`). Failures are logged and retried at the next pass.
 */
export function maintenanceComponent(opts: MaintenanceOptions = {}): Component {
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let host: Node | null = null;
  return {
    name: 'maintenance',
    start(node: Node) {
      host = node;
      const now = opts.now ?? Date.now;
      const days = node.config.retentionDays;
      // one pass at a time, none started once stopping
      const queue = (fn: () => Promise<void>) => {
        if (stopped) return;
        running = running.then(() => (stopped ? undefined : fn()));
      };
      // the feed cache's entries of stories whose counts changed: coverage counts as stored
      const announcer = new Announcer({ sql: node.sql, cache: node.cache, log: node.log });
      const refresh = (ids: string[]) =>
        announcer.refresh(ids).catch((err: unknown) => node.log.warn({ err: describeError(err), stories: ids.length }, 'recounted stories not refreshed in the feed cache'));
      const counts = new StoryCountCheck({ sql: node.sql, metrics: node.metrics, log: node.log, onChanged: refresh, ...(opts.storyCountsSlice ? { slice: opts.storyCountsSlice } : {}) });
      const retention = () =>
        queue(async () => {
          try {
            const r = await applyRetention(node.sql, now() - days * 86_400_000, now(), { onRecounted: refresh });
            node.log.info({ retention_days: days, ...r, partitions: r.partitions.join(',') || undefined }, 'retention pass');
          } catch (err) {
            node.log.warn({ err: describeError(err) }, 'retention pass failed');
          }
        });
      const authority = () =>
        queue(async () => {
          try {
            const n = await recomputeAuthority(node.sql, now());
            node.log.debug({ publishers: n }, 'publisher authority recomputed');
          } catch (err) {
            node.log.warn({ err: describeError(err) }, 'publisher authority not recomputed');
          }
        });
      const storyCounts = () =>
        queue(async () => {
          try {
            const started = Date.now();
            const p = await counts.pass();
            node.log.debug({ checked: p.checked, repaired: p.repaired.length, marked: p.marked, wrapped: p.wrapped, ms: Date.now() - started }, 'story counts checked');
          } catch (err) {
            // a database that is away says so itself, once
            node.log[isOutage(err) ? 'debug' : 'warn']({ err: describeError(err) }, 'story count check failed');
          }
        });
      const every = (fn: () => void, ms: number) => {
        const t = setInterval(fn, ms);
        t.unref();
        timers.push(t);
      };
      const first = setTimeout(() => {
        authority();
        retention();
        storyCounts();
        every(retention, opts.retentionEveryMs ?? 6 * 3_600_000);
        every(authority, opts.authorityEveryMs ?? 3_600_000);
        every(storyCounts, opts.storyCountsEveryMs ?? 60_000);
      }, opts.firstDelayMs ?? 60_000);
      first.unref();
      timers.push(first);
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      // a pass under way (a long retention pass) gets what the shutdown budget can spare; each of
      // its steps is a transaction of its own, so one cut short is done again at the next start
      const left = (host?.stopBudgetLeftMs() ?? 0) - 5_000;
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([running.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), Math.max(0, left))))]);
      clearTimeout(timer);
      if (!done) host?.log.warn('a maintenance pass was still running at shutdown: it is cut short');
    },
  };
}
