import { ensurePartitionsFor, refreshArticles, upsertArticles, type ArticleRow, type RefreshRow } from '../store/articles.js';
import { storyScore } from '../store/feed-items.js';
import { recordRejected, type RejectedRecord } from '../store/rejected.js';
import { recountStories } from '../store/story-counts.js';
import { countStoryArticles, getStories, lockStories, upsertStories, type StoryRow } from '../store/stories.js';
import { describeError, NewsaggError } from '../../runtime/errors.js';
import { checkFences } from '../../runtime/fence.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import type { Decided } from './decide.js';
import type { SqlFingerprints } from './fingerprints-sql.js';
import type { RejectedArticle } from './types.js';

/** A decided batch as it was stored: what the announcement and the acknowledgement need. */
export interface Written {
  rows: ArticleRow[];
  refreshed: number;
  /** the batch's stories with their counts as the stored rows give them */
  stories: StoryRow[];
  /** everything set aside: by the CPU stage, the clusterer, and the database */
  rejected: RejectedArticle[];
}

/**
 * A decided batch not stored within its decision's time (`Decided.storeBy`): its transaction is
 * rolled back and the batch decided again, so a dedup or story shard's new owner, which catches
 * up with what the old one answered only for that long, misses nothing (decision-time.ts).
 */
export class DecisionExpiredError extends NewsaggError {
  constructor(lateMs: number) {
    super('DECISION_EXPIRED', `a decided batch was not stored in time (${lateMs} ms late): it is decided again`);
  }
}

/**
 * SQLSTATE classes of a refusal that belongs to the data of some row (data exception, integrity
 * constraint, program limit such as a too-large index entry), as opposed to the database being
 * unreachable, busy or restarting, which is worth retrying as it is.
 */
const ROW_ERROR = /^(22|23|54)/;

export function isRowError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && ROW_ERROR.test(code);
}

/**
 * The storage stage: one transaction per batch with its articles, refreshed rows, stories (their
 * counts recounted from the stored rows, so they stay exact across replays) and fingerprints,
 * and the batch's rejected articles. When the database refuses the batch for a row's data, the
 * batch is written again with the articles split in halves (each half in a savepoint) until the
 * refused ones are found: they are recorded in `rejected_articles` with the database's reason
 * and everything else is stored. A refusal of every article of a batch is not one bad article
 * but a fault of the database or of this code: it is thrown, to be retried.
 */
export class BatchWriter {
  private readonly log: Logger;

  constructor(
    private readonly sql: Sql,
    private readonly fingerprints: SqlFingerprints,
    log?: Logger,
    /** the clock of `Decided.storeBy` */
    private readonly now: () => number = Date.now,
  ) {
    this.log = log ?? silentLogger;
  }

  async write(d: Decided): Promise<Written> {
    // outside the transaction: a partition made inside one that rolls back would be remembered but gone
    await ensurePartitionsFor(this.sql, d.rows.map((r) => r.published_at));
    try {
      return await this.sql.tx(async (q) => {
        // first: decisions of a shard owner deposed since are refused (FencedOffError: decided again)
        await checkFences(q, d.fences ?? []);
        await upsertArticles(q, d.rows, { partitionsReady: true });
        await refreshArticles(q, d.refresh);
        return this.finish(q, d, d.rows, d.refresh.length, []);
      });
    } catch (err) {
      if (!isRowError(err) || d.rows.length + d.refresh.length === 0) throw err;
      this.log.warn({ err: describeError(err), size: d.rows.length }, 'the database refused a batch: looking for the articles it refuses');
      return this.sql.tx(async (q) => {
        await checkFences(q, d.fences ?? []);
        const refused: { url: string; publisher: string; id: string; err: unknown; article: unknown }[] = [];
        const rows = await isolate(q, d.rows, (s, part) => upsertArticles(s, part, { partitionsReady: true }), (r, e) => refused.push({ url: r.url, publisher: r.publisher_id, id: r.id, err: e, article: r }));
        const byId = new Map(d.rows.map((r) => [r.id, r]));
        const refresh = await isolate(q, d.refresh, refreshArticles, (r, e) => {
          const stored = byId.get(r.id);
          refused.push({ url: stored?.url ?? r.id, publisher: stored?.publisher_id ?? '', id: r.id, err: e, article: r });
        });
        if (refused.length === d.rows.length + d.refresh.length && refused.length > 1) throw err;
        const storage: RejectedArticle[] = refused.map((x) => ({
          index: -1, url: x.url, publisher: x.publisher, reason: 'storage_rejected', code: String((x.err as { code?: string }).code ?? 'SQL'), message: describeError(x.err),
        }));
        const articles = new Map(refused.map((x) => [x.url, x.article]));
        return this.finish(q, d, rows, refresh.length, storage, articles);
      });
    }
  }

