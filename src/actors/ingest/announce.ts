import { getArticles, type ArticleRow } from '../store/articles.js';
import { publishStories } from '../store/feed-cache.js';
import { toCachedStory, type CachedStory } from '../store/feed-items.js';
import { publisherNames } from '../store/publishers.js';
import { withRelated } from '../store/related.js';
import { getStories, type StoryRow } from '../store/stories.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import type { ThumbnailJob } from './thumbnails.js';
import type { Written } from './write.js';

export interface AnnounceDeps {
  sql: Sql;
  cache: Cache;
  log?: Logger;
  /** told about every story written (live updates, breaking-news detection) */
  onStories?: (stories: CachedStory[]) => void;
  /** thumbnails are made after the batch is stored; without this, articles keep none */
  thumbnails?: { enqueue(jobs: ThumbnailJob[]): void };
}

/**
 * After a batch is stored: its stories into the feed cache (story entries, feed sorted sets,
 * invalidation events), thumbnails queued, listeners told. Not part of the transaction, and not
 * needed for the batch's acknowledgement: a failing cache only delays stories (the API reads
 * SQL, and the cache is rebuilt from it).
 */
export class Announcer {
  private readonly log: Logger;

  constructor(private readonly d: AnnounceDeps) {
    this.log = d.log ?? silentLogger;
  }

  async announce(w: Written, thumbnails: readonly ThumbnailJob[]): Promise<void> {
    const cached = await this.publish(w.stories, w.rows);
    if (thumbnails.length) {
      const stored = new Set(w.rows.map((r) => r.id));
      this.d.thumbnails?.enqueue(thumbnails.filter((t) => stored.has(t.articleId)));
    }
    if (cached.length) this.d.onStories?.(cached);
  }

  /** Feed cache entries for stories changed outside a batch (their counts repaired), as stored now. */
  async refresh(ids: readonly string[]): Promise<void> {
    await this.publish(await getStories(this.d.sql, ids), []);
  }

  /** Feed cache entries for the written stories (their leads looked up when not in the batch). */
  private async publish(storyRows: readonly StoryRow[], batch: readonly ArticleRow[]): Promise<CachedStory[]> {
    if (storyRows.length === 0) return [];
    const inBatch = new Map(batch.map((r) => [r.id, r]));
    const missing = storyRows.map((s) => s.lead_article_id).filter((id): id is string => !!id && !inBatch.has(id));
    const older = new Map((await getArticles(this.d.sql, missing)).map((a) => [a.id, a]));
    const names = new Map<string, string>();
    for (const a of older.values()) names.set(a.publisher_id, a.publisher_name);
    const unnamed = [...new Set(batch.map((r) => r.publisher_id))].filter((p) => !names.has(p));
    for (const [id, name] of await publisherNames(this.d.sql, unnamed)) names.set(id, name);
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
