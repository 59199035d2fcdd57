import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';
import type { ArticleInput } from '../../src/actors/enrich/text.js';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { AuthorityTable, recomputeAuthority } from '../../src/actors/store/authority.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { recordClick } from '../../src/actors/store/readers.js';
import { applyRetention } from '../../src/actors/store/retention.js';
import { upsertStories } from '../../src/actors/store/stories.js';
import { StoryClusterer } from '../../src/actors/stories/clusterer.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');

function article(id: string, publisher: string, publishedAt: number, extra: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://${publisher}.example/${id}`, url_hash: `uh-${id}`, simhash: null, title: `Title ${id}`, snippet: 'Some words about it', thumbnail_url: null,
    publisher_id: publisher, published_at: new Date(publishedAt).toISOString(), category: 'world', region: 'us', language: 'en',
    story_id: null, duplicate_of: null, entities: [], places: [], ...extra,
  };
}

describe('source authority', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, [
      { id: 'wire', name: 'Wire', feed_url: 'https://wire.example/feed', tier: 1 },
      { id: 'blog', name: 'Blog', feed_url: 'https://blog.example/feed', tier: 3 },
      { id: 'copier', name: 'Copier', feed_url: 'https://copier.example/feed', tier: 2 },
      { id: 'voice', name: 'Voice', feed_url: 'https://voice.example/feed', tier: 2 },
    ]);
    // copier: 20 near-copies of others' articles in corroborated stories; voice: 20 originals nobody else covers
    await upsertStories(db.sql, [
      { id: 'big', title: 'Big', lead_article_id: null, article_count: 40, publisher_count: 3, first_seen: new Date(NOW - DAY).toISOString(), updated_at: new Date(NOW - DAY).toISOString(), category: 'world', regions: ['us'], entities: [], score: 0 },
    ]);
    await upsertArticles(db.sql, [
      ...Array.from({ length: 20 }, (_, i) => article(`c${i}`, 'copier', NOW - DAY - i * 60_000, { story_id: 'big', duplicate_of: 'x' })),
      ...Array.from({ length: 20 }, (_, i) => article(`v${i}`, 'voice', NOW - DAY - i * 60_000, { story_id: `solo${i}` })),
    ]);
  }, 60_000);
  afterAll(async () => db?.cleanup());

  it('comes from the tier, adjusted by the record: copies cost more than being alone', async () => {
    expect(await recomputeAuthority(db.sql, NOW)).toBe(4);
    const table = new AuthorityTable(db.sql);
    await table.load();
    expect(table.get('wire')).toBeCloseTo(0.9, 3);
    expect(table.get('blog')).toBeCloseTo(0.35, 3);
    expect(table.get('copier')).toBeCloseTo(0.45, 3);
    expect(table.get('voice')).toBeCloseTo(0.51, 3);
    expect(table.get('nobody')).toBeUndefined();
  });

  it('feeds the lead choice: a higher-authority source takes the lead of the story it joins', async () => {
    const table = new AuthorityTable(db.sql);
    await table.load();
    const T = Date.UTC(2026, 10, 20, 8);
    const add = (c: StoryClusterer, id: string, publisher: string, title: string, hours: number) => {
      const a: ArticleInput = { id, url: `https://${publisher}.example/${id}`, title, summary: 'Rescue teams reached the flooded valley villages after the dam failed overnight', publisher, published_at: T + hours * 3_600_000 };
      const e = enrich(a);
      return c.add(a, { entities: e.entities, places: e.places, category: e.category, region: e.region });
    };
    const leadOf = (opts: ConstructorParameters<typeof StoryClusterer>[0]) => {
      const c = new StoryClusterer(opts);
      const first = add(c, 'b1', 'blog', 'Dam failure floods Aravale valley villages, rescue under way', 0);
      const second = add(c, 'w1', 'wire', 'Aravale dam fails, flooding valley villages; rescuers arrive', 0);
      expect(second.storyId).toBe(first.storyId);
      return c.get(first.storyId)!.lead_article_id;
    };
    expect(leadOf({})).toBe('b1'); // every source at the default: the first report keeps the lead
    expect(leadOf({ lead: { authority: table.get } })).toBe('w1');
  });
});

