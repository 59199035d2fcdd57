import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, REGIONS } from '../../src/actors/model/index.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';
import { stories } from '../api/fixtures.js';
import { validate } from '../api/schema.js';

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ids = (r: Res): string[] => (r.body.items as { story_id: string }[]).map((i) => i.story_id);

/** Editions, saved stories and read state over HTTP, against real PostgreSQL, on two API nodes sharing it. */
describe('editions, saved stories and read state', () => {
  let db: TestDb;
  let api: ApiHarness;
  let other: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(30, 'sv', 0));
    api = await startApi(db.sql, cache);
    // a second node on the same database: saved and read travel with the reader
    other = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await other?.close();
    await db?.cleanup();
  });

  it('GET /v1/editions lists every region, category and language with names, from the one taxonomy', async () => {
    const r = await api.get('/v1/editions');
    expect(r.status).toBe(200);
    expect(validate(r.body, schema('Editions'))).toEqual([]);
    expect(r.body.regions.map((x: { id: string }) => x.id)).toEqual(['global', ...REGIONS]);
    expect(r.body.categories.map((x: { id: string }) => x.id)).toEqual(['top', ...CATEGORIES]);
    expect(r.body.languages.map((x: { id: string }) => x.id)).toEqual(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl']);
    expect(r.body.regions.find((x: { id: string }) => x.id === 'uk').name).toBe('United Kingdom');
    expect(r.headers['cache-control']).toContain('max-age');
    expect((await api.get('/v1/editions', { 'if-none-match': r.headers.etag as string })).status).toBe(304);
    expect((await api.get('/v1/editions?region=us')).body.error.code).toBe('unknown_parameter');
  });

  it('saves, lists (as feed items with click_url) and unsaves a story; another node sees the same', async () => {
    const auth = { authorization: 'Bearer saver-0123456789abcdef' };
    expect((await api.get('/v1/me/saved', auth)).body).toEqual({ items: [] });
    const put = await api.get('/v1/me/saved/sv0003', auth, 'PUT');
    expect(put.status).toBe(200);
    expect(validate(put.body, schema('Saved'))).toEqual([]);
    await api.get('/v1/me/saved/sv0007', auth, 'PUT');
    const again = await api.get('/v1/me/saved/sv0003', auth, 'PUT');
    expect(again.body.saved_at).toBe(put.body.saved_at);
    const list = await other.get('/v1/me/saved', auth);
    expect(list.status).toBe(200);
    expect(validate(list.body, schema('SavedList'))).toEqual([]);
    expect(ids(list)).toEqual(['sv0007', 'sv0003']);
    expect(list.body.items[1].click_url).toBe('/r/a-sv0003');
    expect(list.headers['cache-control']).toBe('no-store');
    expect((await other.get('/v1/me/saved/sv0007', auth, 'DELETE')).status).toBe(204);
    expect(ids(await api.get('/v1/me/saved', auth))).toEqual(['sv0003']);
    // another reader has its own list
    expect(ids(await api.get('/v1/me/saved', { authorization: 'Bearer someone-else-0123456789' }))).toEqual([]);
  });

  it('a cookie reader saves too: the first PUT makes the caller a reader', async () => {
    const put = await api.get('/v1/me/saved/sv0001', {}, 'PUT');
    expect(put.status).toBe(200);
    const cookie = String(([] as string[]).concat(put.headers['set-cookie'] ?? [])[0]).split(';')[0]!;
    expect(cookie).toMatch(/^newsagg_reader=/);
    expect(ids(await other.get('/v1/me/saved', { cookie }))).toEqual(['sv0001']);
  });

  it('refuses unknown stories, malformed ids and bad tokens with clear 4xx JSON', async () => {
    const auth = { authorization: 'Bearer saver-0123456789abcdef' };
    const missing = await api.get('/v1/me/saved/no-such-story', auth, 'PUT');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: 'not_found', message: 'no such story: no-such-story' });
    expect((await api.get('/v1/me/read/no-such-story', auth, 'PUT')).status).toBe(404);
    expect((await api.get('/v1/me/saved/..', auth, 'PUT')).body.error.code).toBe('invalid_id');
    const bad = await api.get('/v1/me/saved', { authorization: 'Bearer short' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_token');
    expect((await api.get('/v1/feed?hide_read=true')).body.error.code).toBe('invalid_hide_read');
  });

  it('stories read (marked, or opened through /r/) leave For you with hide_read=true, on every node', async () => {
    const auth = { authorization: 'Bearer reader-of-news-0123456789' };
    const before = ids(await api.get('/v1/feed?for=me&limit=10', auth));
    expect(before.length).toBe(10);
    expect((await api.get(`/v1/me/read/${before[0]}`, auth, 'PUT')).status).toBe(204);
    const click = await api.get(`/r/a-${before[1]}`, auth);
    expect(click.status).toBe(302);
    const read = await other.get('/v1/me/read', auth);
    expect(validate(read.body, schema('ReadList'))).toEqual([]);
    expect(new Set(read.body.story_ids)).toEqual(new Set([before[0], before[1]]));
    const hidden = await other.get('/v1/feed?for=me&limit=10&hide_read=true', auth);
    expect(hidden.status).toBe(200);
    expect(ids(hidden)).not.toContain(before[0]);
    expect(ids(hidden)).not.toContain(before[1]);
    expect(ids(hidden).length).toBe(10);
    // without hide_read they stay
    const shown = ids(await api.get('/v1/feed?for=me&limit=30', auth));
    expect(shown).toEqual(expect.arrayContaining([before[0], before[1]]));
    // unread again: back
    expect((await api.get(`/v1/me/read/${before[0]}`, auth, 'DELETE')).status).toBe(204);
    expect(ids(await other.get('/v1/feed?for=me&limit=10&hide_read=true', auth))).toContain(before[0]);
  });

  it('DELETE /v1/me forgets saved and read stories too', async () => {
    const auth = { authorization: 'Bearer forgetful-0123456789abc' };
    await api.get('/v1/me/saved/sv0002', auth, 'PUT');
    await api.get('/v1/me/read/sv0002', auth, 'PUT');
    expect((await api.get('/v1/me', auth, 'DELETE')).status).toBe(204);
    expect((await api.get('/v1/me/saved', auth)).body.items).toEqual([]);
    expect((await api.get('/v1/me/read', auth)).body.story_ids).toEqual([]);
  });

  it('every new route is in the OpenAPI document', () => {
    for (const p of ['/v1/editions', '/v1/me/saved', '/v1/me/saved/{story_id}', '/v1/me/read', '/v1/me/read/{story_id}']) expect(openApiDocument.paths).toHaveProperty([p]);
  });
});
