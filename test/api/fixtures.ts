import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { CATEGORIES } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import type { Cache } from '../../src/runtime/cache.js';
import type { Sql } from '../../src/runtime/sql.js';
import { seedStories, type SeedStory } from '../helpers/seed.js';

export const T0 = Date.parse('2026-11-20T00:00:00Z');
export const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString().replace('.000', '');
export const SCRIPT_TITLE = 'Council <script>window.__pwned=1</script> & "budget" <b>vote</b>';

/** `n` stories over 7 publishers, categories round-robin, alternating us/uk. */
export function stories(n: number, prefix: string, startMinute: number): SeedStory[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`,
    publisher: `p${i % 7}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    region: i % 2 ? 'us' : 'uk',
    updatedAt: iso(startMinute + i),
  }));
}

/** A story with several articles from several publishers, for Full Coverage and related articles. */
export async function seedCoverage(sql: Sql, cache: Cache, storyId: string, minute: number): Promise<string[]> {
  await seedStories(sql, cache, [{ id: storyId, publisher: 'p1', category: 'science', region: 'eu', updatedAt: iso(minute), title: 'Probe lands on comet', articles: 4 }]);
  await addPublishers(sql, [{ id: 'px', name: 'Extra Daily', feed_url: 'https://px.example/feed' }]);
  const extra: ArticleRow[] = [1, 2, 3].map((k) => ({
    id: `a-${storyId}-${k}`, url: `https://${k === 3 ? 'px' : 'p2'}.example/${storyId}/${k}`, url_hash: `uh-${storyId}-${k}`, simhash: null,
    title: `Comet landing report ${k}`, snippet: `More on the probe, part ${k}`, thumbnail_url: null, publisher_id: k === 3 ? 'px' : 'p2',
    published_at: iso(minute - k), category: 'science', region: 'eu', language: 'en', story_id: storyId, duplicate_of: null, entities: [], places: [],
  }));
  await upsertArticles(sql, extra);
  return [`a-${storyId}`, ...extra.map((a) => a.id)];
}