  /** Stories (recounted), fingerprints and the record of what was set aside, after the articles. */
  private async finish(q: Sql, d: Decided, rows: ArticleRow[], refreshed: number, storage: RejectedArticle[], articles?: Map<string, unknown>): Promise<Written> {
    const gone = new Set(storage.map((r) => r.url));
    const goneIds = new Set(d.rows.filter((r) => gone.has(r.url)).map((r) => r.id));
    // every story a stored row names is recounted, also one the clusterer did not describe (an
    // article it already knew, from a batch decided before and never stored: a redelivery, or a
    // batch of a story shard's previous owner)
    const described = new Set(d.stories.map((s) => s.id));
    const named = new Set<string>();
    for (const r of rows) if (r.story_id && !goneIds.has(r.id) && !described.has(r.story_id)) named.add(r.story_id);
    // another node's batch may be writing to the same stories: count after it committed
    await lockStories(q, [...described, ...named]);
    const counts = await countStoryArticles(q, [...described]);
    const stories: StoryRow[] = [];
    for (const s of d.stories) {
      const c = counts.get(s.id);
      // a story none of whose articles could be stored, or whose lead was refused, waits for its next article
      if (!c || (s.lead_article_id !== null && goneIds.has(s.lead_article_id))) continue;
      const row = { ...s, article_count: c.articles, publisher_count: c.publishers };
      stories.push({ ...row, score: storyScore(row) });
    }
    await upsertStories(q, stories);
    const fixed = await recountStories(q, [...named], { locked: true });
    if (fixed.length > 0) stories.push(...(await getStories(q, fixed.map((f) => f.id))));
    await this.fingerprints.write(q, goneIds.size ? d.fingerprints.filter((f) => !goneIds.has(f.id)) : d.fingerprints);
    const rejected = [...d.rejected, ...storage];
    if (rejected.length > 0) {
      const records: RejectedRecord[] = rejected.map((r) => ({
        url: r.url, publisher_id: r.publisher || null, reason: r.reason, code: r.code, message: r.message,
        ...(articles?.has(r.url) ? { article: articles.get(r.url) } : {}),
      }));
      // in a savepoint: the record of a refusal must never cost the batch itself
      await q.tx((s) => recordRejected(s, records)).catch((err: unknown) => this.log.error({ err: describeError(err), count: records.length }, 'rejected articles not recorded'));
    }
    // last, just before the commit: a decision past its time must not be stored (a new owner
    // of the dedup or story shard may have rebuilt without it and stopped looking for it)
    const late = this.now() - d.storeBy;
    if (late > 0) throw new DecisionExpiredError(late);
    return { rows: goneIds.size ? rows.filter((r) => !goneIds.has(r.id)) : rows, refreshed, stories, rejected };
  }
}

/**
 * Writes `items` with `write`, each attempt in a savepoint; a part the database refuses for its
 * data is split in halves until the refused items are alone. Returns the items written.
 */
async function isolate<T>(q: Sql, items: readonly T[], write: (q: Sql, part: T[]) => Promise<void>, refuse: (item: T, err: unknown) => void): Promise<T[]> {
  if (items.length === 0) return [];
  try {
    await q.tx((s) => write(s, [...items]));
    return [...items];
  } catch (err) {
    if (!isRowError(err)) throw err;
    if (items.length === 1) {
      refuse(items[0]!, err);
      return [];
    }
    const mid = items.length >> 1;
    return [...(await isolate(q, items.slice(0, mid), write, refuse)), ...(await isolate(q, items.slice(mid), write, refuse))];
  }
}
