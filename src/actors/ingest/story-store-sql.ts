import type { Entity } from '../enrich/entities.js';
import type { StoryView } from '../stories/clusterer.js';
import type { ClusteredArticle, StoryStore } from '../stories/story-cluster.js';
import { storyScore } from '../store/feed-items.js';
import type { StoryRow } from '../store/stories.js';
import type { Sql } from '../../runtime/sql.js';

/**
 * The StoryCluster actor's store in a node. Article rows are written by the ingest pipeline
 * (with their story ids), so `appendArticle` has nothing to add; story views are buffered and
 * taken by the pipeline, which writes them in the same transaction as the batch. On a
 * restart the active window is replayed from the stored articles in their dedup order.
 */
export class SqlStoryStore implements StoryStore {
  private views = new Map<string, StoryView>();

  constructor(private readonly sql: Sql) {}

  async loadSince(since: number): Promise<ClusteredArticle[]> {
    const { rows } = await this.sql.query<{
      id: string; url: string; title: string; snippet: string | null; publisher_id: string; published_ms: string; language: string | null;
      duplicate_of: string | null; story_id: string; category: string | null; region: string | null; entities: Entity[]; places: string[];
    }>(
      `SELECT a.id, a.url, a.title, a.snippet, a.publisher_id, (extract(epoch FROM a.published_at) * 1000)::bigint::text AS published_ms,
              a.language, a.duplicate_of, a.story_id, a.category, a.region, a.entities, a.places
         FROM articles a JOIN fingerprints f ON f.article_id = a.id
        WHERE a.published_at >= $1 AND a.story_id IS NOT NULL
        ORDER BY f.handle`,
      [new Date(since).toISOString()],
    );
    return rows.map((r) => ({
      article: {
        id: r.id, url: r.url, title: r.title, summary: r.snippet, publisher: r.publisher_id, published_at: Number(r.published_ms),
        language: r.language, duplicate_of: r.duplicate_of,
      },
      hints: {
        entities: Array.isArray(r.entities) ? r.entities : [],
        places: Array.isArray(r.places) ? r.places : [],
        ...(r.category ? { category: r.category } : {}),
        ...(r.region ? { region: r.region } : {}),
      },
      story_id: r.story_id,
    }));
  }

  appendArticle(): void {
    // the pipeline writes the article row itself, with the story id the clusterer returned
  }

  saveStory(story: StoryView): void {
    this.views.set(story.id, story);
  }

  async getStory(id: string): Promise<StoryView | undefined> {
    return this.views.get(id);
  }

  /** Story rows changed since the last call. */
  take(): StoryRow[] {
    const out = [...this.views.values()].map(toStoryRow);
    this.views.clear();
    return out;
  }
}

export function toStoryRow(v: StoryView): StoryRow {
  const row = {
    id: v.id,
    title: v.title,
    lead_article_id: v.lead_article_id,
    article_count: v.article_count,
    publisher_count: v.publisher_count,
    first_seen: new Date(v.first_seen).toISOString(),
    updated_at: new Date(v.updated).toISOString(),
    category: v.category,
    regions: v.regions,
    home_regions: v.home_regions,
    entities: v.entities,
    score: 0,
  };
  return { ...row, score: storyScore(row) };
}
