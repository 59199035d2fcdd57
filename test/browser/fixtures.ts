import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { storyScore } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import type { Sql } from '../../src/runtime/sql.js';
import { SCRIPT_TITLE, iso, stories } from '../api/fixtures.js';
import { seedStories } from '../helpers/seed.js';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable) console.warn(`skipping browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The newest minute of the seeded news (the 60 plain stories end near minute 60). */
const NOW_MIN = 400;

/** A story told by six outlets over six hours in three regions: the Full Coverage page's fixture. */
export const QUAKE = {
  id: 'quake',
  lead: 'q-lead',
  title: 'Earthquake shakes coastal city',
  publishers: ['Harbour Times', 'Valley Post', 'Metro Daily', 'Island Herald', 'Capital Wire', 'Northern Star'],
};

function quakeArticles(thumb: string): ArticleRow[] {
  const a = (id: string, pub: number, minute: number, title: string, region: string, over: Partial<ArticleRow> = {}): ArticleRow => ({
    id, url: `https://qp${pub}.example/${id}`, url_hash: `uh-${id}`, simhash: null, title, snippet: `Report ${id}: the earthquake and what followed.`,
    thumbnail_url: null, publisher_id: `qp${pub}`, published_at: iso(minute), category: 'world', region, language: 'en', story_id: QUAKE.id,
    duplicate_of: null, entities: [], places: [], ...over,
  });
  return [
    a('q-first', 1, NOW_MIN - 360, 'Tremor felt along the coast', 'us'),
    a(QUAKE.lead, 0, NOW_MIN - 300, QUAKE.title, 'us', { thumbnail_url: thumb }),
    a('q-rescue', 2, NOW_MIN - 240, 'Rescuers reach collapsed buildings after earthquake', 'uk'),
    a('q-copy', 3, NOW_MIN - 235, 'Rescuers reach collapsed buildings after earthquake', 'apac', { duplicate_of: 'q-rescue' }),
    a('q-aid', 4, NOW_MIN - 120, 'Aid flights land as earthquake toll rises', 'apac'),
    a('q-aftershock', 5, NOW_MIN - 60, 'Strong aftershock rattles survivors', 'uk'),
    a('q-rebuild', 1, NOW_MIN - 10, 'Earthquake city counts the cost of rebuilding', 'us'),
  ];
}

/**
 * The browser tests' news: 60 plain stories over seven publishers (all categories, us/uk), a
 * story whose title is markup, the quake story above (its lead with a real thumbnail), an
 * earthquake drill story of two articles and an article in no story, so "earthquake" matches
 * nine articles of three stories and one lone article. Written to PostgreSQL only: the API starts
 * on an empty cache and reads its feed entries (headlines of other publishers included) from SQL.
 */
export async function seedNewsroom(sql: Sql, dataDir: string): Promise<{ thumb: string }> {
  const scratch = new MemoryCache();
  await seedStories(sql, scratch, stories(60, 's', 0));
  await seedStories(sql, scratch, [{ id: 'xss', publisher: 'p3', category: 'politics', region: 'us', updatedAt: iso(200), title: SCRIPT_TITLE }]);
  const webp = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#2a6' } }).webp().toBuffer();
  const hash = createHash('sha256').update(webp).digest('hex');
  mkdirSync(join(dataDir, 'thumbs', hash.slice(0, 2)), { recursive: true });
  writeFileSync(join(dataDir, 'thumbs', hash.slice(0, 2), `${hash}.webp`), webp);
  const thumb = `/thumbs/${hash.slice(0, 2)}/${hash}.webp`;

  await addPublishers(sql, [
    ...QUAKE.publishers.map((name, i) => ({ id: `qp${i}`, name, feed_url: `https://qp${i}.example/feed`, tier: i === 4 ? 1 : 2 })),
    { id: 'dp', name: 'School Gazette', feed_url: 'https://dp.example/feed' },
  ]);
  const drill = (id: string, minute: number, title: string, story: string | null): ArticleRow => ({
    id, url: `https://dp.example/${id}`, url_hash: `uh-${id}`, simhash: null, title, snippet: 'A yearly exercise.', thumbnail_url: null, publisher_id: 'dp',
    published_at: iso(minute), category: 'science', region: 'uk', language: 'en', story_id: story, duplicate_of: null, entities: [], places: [],
  });
  await upsertArticles(sql, [
    ...quakeArticles(thumb),
    drill('d-1', NOW_MIN - 500, 'Schools hold earthquake drill', 'drill'),
    drill('d-2', NOW_MIN - 490, 'Pupils practise for an earthquake', 'drill'),
    drill('lone', NOW_MIN - 480, 'Earthquake insurance explained', null),
  ]);
  const story = (row: Omit<StoryRow, 'score'>): StoryRow => ({ ...row, score: storyScore(row) });
  await upsertStories(sql, [
    story({
      id: QUAKE.id, title: QUAKE.title, lead_article_id: QUAKE.lead, article_count: 7, publisher_count: 6, first_seen: iso(NOW_MIN - 360), updated_at: iso(NOW_MIN),
      category: 'world', regions: ['us', 'uk', 'apac'], entities: [],
    }),
    story({
      id: 'drill', title: 'Schools hold earthquake drill', lead_article_id: 'd-1', article_count: 2, publisher_count: 1, first_seen: iso(NOW_MIN - 500),
      updated_at: iso(NOW_MIN - 490), category: 'science', regions: ['uk'], entities: [],
    }),
  ]);
  return { thumb };
}
