import { recomputeAuthority } from '../actors/store/authority.js';
import { applyRetention } from '../actors/store/retention.js';
import type { Component, Node } from '../node.js';
import { describeError } from '../runtime/errors.js';

export interface MaintenanceOptions {
  /** first pass after start (default 1 min: start-up is busy enough) */
  firstDelayMs?: number;
  /** retention passes (default every 6 h) */
  retentionEveryMs?: number;
  /** publisher authority recomputation (default every hour) */
  authorityEveryMs?: number;
  now?: () => number;
}

/**
 * Scheduled upkeep of the store on a node that writes it (the `process` role): retention
 * (`--retention-days`: old article partitions, clicks, emptied stories) and publisher authority
 * from each publisher's record. Failures are logged and retried at the next pass.
 */
export function maintenanceComponent(opts: MaintenanceOptions = {}): Component {
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<void> = Promise.resolve();
  return {
    name: 'maintenance',
    start(node: Node) {
      const now = opts.now ?? Date.now;
      const days = node.config.retentionDays;
      const retention = () => {
        running = running.then(async () => {
          try {
            const r = await applyRetention(node.sql, now() - days * 86_400_000, now());
            node.log.info({ retention_days: days, ...r, partitions: r.partitions.join(',') || undefined }, 'retention pass');
          } catch (err) {
            node.log.warn({ err: describeError(err) }, 'retention pass failed');
          }
        });
      };
      const authority = () => {
        running = running.then(async () => {
          try {
            const n = await recomputeAuthority(node.sql, now());
            node.log.debug({ publishers: n }, 'publisher authority recomputed');
          } catch (err) {
            node.log.warn({ err: describeError(err) }, 'publisher authority not recomputed');
          }
        });
      };
      const every = (fn: () => void, ms: number) => {
        const t = setInterval(fn, ms);
        t.unref();
        timers.push(t);
      };
      const first = setTimeout(() => {
        authority();
        retention();
        every(retention, opts.retentionEveryMs ?? 6 * 3_600_000);
        every(authority, opts.authorityEveryMs ?? 3_600_000);
      }, opts.firstDelayMs ?? 60_000);
      first.unref();
      timers.push(first);
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      await running;
    },
  };
}
