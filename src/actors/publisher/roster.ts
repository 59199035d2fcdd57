import { publisherIds, unscheduledPublisherIds } from '../store/publishers.js';
import { describeError, isOutage } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';

/** Which publishers a node runs actors for: every stored one at start, and new rows as they appear. */

const PAGE = 1000;

/** Calls `spawn` for every stored publisher id, a page at a time; returns how many. */
export async function spawnAll(sql: Sql, spawn: (id: string) => void): Promise<number> {
  let n = 0;
  for (let after: string | null = null; ; ) {
    const page = await publisherIds(sql, { after, limit: PAGE });
    for (const id of page) spawn(id);
    n += page.length;
    if (page.length < PAGE) return n;
    after = page[page.length - 1]!;
  }
}

/**
 * Looks every `everyMs` for publishers no actor has scheduled yet (rows another process added,
 * e.g. `newsagg import-opml` against this node's PostgreSQL) and spawns them, so they poll
 * within seconds like feeds added through the admin API. Spawning a live actor does nothing.
 * Returns a stop function.
 */
export function watchUnscheduled(sql: Sql, spawn: (id: string) => void, opts: { everyMs?: number; log: Logger }): () => void {
  let running = false;
  let failing = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    unscheduledPublisherIds(sql, 10_000)
      .then((ids) => {
        failing = false;
        for (const id of ids) spawn(id);
      })
      .catch((err: unknown) => {
        // the database adapter reports outages itself; say once that the watch is failing
        if (!failing && !isOutage(err)) opts.log.warn({ err: describeError(err) }, 'looking for new publishers failed; retrying');
        failing = true;
      })
      .finally(() => {
        running = false;
      });
  }, opts.everyMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}
