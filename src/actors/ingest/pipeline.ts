import type { DedupCoordinator, StoredFingerprint } from '../dedup/coordinator.js';
import type { ClusterHints } from '../stories/features.js';
import type { AddResult } from '../stories/clusterer.js';
import type { ArticleInput } from '../enrich/text.js';
import { existingUrlHashes, getArticles, refreshArticles, upsertArticles, type ArticleRow, type RefreshRow } from '../store/articles.js';
import { publishStories } from '../store/feed-cache.js';
import { toCachedStory, type CachedStory } from '../store/feed-items.js';
import { withRelated } from '../store/related.js';
import { upsertStories, type StoryRow } from '../store/stories.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Sql } from '../../runtime/sql.js';
import type { SqlFingerprints } from './fingerprints-sql.js';
import type { SqlStoryStore } from './story-store-sql.js';
import type { ThumbnailJob } from './thumbnails.js';
import type { PreparedArticle, RawArticle, RejectedArticle } from './types.js';

export interface IngestDeps {
  sql: Sql;
  cache: Cache;
  /** the CPU stage (the shared worker pool in a node) */
  prepare(batch: RawArticle[]): Promise<{ ok: PreparedArticle[]; rejected: RejectedArticle[] }>;
  dedup: DedupCoordinator;
  fingerprints: SqlFingerprints;
  /** the StoryCluster actor (ask add-batch) */
  cluster(items: { article: ArticleInput; hints: ClusterHints }[]): Promise<AddResult[]>;
  stories: SqlStoryStore;
  log?: Logger;
  metrics?: Metrics;
  /** told about every story written (live updates, breaking-news detection) */
  onStories?: (stories: CachedStory[]) => void;
  /** thumbnails are made after the batch is stored; without this, articles keep none */
  thumbnails?: { enqueue(jobs: ThumbnailJob[]): void };
}

export interface Prepared {
  ok: PreparedArticle[];
  rejected: RejectedArticle[];
}

/** Articles per ask to the story actor (a few ms of clustering): I/O callbacks run between slices. */
const CLUSTER_SLICE = 10;

/** A batch after dedup and clustering: every row its transaction writes. */
export interface Decided {
  rows: ArticleRow[];
  refresh: RefreshRow[];
  stories: StoryRow[];
  fingerprints: StoredFingerprint[];
  thumbnails: ThumbnailJob[];
  rejected: number;
  /** the batch's new URLs (url hash -> article), known to exact dedup until written */
  known: ReadonlyMap<string, { id: string; published_at: string }>;
}

export interface IngestOutcome {
  stored: number;
  updated: number;
  duplicates: number;
  rejected: number;
  stories: number;
}

/**
 * One ingest batch, stage by stage: prepare (canonical URL, fingerprint, enrichment) → decide:
 * exact dedup by URL hash (a republished entry refreshes its row), near-duplicate decisions
 * from the dedup shards, story clustering → write: one transaction with articles, stories and
 * fingerprints, then feed cache and events. The three stages can work on three consecutive
 * batches at once (the service chains them). Every write is idempotent, so a batch redelivered after a crash
 * changes nothing the first delivery already stored.
 */
export class IngestPipeline {
  private readonly log: Logger;
  private readonly counts;
  /** new URLs of batches decided but not yet written, one map per batch */
  private readonly inFlight: ReadonlyMap<string, { id: string; published_at: string }>[] = [];

  constructor(private readonly d: IngestDeps) {
    this.log = d.log ?? silentLogger;
    this.counts = d.metrics?.counter('newsagg_ingest_articles_total', 'Articles through the ingest pipeline by outcome', ['outcome']);
  }

  async handle(raw: RawArticle[]): Promise<IngestOutcome> {
    return this.commit(await this.prepare(raw));
  }

  /** The CPU stage alone (no shared state): the service runs it for the next batch while this one commits. */
  prepare(raw: RawArticle[]): Promise<Prepared> {
    return this.d.prepare(raw);
  }

  /** Everything after the CPU stage for one batch: `decide`, `write`, then `announce`. */
  async commit(prepared: Prepared): Promise<IngestOutcome> {
    const d = await this.decide(prepared);
    await this.write(d);
    return this.announce(d);
  }

