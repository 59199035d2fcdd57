import { describeError } from '../../runtime/errors.js';
import { FencedOffError } from '../../runtime/fence.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Announcer } from './announce.js';
import type { Decided, Decider } from './decide.js';
import type { PreparedArticle, RawArticle, RejectedArticle } from './types.js';
import { DecisionExpiredError, type BatchWriter, type Written } from './write.js';

export interface Prepared {
  ok: PreparedArticle[];
  rejected: RejectedArticle[];
}

export interface IngestPipelineDeps {
  /** the CPU stage (the shared worker pool in a node) */
  prepare(batch: RawArticle[]): Promise<Prepared>;
  decider: Decider;
  writer: BatchWriter;
  announcer: Announcer;
  log?: Logger;
  metrics?: Metrics;
  /** attempts at storing a decided batch before it goes back to the ingest log (default 3) */
  writeAttempts?: number;
  /** pause before the second attempt, doubling after (default 500 ms) */
  writeRetryMs?: number;
  /** batches stored and not yet announced before the next acknowledgement waits (default 4) */
  maxAnnouncing?: number;
}

export interface IngestOutcome {
  stored: number;
  updated: number;
  duplicates: number;
  rejected: number;
  stories: number;
}

/**
 * A node's ingest path for one batch of the ingest log: prepare (CPU pool) → decide (exact and
 * near-duplicate dedup, clustering; one batch at a time, in order) → store (one transaction,
 * poison isolated; in order) → announce (feed cache, events; in order, after the acknowledgement).
 * `handle` resolves once the batch is stored: that is the ingest log's acknowledgement, and what
 * a publisher waits for before it moves its validators on. Batches handed in at once overlap:
 * while one is stored, the next is decided and the one after prepared. Every write is
 * idempotent, so a batch delivered again after a crash changes nothing already stored.
 */
export class IngestPipeline {
  private readonly log: Logger;
  private readonly counts;
  private readonly rejectedCount;
  private decideTail: Promise<unknown> = Promise.resolve();
  private writeTail: Promise<unknown> = Promise.resolve();
  private announceTail: Promise<void> = Promise.resolve();
  private readonly announcing: Promise<void>[] = [];
  /** when a batch was last stored (epoch ms; for the readiness check) */
  lastStoredAt = 0;

  constructor(private readonly d: IngestPipelineDeps) {
    this.log = d.log ?? silentLogger;
    this.counts = d.metrics?.counter('newsagg_ingest_articles_total', 'Articles through the ingest pipeline by outcome', ['outcome']);
    this.rejectedCount = d.metrics?.counter('newsagg_ingest_rejected_total', 'Articles ingest set aside instead of storing, by reason', ['reason']);
  }

  /** Resolves once the batch is stored (its articles, stories, fingerprints and rejections). */
  async handle(raw: RawArticle[]): Promise<IngestOutcome> {
    const prepared = this.d.prepare(raw);
    // decisions follow the order batches were handed in, whatever order their preparation ends in
    const decided = this.decideTail.then(async () => this.d.decider.decide(await prepared));
    this.decideTail = decided.catch(() => undefined);
    const written = Promise.all([decided, this.writeTail]).then(([d]) => this.store(d));
    this.writeTail = written.catch(() => undefined);
    const [d, w] = await Promise.all([decided, written]);
    this.lastStoredAt = Date.now();
    const duplicates = w.rows.reduce((n, r) => n + (r.duplicate_of !== null ? 1 : 0), 0);
    this.counts?.inc({ outcome: 'stored' }, w.rows.length);
    this.counts?.inc({ outcome: 'updated' }, w.refreshed);
    this.counts?.inc({ outcome: 'duplicate' }, duplicates);
    this.counts?.inc({ outcome: 'rejected' }, w.rejected.length);
    for (const r of w.rejected) {
      this.rejectedCount?.inc({ reason: r.reason });
      this.log.warn({ publisher_id: r.publisher, url: r.url.slice(0, 300), reason: r.reason, code: r.code }, `article set aside: ${r.message.slice(0, 300)}`);
    }
    // announcements follow in order; the acknowledgement waits only when too many are behind
    const announced = this.announceTail.then(() =>
      this.d.announcer.announce(w, d.thumbnails).catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'announcing a stored batch failed; its stories reach the feed cache when it is rebuilt')),
    );
    this.announceTail = announced;
    this.announcing.push(announced);
    void announced.then(() => this.announcing.splice(this.announcing.indexOf(announced), 1));
    if (this.announcing.length > (this.d.maxAnnouncing ?? 4)) await this.announcing[0];
    return { stored: w.rows.length, updated: w.refreshed, duplicates, rejected: w.rejected.length, stories: w.stories.length };
  }

  /** Every announcement of a batch stored so far has finished. */
  async settled(): Promise<void> {
    await this.decideTail;
    await this.writeTail;
    await this.announceTail;
  }

  /** Store a decided batch, retrying what the database could not do just now; its URLs are released either way. */
  private async store(d: Decided): Promise<Written> {
    const attempts = this.d.writeAttempts ?? 3;
    let wait = this.d.writeRetryMs ?? 500;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.d.writer.write(d);
        } catch (err) {
          // an expired or fenced-off decision stays so: the batch goes back to be decided again
          if (attempt >= attempts || err instanceof DecisionExpiredError || err instanceof FencedOffError) throw err;
          this.log.warn({ err: describeError(err), size: d.rows.length, attempt }, 'storing a batch failed; retrying');
          await new Promise((r) => setTimeout(r, wait));
          wait *= 2;
        }
      }
    } finally {
      this.d.decider.release(d);
    }
  }
}
