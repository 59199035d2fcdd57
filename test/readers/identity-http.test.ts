import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertStories } from '../../src/actors/store/stories.js';
import { removePublisher } from '../../src/actors/store/publishers.js';
import { tokenProblem } from '../../src/api/readers/identity.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';
import { iso, stories } from '../api/fixtures.js';

/**
 * A reader's identity never changes silently: a token the server cannot use is a 401 naming what
 * is wrong with it (a client whose token was silently replaced lost its interests to a stranger),
 * and interests must name publishers, places and names this node knows (a follow of a publisher
 * by name, "BBC", matched nothing and said nothing).
 */
const cookieOf = (r: Res): string | null => {
  const c = ([] as string[]).concat(r.headers['set-cookie'] ?? []).find((x) => x.startsWith('newsagg_reader='));
  return c ? c.split(';')[0]! : null;
};
const json = (body: unknown) => JSON.stringify(body);
const JSON_TYPE = { 'content-type': 'application/json' };

describe('reader tokens and the interests they save', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();
  const readers = async () => Number((await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM readers')).rows[0]!.n);

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(14, 'id', 0));
    // a story that names a person (stories keep their names in lower case)
    await upsertStories(db.sql, [{ id: 'ada', title: 'Ada Lovelace honoured', lead_article_id: null, article_count: 1, publisher_count: 1, first_seen: iso(20), updated_at: iso(20), category: 'science', regions: ['uk'], entities: ['ada lovelace', 'lovelace'], score: 1 }]);
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it.each([
    ['a short token', 'Bearer short-token', /16 to 256 characters long; this one has 11/],
    ['a token with a character no token has', 'Bearer abcdefghijklmnop#qrstuvwxyz', /may hold only .*; this one has "#"/],
    ['another scheme', 'Basic dXNlcjpwYXNzd29yZA==', /must be "Bearer <reader token>"; it uses the scheme "Basic"/],
    ['no token after Bearer', 'Bearer ', /no token after "Bearer"/],
    ['two words', 'Bearer abcdefghijklmnopqrstuvwxyz extra', /no spaces/],
  ])('%s is a 401 naming the problem, on every reader route, and makes no reader', async (_n, authorization, message) => {
    const before = await readers();
    const calls: [string, string, string?][] = [['GET', '/v1/me'], ['PUT', '/v1/me', json({ follow: { categories: ['science'] } })], ['DELETE', '/v1/me'], ['GET', '/v1/feed?for=me']];
    for (const [method, path, body] of calls) {
      const r = await api.get(path, { authorization, ...(body ? JSON_TYPE : {}) }, method, body);
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.error.code).toBe('invalid_token');
      expect(r.body.error.message).toMatch(message);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="newsagg-reader", error="invalid_token"/);
      expect(cookieOf(r), 'no new reader is made for it').toBeNull();
    }
    expect(await readers()).toBe(before);
  });

  it('a well-formed token is the same reader on every request', async () => {
    const auth = { authorization: 'Bearer my-client-token-0123456789' };
    const put = await api.get('/v1/me', { ...auth, ...JSON_TYPE }, 'PUT', json({ follow: { categories: ['science'] } }));
    expect(put.status).toBe(200);
    const again = await api.get('/v1/me', auth);
    expect(again.body.reader_id).toBe(put.body.reader_id);
    expect(again.body.follow.categories).toEqual(['science']);
  });

  it('routes that serve anyone still serve a refused token, as nobody: the page without a cookie, the click anonymously', async () => {
    const authorization = 'Bearer short-token';
    const page = await api.get('/', { authorization });
    expect(page.status).toBe(200);
    expect(cookieOf(page)).toBeNull();
    const item = (await api.get('/v1/feed?limit=1')).body.items[0];
    const click = await api.get(item.click_url, { authorization });
    expect(click.status).toBe(302);
    expect(cookieOf(click)).toBeNull();
    const { rows } = await db.sql.query<{ reader: string | null }>('SELECT reader FROM clicks WHERE article_id = $1', [item.article_id]);
    expect(rows.map((r) => r.reader)).toEqual([null]);
  });

  it('a malformed cookie (never one the server set) is replaced by a fresh one', async () => {
    const r = await api.get('/v1/me', { cookie: 'newsagg_reader=bad' });
    expect(r.status).toBe(200);
    expect(cookieOf(r)).toMatch(/^newsagg_reader=[A-Za-z0-9_-]{22}$/);
  });

  it('tokenProblem names each defect', () => {
    expect(tokenProblem('Token abc')).toMatch(/scheme "Token"/);
    expect(tokenProblem('bearer ' + 'x'.repeat(300))).toMatch(/this one has 300/);
    expect(tokenProblem('Bearer abcdefghijklmnop\u0001q')).toContain('"\\u0001"');
  });

  describe('PUT /v1/me names what it does not know', () => {
    const auth = { authorization: 'Bearer interests-reader-0123456789', ...JSON_TYPE };
    const put = (body: unknown) => api.get('/v1/me', auth, 'PUT', json(body));

    it.each([
      ['a publisher named by name', { follow: { publishers: ['BBC'] } }, 'unknown_publisher', 'unknown publisher: follow.publishers "BBC"; publishers are named by id'],
      ['two hidden publishers', { hide: { publishers: ['p1', 'nope', 'gone'] } }, 'unknown_publisher', 'unknown publishers: hide.publishers "nope", hide.publishers "gone"'],
      ['a place nobody knows', { follow: { places: ['Atlantis'] } }, 'unknown_place', 'unknown place: follow.places "Atlantis"'],
      ['a name in no story', { hide: { entities: ['Zorblax Quux'] } }, 'unknown_entity', 'unknown name: hide.entities "Zorblax Quux"'],
    ])('refuses %s with 400, and saves nothing', async (_n, body, code, message) => {
      const before = (await api.get('/v1/me', auth)).body;
      const r = await put(body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.message).toContain(message);
      expect((await api.get('/v1/me', auth)).body).toEqual(before);
    });

    it('takes publisher ids, gazetteer places in any case, names of recent stories and well-known organisations', async () => {
      const r = await put({
        follow: { publishers: ['p1'], places: ['nairobi', 'Kenya', 'USA', 'Europe'], entities: ['Ada Lovelace', 'Federal Reserve', 'Paris'] },
        hide: { entities: ['lovelace'] },
      });
      expect(r.status).toBe(200);
      expect(r.body.follow.places).toEqual(['nairobi', 'Kenya', 'USA', 'Europe']);
    });

    it('never refuses again what the reader already has: a publisher removed since does not block other changes', async () => {
      await put({ follow: { publishers: ['p2'] } });
      await removePublisher(db.sql, 'p2');
      const r = await put({ follow: { publishers: ['p2'], categories: ['health'] } });
      expect(r.status).toBe(200);
      expect(r.body.follow).toMatchObject({ publishers: ['p2'], categories: ['health'] });
    });
  });
});