describe('retention', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, [{ id: 'p', name: 'P', feed_url: 'https://p.example/feed' }]);
  }, 60_000);
  afterAll(async () => db?.cleanup());

  it('drops article partitions wholly older than the retention, with old clicks and emptied stories; keeps the rest', async () => {
    const old = Date.parse('2026-06-15T00:00:00Z');
    const edge = Date.parse('2026-10-25T00:00:00Z'); // in the month the cutoff falls in
    const recent = NOW - DAY;
    await upsertArticles(db.sql, [
      article('old1', 'p', old, { story_id: 'old-story' }),
      article('old2', 'p', old + DAY, { story_id: 'old-story' }),
      article('edge', 'p', edge, { story_id: 'edge-story' }),
      article('new', 'p', recent, { story_id: 'new-story' }),
    ]);
    const story = (id: string, at: number) => ({ id, title: id, lead_article_id: null, article_count: 1, publisher_count: 1, first_seen: new Date(at).toISOString(), updated_at: new Date(at).toISOString(), category: 'world', regions: ['us'], entities: [], score: 0 });
    await upsertStories(db.sql, [story('old-story', old + DAY), story('edge-story', edge), story('new-story', recent), story('empty-old', old)]);
    await recordClick(db.sql, { article_id: 'old1', story_id: 'old-story', publisher_id: 'p', reader: 'r_a', at: old + DAY });
    await recordClick(db.sql, { article_id: 'new', story_id: 'new-story', publisher_id: 'p', reader: 'r_a', at: recent });
    const partitions = async () => (await db.sql.query<{ n: string }>(`SELECT c.relname AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'articles'::regclass ORDER BY 1`)).rows.map((r) => r.n);
    expect(await partitions()).toEqual(expect.arrayContaining(['articles_2026_06', 'articles_2026_10', 'articles_2026_11']));

    const cutoff = NOW - 30 * DAY; // 2026-10-21
    const r = await applyRetention(db.sql, cutoff, NOW);
    expect(r.partitions).toEqual(['articles_2026_06']);
    expect(await partitions()).not.toContain('articles_2026_06');
    expect(await partitions()).toEqual(expect.arrayContaining(['articles_2026_10', 'articles_2026_11', 'articles_default']));
    const ids = (await db.sql.query<{ id: string }>('SELECT id FROM articles ORDER BY id')).rows.map((x) => x.id);
    expect(ids).toEqual(['edge', 'new']);
    expect((await db.sql.query<{ id: string }>('SELECT id FROM stories ORDER BY id')).rows.map((x) => x.id)).toEqual(['edge-story', 'new-story']);
    expect(r.stories).toBe(2);
    expect((await db.sql.query<{ article_id: string }>('SELECT article_id FROM clicks')).rows.map((x) => x.article_id)).toEqual(['new']);

    // a second pass finds nothing more; a later article of a dropped month lands in the default partition
    expect(await applyRetention(db.sql, cutoff, NOW)).toMatchObject({ partitions: [], articles: 0, clicks: 0, stories: 0 });
    await upsertArticles(db.sql, [article('late', 'p', old + 2 * DAY)]);
    expect((await db.sql.query('SELECT 1 FROM articles_default WHERE id = $1', ['late'])).rowCount).toBe(1);
    expect((await applyRetention(db.sql, cutoff, NOW)).articles).toBe(1);
  });
});

describe('reader profiles', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await scratchPostgres();
  }, 60_000);
  afterAll(async () => db?.cleanup());

  it('loads the misses of one turn together, each reader getting its own profile', async () => {
    const { Profiles } = await import('../../src/api/readers/profiles.js');
    const { saveInterests } = await import('../../src/actors/store/readers.js');
    const { MemoryCache } = await import('../../src/runtime/cache-memory.js');
    for (let i = 0; i < 450; i++) await saveInterests(db.sql, `r_${i}`, { categories: [['world', 'science', 'sports'][i % 3]] }, { publishers: i % 2 ? [`p${i}`] : [] });
    await recordClick(db.sql, { article_id: 'a', story_id: null, publisher_id: 'pz', reader: 'r_7', at: NOW });
    const profiles = new Profiles({ sql: db.sql, cache: new MemoryCache() });
    const got = await Promise.all([...Array.from({ length: 450 }, (_, i) => profiles.get(`r_${i}`)), profiles.get('r_unknown')]);
    got.slice(0, 450).forEach((p, i) => {
      expect(p.id).toBe(`r_${i}`);
      expect(p.keys).toContain(`c:${['world', 'science', 'sports'][i % 3]}`);
      expect(p.hidden).toEqual(i % 2 ? [`p:p${i}`] : []);
    });
    expect(got[7]!.keys).toContain('p:pz'); // its click
    expect(got[450]).toMatchObject({ id: 'r_unknown', keys: [], hidden: [] });
    expect(profiles.size).toBe(451);
    expect(profiles.get('r_3')).toBe(got[3]); // held: synchronous from now on
  });
});
