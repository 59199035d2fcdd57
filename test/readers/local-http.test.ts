import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyScore, toCachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { searchCities, slug } from '../../src/api/local/cities.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';
import { iso } from '../api/fixtures.js';
import { validate } from '../api/schema.js';

interface Seed { id: string; minute: number; entities: string[]; places: string[]; region: string; articles?: number }

/** Stories with the entities and lead places enrichment would give them, written as the store actor does. */
async function seed(db: TestDb, cache: MemoryCache, list: Seed[]): Promise<void> {
  await addPublishers(db.sql, ['lp0', 'lp1', 'lp2', 'lp3'].map((p) => ({ id: p, name: `Local ${p}`, feed_url: `https://${p}.example/feed` })));
  const articles: (ArticleRow & { publisher_name: string })[] = list.map((s, i) => ({
    id: `a-${s.id}`, url: `https://lp${i % 4}.example/${s.id}`, url_hash: `uh-${s.id}`, simhash: null, title: `Headline of ${s.id}`, snippet: null, thumbnail_url: null,
    publisher_id: `lp${i % 4}`, published_at: iso(s.minute), category: 'world', region: s.region, language: 'en', story_id: s.id, duplicate_of: null,
    entities: [], places: s.places, publisher_name: `Local lp${i % 4}`,
  }));
  await upsertArticles(db.sql, articles);
  const rows: StoryRow[] = list.map((s) => {
    const row = { id: s.id, title: `Headline of ${s.id}`, lead_article_id: `a-${s.id}`, article_count: s.articles ?? 1, publisher_count: s.articles ?? 1, first_seen: iso(s.minute),
      updated_at: iso(s.minute), category: 'world', regions: [s.region], entities: s.entities, score: 0 };
    return { ...row, score: storyScore(row) };
  });
  await upsertStories(db.sql, rows);
  await publishStories(cache, rows.map((r, i) => toCachedStory(r, articles[i]!)));
}

const ids = (r: Res): string[] => (r.body.items as { story_id: string }[]).map((i) => i.story_id);

describe('Local: a city from the gazetteer, its stories', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await seed(db, cache, [
      { id: 'lyon-old', minute: 10, entities: ['lyon'], places: ['FR'], region: 'eu' },
      { id: 'lyon-big', minute: 50, entities: ['lyon', 'olympique lyonnais'], places: ['FR'], region: 'eu', articles: 6 },
      { id: 'paris', minute: 60, entities: ['paris'], places: ['FR'], region: 'eu' },
      { id: 'berlin', minute: 70, entities: ['berlin'], places: ['DE'], region: 'eu' },
      { id: 'ohio', minute: 80, entities: ['columbus'], places: ['US'], region: 'us' },
      ...Array.from({ length: 10 }, (_, i) => ({ id: `filler${i}`, minute: 20 + i, entities: [], places: ['GB'], region: 'uk' })),
    ]);
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('lists cities from the gazetteer by name prefix, accents and case ignored', async () => {
    expect(slug('São Paulo')).toBe('sao-paulo');
    expect(searchCities('lyo', 5).map((c) => c.id)).toContain('fr-lyon');
    const r = await api.get('/v1/local/cities?q=LYO');
    expect(r.status).toBe(200);
    expect(validate(r.body, { $ref: '#/components/schemas/CityList' })).toEqual([]);
    expect(r.body.items[0]).toEqual({ id: 'fr-lyon', name: 'Lyon', country: 'FR', country_name: 'France', region: 'eu' });
  });

  it('GET /v1/local?city=: stories naming the city first, then those placed in its country, each ranked like the feed', async () => {
    const r = await api.get('/v1/local?city=fr-lyon');
    expect(r.status).toBe(200);
    expect(validate(r.body, { $ref: '#/components/schemas/Local' })).toEqual([]);
    expect(r.body.city.name).toBe('Lyon');
    // the bigger Lyon story outranks the older one, as on the feed; Paris is near (same country); Berlin and Ohio are not
    expect(ids(r)).toEqual(['lyon-big', 'lyon-old', 'paris']);
    expect(r.body.items.map((i: { near: string }) => i.near)).toEqual(['city', 'city', 'country']);
    expect(r.body.items[0].click_url).toBe('/r/a-lyon-big');
    expect(ids(await api.get('/v1/local?city=fr-lyon&limit=1'))).toEqual(['lyon-big']);
    expect(ids(await api.get('/v1/local?city=de-berlin'))).toEqual(['berlin']);
  });

  it('the reader\'s city is kept (PostgreSQL) and used when city= is absent', async () => {
    const auth = { authorization: 'Bearer local-reader-0123456789' };
    expect((await api.get('/v1/me/local', auth)).body).toEqual({ city: null });
    const none = await api.get('/v1/local', auth);
    expect([none.status, none.body.error.code]).toEqual([400, 'no_city']);
    const put = await api.get('/v1/me/local', { ...auth, 'content-type': 'application/json' }, 'PUT', JSON.stringify({ city: 'fr-lyon' }));
    expect(put.status).toBe(200);
    expect(put.body.city.id).toBe('fr-lyon');
    // another node on the same database sees it
    const other = await startApi(db.sql, cache);
    try {
      const r = await other.get('/v1/local', auth);
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(ids(r)).toEqual(['lyon-big', 'lyon-old', 'paris']);
    } finally {
      await other.close();
    }
    expect((await api.get('/v1/me/local', { ...auth, 'content-type': 'application/json' }, 'PUT', JSON.stringify({ city: null }))).body).toEqual({ city: null });
  });

  it('bad input: clear 4xx JSON errors', async () => {
    const auth = { authorization: 'Bearer local-reader-0123456789', 'content-type': 'application/json' };
    const cases: [Promise<Res>, number, string][] = [
      [api.get('/v1/local?city=xx-atlantis'), 400, 'invalid_city'],
      [api.get('/v1/local?city='), 400, 'invalid_city'],
      [api.get('/v1/local?town=lyon'), 400, 'unknown_parameter'],
      [api.get('/v1/local?city=fr-lyon&limit=500'), 400, 'invalid_limit'],
      [api.get('/v1/me/local', auth, 'PUT', '{"city": "atlantis"}'), 400, 'invalid_city'],
      [api.get('/v1/me/local', auth, 'PUT', '{"city": 7}'), 400, 'invalid_city'],
      [api.get('/v1/me/local', auth, 'PUT', '{"town": "fr-lyon"}'), 400, 'invalid_body'],
      [api.get('/v1/me/local', auth, 'PUT', 'not json'), 400, 'invalid_json'],
      [api.get('/v1/me/local', { authorization: 'Bearer x' }), 401, 'invalid_token'],
    ];
    for (const [p, status, code] of cases) {
      const r = await p;
      expect([r.status, r.body?.error?.code]).toEqual([status, code]);
    }
  });

  it('the Local routes are in the OpenAPI document', () => {
    for (const p of ['/v1/local', '/v1/local/cities', '/v1/me/local']) expect(openApiDocument.paths).toHaveProperty([p]);
  });
});
