import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyScore, toCachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { databases, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from './harness.js';
import { expectMatchesOpenApi } from './schema.js';

/**
 * The secondary category where the API shows `category`: every article view (article detail,
 * Full Coverage, search) and the story (Full Coverage, feed items), stored in the migration-30
 * column and read back from PostgreSQL / PGlite.
 */

const at = (min: number) => new Date(Date.now() - 2 * 3_600_000 + min * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function article(id: string, story: string, min: number, category: string, secondary: string | null, extra: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://p1.example/${id}`, url_hash: `uh-${id}`, simhash: null, title: `Harbour City sale ${id}`, snippet: `Zanzibarine investors buy the club (${id})`,
    thumbnail_url: null, publisher_id: 'p1', published_at: at(min), category, secondary_category: secondary, region: 'uk', language: 'en',
    story_id: story, duplicate_of: null, entities: [], places: [], ...extra,
  };
}

function story(id: string, lead: string, category: string, min: number): StoryRow {
  const row = { id, title: `Story ${id}`, lead_article_id: lead, article_count: 2, publisher_count: 1, first_seen: at(min), updated_at: at(min), category, regions: ['uk'], entities: [], score: 0 };
  return { ...row, score: storyScore(row) };
}

describe.each(databases)('secondary category in the API on %s', (_name, open) => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, [{ id: 'p1', name: 'Publisher One', feed_url: 'https://p1.example/feed' }]);
    const rows = [
      article('a-lead', 'st-sale', 0, 'business', 'sports'),
      article('a-copy', 'st-sale', 5, 'business', 'sports', { duplicate_of: 'a-lead', url_hash: 'uh-copy' }),
      article('b-lead', 'st-vote', 10, 'world', null, { title: 'Harbour City council vote', snippet: 'Zanzibarine councillors vote' }),
      article('b-two', 'st-vote', 11, 'politics', null, { title: 'Harbour City council vote result', snippet: 'Zanzibarine council result' }),
    ];
    await upsertArticles(db.sql, rows);
    const stories = [story('st-sale', 'a-lead', 'business', 5), story('st-vote', 'b-lead', 'politics', 11)];
    await upsertStories(db.sql, stories);
    const byId = new Map(rows.map((r) => [r.id, { ...r, publisher_name: 'Publisher One' }]));
    await publishStories(cache, stories.map((s) => toCachedStory(s, byId.get(s.lead_article_id!)!)));
    api = await startApi(db.sql, cache);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('article detail: the article and its related articles carry secondary_category', async () => {
    const r = await api.get('/v1/articles/a-copy');
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/articles/{id}', 'get', 200, r.body);
    expect(r.body.article).toMatchObject({ category: 'business', secondary_category: 'sports', duplicate_of: 'a-lead' });
    const other = await api.get('/v1/articles/b-two');
    expect(other.body.article).toMatchObject({ category: 'politics', secondary_category: null });
  });

  it('Full Coverage: the story\'s secondary category (its lead\'s) and every article\'s', async () => {
    const sale = await api.get('/v1/stories/st-sale');
    expect(sale.status, sale.text).toBe(200);
    expectMatchesOpenApi('/v1/stories/{id}', 'get', 200, sale.body);
    expect(sale.body.story).toMatchObject({ category: 'business', secondary_category: 'sports' });
    expect(sale.body.articles.map((a: { secondary_category: string | null }) => a.secondary_category)).toEqual(['sports', 'sports']);
    // a lead filed otherwise than its story: its own category is the story's second one
    const vote = await api.get('/v1/stories/st-vote');
    expect(vote.body.story).toMatchObject({ category: 'politics', secondary_category: 'world' });
  });

  it('feed items and search items carry it too', async () => {
    const feed = await api.get('/v1/feed?region=uk&category=top');
    expect(feed.status, feed.text).toBe(200);
    expectMatchesOpenApi('/v1/feed', 'get', 200, feed.body);
    const items = new Map(feed.body.items.map((i: { story_id: string; secondary_category: string | null }) => [i.story_id, i.secondary_category]));
    expect(items.get('st-sale')).toBe('sports');
    expect(items.get('st-vote')).toBe('world');
    const search = await api.get('/v1/search?q=zanzibarine');
    expect(search.status, search.text).toBe(200);
    expectMatchesOpenApi('/v1/search', 'get', 200, search.body);
    const hits = new Map<string, string | null>(search.body.items.map((i: { id: string; secondary_category: string | null }) => [i.id, i.secondary_category]));
    expect(hits.get('a-lead')).toBe('sports');
    expect([...hits.keys()].some((k) => k.startsWith('b-'))).toBe(true);
    for (const [k, v] of hits) if (k.startsWith('b-')) expect(v).toBeNull();
  });
});
