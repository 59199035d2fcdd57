import { INVALIDATE_CHANNEL } from '../store/feed-cache.js';
import { feedsOf, storyKey } from '../store/feed-items.js';
import type { ThumbnailForResult } from '../thumbs/pipeline.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Sql } from '../../runtime/sql.js';

export interface ThumbnailJob {
  articleId: string;
  publishedAt: string;
  source: string;
}

export interface ThumbnailJobsOptions {
  sql: Sql;
  cache: Cache;
  /** fetch through the safe fetcher, resize, store; a failure is a reason, never a throw */
  make(url: string): Promise<ThumbnailForResult>;
  concurrency?: number;
  /** jobs waiting at most; beyond it new jobs are dropped (an article simply keeps no thumbnail) */
  maxQueued?: number;
  log?: Logger;
  metrics?: Metrics;
}

/**
 * Thumbnails after the article is stored, so a slow image never delays a story reaching the
 * feed: fetch the feed's media or og:image through the safe fetcher, make the 400×225 WebP,
 * point the article at `/thumbs/…`, and drop the cached story entry it leads so the next read
 * rebuilds it with the picture.
 */
export class ThumbnailJobs {
  private queue: ThumbnailJob[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly log: Logger;
  private readonly outcomes;

  constructor(private readonly o: ThumbnailJobsOptions) {
    this.log = o.log ?? silentLogger;
    this.outcomes = o.metrics?.counter('newsagg_thumbnails_total', 'Thumbnail jobs by outcome', ['outcome']);
  }

  enqueue(jobs: readonly ThumbnailJob[]): void {
    for (const j of jobs) {
      if (this.queue.length >= (this.o.maxQueued ?? 10_000)) {
        this.outcomes?.inc({ outcome: 'dropped' });
        continue;
      }
      this.queue.push(j);
    }
    this.pump();
  }

  /** Drop every queued job (shutdown); running ones finish. */
  clear(): void {
    this.queue = [];
    if (this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when no job is queued or running. */
  idle(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private pump(): void {
    while (this.running < (this.o.concurrency ?? 2) && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void this.run(job).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async run(job: ThumbnailJob): Promise<void> {
    try {
      const r = await this.o.make(job.source);
      if (!r.ok) {
        this.outcomes?.inc({ outcome: r.reason });
        this.log.debug({ article: job.articleId, source: job.source, reason: r.reason }, 'no thumbnail');
        return;
      }
      const url = `/thumbs/${r.relPath}`;
      await this.o.sql.query('UPDATE articles SET thumbnail_url = $3 WHERE id = $1 AND published_at = $2', [job.articleId, job.publishedAt, url]);
      const { rows } = await this.o.sql.query<{ id: string; category: string | null; regions: string[] }>(
        'SELECT id, category, regions FROM stories WHERE lead_article_id = $1',
        [job.articleId],
      );
      if (rows.length) {
        await this.o.cache.del(...rows.map((s) => storyKey(s.id)));
        const feeds = [...new Set(rows.flatMap((s) => feedsOf(s)))];
        await this.o.cache.publish(INVALIDATE_CHANNEL, JSON.stringify({ feeds, stories: rows.map((s) => s.id) }));
      }
      this.outcomes?.inc({ outcome: 'ok' });
    } catch (err) {
      this.outcomes?.inc({ outcome: 'error' });
      this.log.warn({ article: job.articleId, err: describeError(err) }, 'thumbnail job failed');
    }
  }
}
