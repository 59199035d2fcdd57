import { describeError } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';

/**
 * What ingest did lately, as one info line a minute: polls (and how many were 304s or failed),
 * new entries found, articles stored, duplicates, rejects, stories written. Read from the node's
 * counters (the same ones /metrics shows), so the line and the metrics never disagree.
 */
export interface ActivityTotals {
  polls: number;
  notModified: number;
  pollErrors: number;
  parseErrors: number;
  entries: number;
  stored: number;
  duplicates: number;
  rejected: number;
  stories: number;
}

/** The counters' totals now. */
export async function readTotals(m: Metrics): Promise<ActivityTotals> {
  const articles = (outcome: string) => m.sum('newsagg_ingest_articles_total', { outcome });
  const [polls, notModified, pollErrors, parseErrors, entries, stored, duplicates, rejectedByOutcome, rejected, stories] = await Promise.all([
    m.sum('newsagg_publisher_polls_total'),
    m.sum('newsagg_publisher_polls_total', { outcome: 'not_modified' }),
    m.sum('newsagg_publisher_polls_total', { outcome: 'error' }),
    m.sum('newsagg_publisher_parse_errors_total'),
    m.sum('newsagg_publisher_entries_total'),
    articles('stored'),
    articles('duplicate'),
    articles('rejected'),
    m.sum('newsagg_ingest_rejected_total'),
    m.sum('newsagg_stories_written_total'),
  ]);
  // rejects are counted by outcome or by their own counter (whichever the pipeline keeps)
  return { polls, notModified, pollErrors, parseErrors, entries, stored, duplicates, rejected: Math.max(rejected, rejectedByOutcome), stories };
}

export function difference(now: ActivityTotals, before: ActivityTotals): ActivityTotals {
  const out = { ...now };
  for (const k of Object.keys(out) as (keyof ActivityTotals)[]) out[k] = Math.max(0, now[k] - before[k]);
  return out;
}

/** `ingest, last 60 s: 120 polls (80 not modified, 2 failed), 35 new entries, 30 articles stored (4 duplicates), 12 stories` */
export function describeActivity(d: ActivityTotals, seconds: number): string {
  const failed = d.pollErrors + d.parseErrors;
  const polls = `${d.polls} polls (${d.notModified} not modified, ${failed} failed)`;
  const stored = `${d.stored} articles stored (${d.duplicates} duplicates${d.rejected ? `, ${d.rejected} rejected` : ''})`;
  return `ingest, last ${seconds} s: ${polls}, ${d.entries} new entries, ${stored}, ${d.stories} stories`;
}

/** Logs the activity line every `everyMs` (default a minute) until stopped. */
export class ActivityLog {
  private timer: NodeJS.Timeout | null = null;
  private last: ActivityTotals | null = null;
  private lastAt = 0;

  constructor(
    private readonly o: { metrics: Metrics; log: Logger; everyMs?: number; now?: () => number },
  ) {}

  async start(): Promise<void> {
    const now = this.o.now ?? Date.now;
    this.last = await readTotals(this.o.metrics);
    this.lastAt = now();
    this.timer = setInterval(() => void this.tick(), this.o.everyMs ?? 60_000);
    this.timer.unref();
  }

  /** Logs what happened since the last line (or since start). */
  async tick(): Promise<void> {
    const now = this.o.now ?? Date.now;
    try {
      const totals = await readTotals(this.o.metrics);
      const d = difference(totals, this.last ?? totals);
      const seconds = Math.round((now() - this.lastAt) / 1000);
      this.last = totals;
      this.lastAt = now();
      this.o.log.info(
        { activity: { polls: d.polls, not_modified: d.notModified, poll_errors: d.pollErrors, parse_errors: d.parseErrors, entries: d.entries, articles: d.stored, duplicates: d.duplicates, rejected: d.rejected, stories: d.stories }, seconds },
        describeActivity(d, seconds),
      );
    } catch (err) {
      this.o.log.warn({ err: describeError(err) }, 'activity line failed');
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
