import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Sql } from '../../runtime/sql.js';
import { databaseNow } from './stories.js';
import { driftedStories, recountMarked, recountStories, storiesWrittenSince, storyIdsAfter, type CountFix } from './story-counts.js';

export interface StoryCountCheckOptions {
  sql: Sql;
  /** stories of the rolling check per pass (default 2,000): all stories are seen once per `stories / slice` passes */
  slice?: number;
  /** at most this many stories of the recently written articles per pass (default 20,000) */
  recentLimit?: number;
  /** how far before the previous pass the recent look starts (default 5 min: a batch's transaction running meanwhile) */
  recentMarginMs?: number;
  /** stories marked for a recount (retention's leftovers) taken per pass (default 1,000) */
  markedLimit?: number;
  metrics?: Metrics;
  log?: Logger;
  /** told about the stories whose counts changed (to refresh their feed cache entries) */
  onChanged?: (ids: string[]) => void | Promise<void>;
}

/** What one pass looked at and what it changed. */
export interface StoryCountPass {
  /** stories compared with their rows (recent ones and the slice) */
  checked: number;
  /** stories whose counts had drifted, repaired */
  repaired: CountFix[];
  /** marked stories recounted (expected work, not drift) */
  marked: number;
  /** the rolling check reached the last story and starts again at the first */
  wrapped: boolean;
}

/**
 * The periodic check that story counts follow their rows, bounded at any table size: each pass
 * takes the stories marked for a recount, then compares (one statement, no locks) the stories of
 * the articles written since shortly before the previous pass and one slice of all stories in id
 * order, and recounts under the story locks only those that drifted. A repair is drift that
 * nothing else caught: it is counted in `newsagg_story_count_repairs_total` and logged.
 */
export class StoryCountCheck {
  private cursor = '';
  private lastStart: number | null = null;
  private readonly log: Logger;
  private readonly repairs;

  constructor(private readonly o: StoryCountCheckOptions) {
    this.log = o.log ?? silentLogger;
    this.repairs = o.metrics?.counter('newsagg_story_count_repairs_total', 'Stories whose stored article or publisher count had drifted from their rows, repaired by the periodic check');
  }

  async pass(): Promise<StoryCountPass> {
    const sql = this.o.sql;
    const start = await databaseNow(sql);
    const { taken, fixes: markedFixes } = await recountMarked(sql, this.o.markedLimit ?? 1_000);

    const since = (this.lastStart ?? start) - (this.o.recentMarginMs ?? 5 * 60_000);
    const recent = await storiesWrittenSince(sql, since, this.o.recentLimit ?? 20_000);
    const slice = await storyIdsAfter(sql, this.cursor, this.o.slice ?? 2_000);
    const wrapped = slice.length < (this.o.slice ?? 2_000);
    this.cursor = wrapped ? '' : slice[slice.length - 1]!;
    const ids = [...new Set([...recent, ...slice])];
    const suspects = await driftedStories(sql, ids);
    const repaired = suspects.length > 0 ? await sql.tx((q) => recountStories(q, suspects)) : [];
    this.lastStart = start;

    if (repaired.length > 0) {
      this.repairs?.inc(repaired.length);
      this.log.warn(
        { repaired: repaired.length, stories: repaired.slice(0, 10).map((f) => `${f.id}: ${f.before.articles}->${f.after.articles} articles, ${f.before.publishers}->${f.after.publishers} publishers`) },
        'story counts had drifted from their articles; repaired',
      );
    }
    const changed = [...markedFixes, ...repaired].map((f) => f.id);
    if (changed.length > 0) {
      try {
        await this.o.onChanged?.(changed);
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'repaired stories not refreshed in the feed cache');
      }
    }
    return { checked: ids.length, repaired, marked: taken, wrapped };
  }
}