  /**
   * Dedup and clustering of one batch, strictly one batch at a time and in order. It may run
   * while the previous batch is still being written: URLs of batches decided but not yet
   * written count as known, so a URL repeated across two such batches refreshes one row.
   */
  async decide({ ok, rejected }: Prepared): Promise<Decided> {
    for (const r of rejected) this.log.info({ publisher_id: r.publisher, url: r.url, code: r.code }, `article rejected: ${r.message}`);

    // exact dedup against what is stored, what is being written and the batch itself: a known URL refreshes its row
    // (the in-flight maps are captured before the query: a write finishing meanwhile is then seen by one or the other)
    const inFlight = [...this.inFlight];
    const stored = await existingUrlHashes(this.d.sql, [...new Set(ok.map((a) => a.url_hash))]);
    const firstInBatch = new Map<string, PreparedArticle>();
    const fresh: PreparedArticle[] = [];
    const refresh: { a: PreparedArticle; id: string; published_at: string }[] = [];
    for (const a of ok) {
      let known: { id: string; published_at: string } | undefined = stored.get(a.url_hash);
      for (let i = 0; !known && i < inFlight.length; i++) known = inFlight[i]!.get(a.url_hash);
      known ??= firstInBatch.get(a.url_hash);
      if (known) refresh.push({ a, id: known.id, published_at: known.published_at });
      else {
        firstInBatch.set(a.url_hash, a);
        fresh.push(a);
      }
    }

    // near duplicates, in submission order
    const decisions = await this.d.dedup.submit(fresh.map((a) => ({ id: a.id, fp: { hi: a.hi, lo: a.lo, sketch: a.sketch, hasText: a.hasText }, publishedAt: Date.parse(a.published_at) })));
    const dupOf = new Map(decisions.map((x) => [x.id, x.duplicateOf]));

    // stories, in small slices with I/O let through between them: clustering is synchronous work on
    // this thread, and the previous batch's transaction (and the API, in a node serving both)
    // would otherwise wait for a whole batch of it before their replies are read
    const items = fresh.map((a) => ({
      article: {
        id: a.id, url: a.url, title: a.title, summary: a.snippet, publisher: a.publisher, published_at: a.published_at,
        language: a.language, duplicate_of: dupOf.get(a.id) ?? null,
      },
      hints: { entities: a.entities, places: a.places, category: a.category, region: a.region },
    }));
    const results: AddResult[] = [];
    for (let i = 0; i < items.length; i += CLUSTER_SLICE) {
      if (i > 0) await new Promise((r) => setImmediate(r));
      for (const r of await this.d.cluster(items.length <= CLUSTER_SLICE ? items : items.slice(i, i + CLUSTER_SLICE))) results.push(r);
    }
    const rows: ArticleRow[] = fresh.map((a, i) => ({
      // only our own thumbnails are shown (never a hotlink): the job below fills it in
      id: a.id, url: a.url, url_hash: a.url_hash, simhash: a.simhash, title: a.title, snippet: a.snippet, thumbnail_url: null,
      publisher_id: a.publisher, published_at: a.published_at, category: a.category, region: a.region, language: a.language,
      story_id: results[i]?.storyId ?? null, duplicate_of: dupOf.get(a.id) ?? null, entities: a.entities, places: a.places,
    }));
    this.inFlight.push(firstInBatch);
    return {
      rows,
      refresh: refresh.map(({ a, id, published_at }) => ({ id, published_at, title: a.title, snippet: a.snippet, thumbnail_url: null })),
      stories: this.d.stories.take(),
      fingerprints: this.d.fingerprints.take(),
      thumbnails: fresh.filter((a) => a.thumbnail).map((a) => ({ articleId: a.id, publishedAt: a.published_at, source: a.thumbnail! })),
      rejected: rejected.length,
      known: firstInBatch,
    };
  }

  /**
   * One transaction writing a decided batch (articles, refreshed rows, stories, fingerprints).
   * Batches are written in the order they were decided; a failed write can be retried with the
   * same `Decided`. Once it returns, exact dedup finds the batch's URLs in the database.
   */
  async write(d: Decided): Promise<void> {
    await this.d.sql.tx(async (q) => {
      await upsertArticles(q, d.rows);
      await refreshArticles(q, d.refresh);
      await upsertStories(q, d.stories);
      await this.d.fingerprints.write(q, d.fingerprints);
    });
    const at = this.inFlight.indexOf(d.known);
    if (at >= 0) this.inFlight.splice(at, 1);
  }

  /**
   * After a batch is written: its stories into the feed cache, thumbnails queued, counts and
   * events. Not part of the transaction, so the next batch's transaction need not wait for it;
   * batches are announced in the order they were written. Never fails (a failing cache only
   * delays stories: the API reads SQL).
   */
  async announce(d: Decided): Promise<IngestOutcome> {
    const { rows, stories: storyRows } = d;
    const cached = await this.publish(storyRows, rows);
    this.d.thumbnails?.enqueue(d.thumbnails);
    const duplicates = rows.filter((r) => r.duplicate_of !== null).length;
    this.counts?.inc({ outcome: 'stored' }, rows.length);
    this.counts?.inc({ outcome: 'updated' }, d.refresh.length);
    this.counts?.inc({ outcome: 'duplicate' }, duplicates);
    this.counts?.inc({ outcome: 'rejected' }, d.rejected);
    if (cached.length) this.d.onStories?.(cached);
    return { stored: rows.length, updated: d.refresh.length, duplicates, rejected: d.rejected, stories: storyRows.length };
  }

  /** Feed cache entries for the written stories; a failing cache only delays them (the API reads SQL). */
  private async publish(storyRows: StoryRow[], batch: ArticleRow[]): Promise<CachedStory[]> {
    if (storyRows.length === 0) return [];
    const inBatch = new Map(batch.map((r) => [r.id, r]));
    const missing = storyRows.map((s) => s.lead_article_id).filter((id): id is string => !!id && !inBatch.has(id));
    const older = new Map((await getArticles(this.d.sql, missing)).map((a) => [a.id, a]));
    const names = new Map<string, string>();
    for (const a of older.values()) names.set(a.publisher_id, a.publisher_name);
    const unnamed = [...new Set(batch.map((r) => r.publisher_id))].filter((p) => !names.has(p));
    if (unnamed.length) {
      const { rows } = await this.d.sql.query<{ id: string; name: string }>('SELECT id, name FROM publishers WHERE id = ANY($1::text[])', [unnamed]);
      for (const r of rows) names.set(r.id, r.name);
    }
    let cached: CachedStory[] = [];
    for (const s of storyRows) {
      const lead = s.lead_article_id ? (older.get(s.lead_article_id) ?? inBatch.get(s.lead_article_id)) : undefined;
      if (lead) cached.push(toCachedStory(s, { ...lead, publisher_name: names.get(lead.publisher_id) ?? lead.publisher_id }));
    }
    try {
      cached = await withRelated(this.d.sql, cached);
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'headlines of other publishers not read; stories go out without them');
    }
    try {
      await publishStories(this.d.cache, cached);
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'feed cache update failed; the API falls back to the database');
    }
    return cached;
  }
}
