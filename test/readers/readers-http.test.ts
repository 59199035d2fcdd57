import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache, type Cache } from '../../src/runtime/cache.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { CursorCodec } from '../../src/api/cursor.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';
import { stories } from '../api/fixtures.js';
import { validate } from '../api/schema.js';
import type { CachedStory } from '../../src/actors/store/feed-items.js';

/** the `newsagg_reader=...` pair of a response's Set-Cookie, or null */
function readerCookie(r: Res): string | null {
  const set = r.headers['set-cookie'];
  const list = Array.isArray(set) ? set : set ? [set] : [];
  const c = list.find((x) => x.startsWith('newsagg_reader='));
  return c ? c.split(';')[0]! : null;
}

const ids = (r: Res): string[] => (r.body.items as { story_id: string }[]).map((i) => i.story_id);
const json = (body: unknown) => ({ payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('readers over HTTP: /v1/me, for=me, clicks', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();

  beforeAll(async () => {
    db = await scratchPostgres();
    // 56 stories over 7 publishers (p0..p6), eight categories round-robin, us/uk alternating
    await seedStories(db.sql, cache, stories(56, 'st', 0));
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  async function put(cookie: string, body: unknown): Promise<Res> {
    const j = json(body);
    return api.get('/v1/me', { ...j.headers, cookie }, 'PUT', j.payload);
  }

  async function allPages(headers: Record<string, string>, path = '/v1/feed?for=me&limit=10'): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 100; i++) {
      const r = await api.get(`${path}${cursor ? `&cursor=${cursor}` : ''}`, headers);
      expect(r.status).toBe(200);
      seen.push(...ids(r));
      cursor = r.body.next_cursor;
      if (!cursor) break;
    }
    return seen;
  }

  it('for=me items carry related headlines only when asked (related=true), as the anonymous feed does', async () => {
    // give every story's cache entry two headlines of other publishers, before any pool is built
    const keys = Array.from({ length: 56 }, (_, i) => `story:st${String(i).padStart(4, '0')}`);
    const entries = (await cache.mget(keys)).map((v) => JSON.parse(v!) as CachedStory);
    for (const e of entries) e.item.related = [{ article_id: `x-${e.item.story_id}`, title: 'Other take', publisher_name: 'Other' }, { article_id: `y-${e.item.story_id}`, title: 'Third take', publisher_name: 'Third' }];
    await cache.mset(entries.map((e) => ({ key: `story:${e.item.story_id}`, value: JSON.stringify(e), ttlMs: 60_000 })));
    const auth = { authorization: 'Bearer related-reader-0123456789' };
    const bare = await api.get('/v1/feed?for=me&limit=5', auth);
    const full = await api.get('/v1/feed?for=me&limit=5&related=true', auth);
    expect(bare.status).toBe(200);
    expect(ids(full)).toEqual(ids(bare));
    expect(bare.body.items.some((i: Record<string, unknown>) => 'related' in i)).toBe(false);
    expect(full.body.items.every((i: { related?: unknown[] }) => i.related?.length === 2)).toBe(true);
    // the same items otherwise, and distinct validators for the two bodies
    expect(full.body.items.map(({ related: _r, ...rest }: Record<string, unknown>) => rest)).toEqual(bare.body.items);
    expect(full.headers.etag).not.toBe(bare.headers.etag);
    expect((await api.get('/v1/feed?for=me&limit=5&related=true', { ...auth, 'if-none-match': bare.headers.etag as string })).status).toBe(200);
  });

  it('makes a caller with neither token nor cookie a reader: HttpOnly, SameSite=Lax cookie, empty profile', async () => {
    const r = await api.get('/v1/me');
    expect(r.status).toBe(200);
    const set = ([] as string[]).concat(r.headers['set-cookie'] ?? []).join('\n');
    expect(set).toMatch(/newsagg_reader=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body).toEqual({
      reader_id: expect.stringMatching(/^r_/),
      follow: { categories: [], entities: [], publishers: [], places: [] },
      hide: { categories: [], entities: [], publishers: [], places: [] },
      history_size: 0,
    });
    expect(validate(r.body, { $ref: '#/components/schemas/Me' })).toEqual([]);
    // the cookie is who the reader is: the same id next time, and no new cookie
    const again = await api.get('/v1/me', { cookie: readerCookie(r)! });
    expect(again.body.reader_id).toBe(r.body.reader_id);
    expect(readerCookie(again)).toBeNull();
  });

  it('the web page sets the cookie on a first visit, and only then', async () => {
    const first = await api.get('/');
    expect(readerCookie(first)).not.toBeNull();
    expect(first.headers['cache-control']).toMatch(/^private/);
    const back = await api.get('/', { cookie: readerCookie(first)! });
    expect(readerCookie(back)).toBeNull();
    expect(back.headers['cache-control']).toMatch(/^public/);
  });

  it('for=me without a reader: the unpersonalised order, and a cookie', async () => {
    const anon = await api.get('/v1/feed?limit=20');
    const r = await api.get('/v1/feed?for=me&limit=20');
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(ids(anon));
    expect(readerCookie(r)).not.toBeNull();
    expect(r.headers['cache-control']).toMatch(/^private/);
  });

  it('followed interests visibly change the personalised order', async () => {
    const cookie = readerCookie(await api.get('/v1/me'))!;
    const before = ids(await api.get('/v1/feed?for=me&limit=10', { cookie }));
    const science = (await api.get('/v1/feed?category=science&limit=50')).body.items.map((i: { story_id: string }) => i.story_id) as string[];
    expect(before.filter((id) => science.includes(id)).length).toBeLessThan(4);
    const set = await put(cookie, { follow: { categories: ['science'] } });
    expect(set.status).toBe(200);
    expect(set.body.follow.categories).toEqual(['science']);
    const after = await api.get('/v1/feed?for=me&limit=10', { cookie });
    expect(after.headers['cache-control']).toBe('private, no-cache');
    expect(validate(after.body, { $ref: '#/components/schemas/FeedPage' })).toEqual([]);
    // every science story of the pool now leads the page (seven of 56; the page's rules still hold)
    expect(ids(after).slice(0, 7).every((id) => science.includes(id))).toBe(true);
    expect(ids(after)).not.toEqual(before);
    // the same profile and pool give the same page and ETag: a revalidation is a 304
    const etag = after.headers.etag as string;
    expect((await api.get('/v1/feed?for=me&limit=10', { cookie, 'if-none-match': etag })).status).toBe(304);
  });

  it('hidden publishers never appear, on any page', async () => {
    const cookie = readerCookie(await api.get('/v1/me'))!;
    expect((await put(cookie, { hide: { publishers: ['p3'] }, follow: { entities: ['Nairobi'] } })).status).toBe(200);
    const seen = await allPages({ cookie });
    const byPublisher = new Map((await api.get('/v1/feed?limit=50')).body.items.map((i: { story_id: string; publisher_name: string }) => [i.story_id, i.publisher_name]));
    expect(seen.length).toBe(48); // 56 stories, 8 of them p3's
    expect(new Set(seen).size).toBe(seen.length); // no repeats across pages
    for (const id of seen) expect(byPublisher.get(id) ?? 'not p3').not.toBe('Publisher p3');
  });

  it('clicks become reading history: the order follows what the reader clicks', async () => {
    const cookie = readerCookie(await api.get('/v1/me'))!;
    const before = ids(await api.get('/v1/feed?for=me&limit=8', { cookie }));
    const sports = ((await api.get('/v1/feed?category=sports&limit=50')).body.items as { story_id: string; article_id: string }[]);
    // read three sports stories (not among the first page)
    for (const s of sports.filter((x) => !before.includes(x.story_id)).slice(0, 3)) {
      const r = await api.get(`/r/${s.article_id}`, { cookie });
      expect(r.status).toBe(302);
    }
    expect((await api.get('/v1/me', { cookie })).body.history_size).toBe(3);
    const after = ids(await api.get('/v1/feed?for=me&limit=8', { cookie }));
    const sportsIds = new Set(sports.map((s) => s.story_id));
    expect(after.filter((id) => sportsIds.has(id)).length).toBeGreaterThan(before.filter((id) => sportsIds.has(id)).length);
  });

  it('a REST client is a reader by its bearer token, and its cursors page through its whole order', async () => {
    const auth = { authorization: 'Bearer client-token-0123456789abcdef' };
    const me = await api.get('/v1/me', auth);
    expect(readerCookie(me)).toBeNull();
    expect((await api.get('/v1/me', { ...auth, ...json({ follow: { publishers: ['p5'] } }).headers }, 'PUT', json({ follow: { publishers: ['p5'] } }).payload)).status).toBe(200);
    const first = await api.get('/v1/feed?for=me&limit=5', auth);
    expect(first.body.items.slice(0, 3).every((i: { publisher_name: string }) => i.publisher_name === 'Publisher p5')).toBe(true);
    const seen = await allPages(auth, '/v1/feed?for=me&limit=7');
    expect(seen.length).toBe(56);
    expect(new Set(seen).size).toBe(56);
    // a cursor is the reader's own: another reader cannot page with it
    const other = await api.get(`/v1/feed?for=me&limit=5&cursor=${first.body.next_cursor}`, { authorization: 'Bearer someone-else-0123456789' });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('invalid_cursor');
  });

  it('DELETE /v1/me leaves nothing behind', async () => {
    const first = await api.get('/v1/me');
    const cookie = readerCookie(first)!;
    const id = first.body.reader_id as string;
    await put(cookie, { follow: { entities: ['Federal Reserve'] }, hide: { categories: ['sports'] } });
    const article = (await api.get('/v1/feed?limit=1')).body.items[0].article_id;
    await api.get(`/r/${article}`, { cookie });
    const count = async () => (await db.sql.query<{ n: number }>('SELECT (SELECT count(*) FROM readers WHERE id = $1) + (SELECT count(*) FROM clicks WHERE reader = $1) AS n', [id])).rows[0]!.n;
    expect(Number(await count())).toBe(2);
    const del = await api.get('/v1/me', { cookie }, 'DELETE');
    expect(del.status).toBe(204);
    expect(([] as string[]).concat(del.headers['set-cookie'] ?? []).join()).toMatch(/newsagg_reader=; Path=\/; Max-Age=0/);
    expect(Number(await count())).toBe(0);
    // and the node forgot the profile it held
    const again = await api.get('/v1/me', { cookie });
    expect(again.body).toMatchObject({ reader_id: id, follow: { entities: [] }, hide: { categories: [] }, history_size: 0 });
  });

  it.each([
    ['malformed JSON', '{"follow": [', 400, 'invalid_json'],
    ['an unknown category', JSON.stringify({ follow: { categories: ['cooking'] } }), 400, 'invalid_category'],
    ['too many entries', JSON.stringify({ follow: { entities: Array.from({ length: 51 }, (_, i) => `e${i}`) } }), 400, 'too_many_interests'],
    ['a huge string', JSON.stringify({ follow: { entities: ['x'.repeat(50_000)] } }), 400, 'invalid_interest'],
    ['a body past 64 KB', JSON.stringify({ follow: { entities: ['x'.repeat(70_000)] } }), 413, 'payload_too_large'],
    ['an empty body', '', 400, 'invalid_body'],
  ])('PUT /v1/me refuses %s with the JSON error shape', async (_n, payload, status, code) => {
    const cookie = readerCookie(await api.get('/v1/me'))!;
    const r = await api.get('/v1/me', { cookie, 'content-type': 'application/json' }, 'PUT', payload);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('refuses for= values other than me, and a tampered personal cursor', async () => {
    expect((await api.get('/v1/feed?for=you')).body.error.code).toBe('invalid_for');
    const cookie = readerCookie(await api.get('/v1/me'))!;
    const first = await api.get('/v1/feed?for=me&limit=5', { cookie });
    const [body, mac] = (first.body.next_cursor as string).split('.');
    const forged = `${body!.slice(0, -2)}AA.${mac}`;
    expect((await api.get(`/v1/feed?for=me&limit=5&cursor=${forged}`, { cookie })).body.error.code).toBe('invalid_cursor');
  });

  it('/metrics counts requests and durations by route pattern, never by raw path', async () => {
    const article = (await api.get('/v1/feed?limit=1')).body.items[0].article_id;
    await api.get(`/r/${article}`);
    await api.get('/no/such/path');
    const text = (await api.get('/metrics')).text;
    expect(text).toMatch(/newsagg_http_requests_total\{route="\/v1\/me",status="200"\} \d+/);
    expect(text).toMatch(/newsagg_http_requests_total\{route="\/r\/:id",status="302"\} \d+/);
    expect(text).toMatch(/newsagg_http_requests_total\{route="\(unmatched\)",status="404"\} \d+/);
    expect(text).toMatch(/newsagg_http_request_duration_seconds_bucket\{route="\/v1\/feed",le="\+Inf"\} \d+/);
    expect(text).toMatch(/newsagg_http_request_duration_seconds_count\{route="\/v1\/me"\} \d+/);
    expect(text).not.toContain(article);
  });
});

describe('readers across two API nodes on one Redis', () => {
  let db: TestDb;
  let caches: Cache[] = [];
  let a: ApiHarness;
  let b: ApiHarness;

  beforeAll(async () => {
    db = await scratchPostgres();
    const prefix = `t${Math.random().toString(36).slice(2)}:`;
    caches = [await openCache({ redisUrl: 'redis://127.0.0.1:6379', prefix }), await openCache({ redisUrl: 'redis://127.0.0.1:6379', prefix })];
    await seedStories(db.sql, caches[0]!, stories(40, 'x', 0));
    // one cursor secret, as --cursor-secret asks of several API nodes
    const codec = new CursorCodec('shared-secret-0123456789');
    a = await startApi(db.sql, caches[0]!, { codec });
    b = await startApi(db.sql, caches[1]!, { codec });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const c of caches) await c.close();
    await db?.cleanup();
  });

  it('interests set on one node show on the other, and a cursor from one pages on the other', async () => {
    const cookie = readerCookie(await a.get('/v1/me'))!;
    expect((await b.get('/v1/me', { cookie })).body.follow.categories).toEqual([]); // b now holds the profile
    const j = json({ follow: { categories: ['health'] } });
    await a.get('/v1/me', { ...j.headers, cookie }, 'PUT', j.payload);
    await expect.poll(async () => (await b.get('/v1/me', { cookie })).body.follow.categories, { timeout: 10_000 }).toEqual(['health']);
    const first = await a.get('/v1/feed?for=me&limit=10', { cookie });
    const second = await b.get(`/v1/feed?for=me&limit=10&cursor=${first.body.next_cursor}`, { cookie });
    expect(second.status).toBe(200);
    const both = [...ids(first), ...ids(second)];
    expect(new Set(both).size).toBe(20);
  });
});
