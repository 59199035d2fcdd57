import type { Cache } from '../../src/runtime/cache.js';
import type { Sql } from '../../src/runtime/sql.js';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyScore, toCachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';

export interface SeedStory {
  id: string;
  publisher: string;
  category: string;
  region: string;
  updatedAt: string;
  title?: string;
  articles?: number;
}

/** Writes publishers, lead articles, stories and their cache entries the way the store actor does. */
export async function seedStories(sql: Sql, cache: Cache, list: readonly SeedStory[]): Promise<void> {
  const pubs = [...new Set(list.map((s) => s.publisher))];
  await addPublishers(sql, pubs.map((p) => ({ id: p, name: `Publisher ${p}`, feed_url: `https://${p}.example/feed` })));
  const articles: ArticleRow[] = list.map((s) => ({
    id: `a-${s.id}`, url: `https://${s.publisher}.example/${s.id}`, url_hash: `uh-${s.id}`, simhash: null,
    title: s.title ?? `Headline of ${s.id}`, snippet: `Snippet of ${s.id}`, thumbnail_url: null, publisher_id: s.publisher,
    published_at: s.updatedAt, category: s.category, region: s.region, language: 'en', story_id: s.id, duplicate_of: null,
    entities: [], places: [],
  }));
  await upsertArticles(sql, articles);
  const stories: StoryRow[] = list.map((s) => {
    const row = {
      id: s.id, title: s.title ?? `Headline of ${s.id}`, lead_article_id: `a-${s.id}`, article_count: s.articles ?? 1,
      publisher_count: 1, first_seen: s.updatedAt, updated_at: s.updatedAt, category: s.category, regions: [s.region],
      entities: [], score: 0,
    };
    return { ...row, score: storyScore(row) };
  });
  await upsertStories(sql, stories);
  const byId = new Map(articles.map((a) => [a.id, { ...a, publisher_name: `Publisher ${a.publisher_id}` }]));
  await publishStories(cache, stories.map((s) => toCachedStory(s, byId.get(s.lead_article_id!)!)));
}
