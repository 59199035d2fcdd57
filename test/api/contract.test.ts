import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { databases, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { SCRIPT_TITLE, iso, seedCoverage, stories } from './fixtures.js';
import { startApi, type ApiHarness, type Res } from './harness.js';
import { expectMatchesOpenApi } from './schema.js';

function expectError(r: Res, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expectMatchesOpenApi('/v1/feed', 'get', 400, r.body); // every error has the one Error shape
  expect(r.body.error.code).toBe(code);
  expect(r.text).not.toMatch(/\bat .*\.(ts|js):\d+|stack/i);
}

describe.each(databases)('API contract on %s', (_name, open) => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();
  let coverage: string[];

  beforeAll(async () => {
    db = await open();
    await seedStories(db.sql, cache, stories(60, 's', 0));
    await seedStories(db.sql, cache, [{ id: 'xss', publisher: 'p3', category: 'politics', region: 'us', updatedAt: iso(30), title: SCRIPT_TITLE }]);
    coverage = await seedCoverage(db.sql, cache, 'cov', 45);
    api = await startApi(db.sql, cache);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it('serves feed pages that match the OpenAPI document, with ETag, CDN caching and 304', async () => {
    const r = await api.get('/v1/feed?region=global&category=top&limit=20');
    expect(r.status).toBe(200);
    expectMatchesOpenApi('/v1/feed', 'get', 200, r.body);
    expect(r.body.items).toHaveLength(20);
    expect(r.headers['cache-control']).toBe('public, max-age=10, stale-while-revalidate=30');
    const etag = r.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await api.get('/v1/feed?region=global&category=top&limit=20', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    // default limit is 20; a story's title comes back exactly as stored (escaping is the client's job)
    const d = await api.get('/v1/feed');
    expect(d.body.items).toHaveLength(20);
    const all = await api.get('/v1/feed?limit=50');
    const xss = all.body.items.find((i: { story_id: string }) => i.story_id === 'xss');
    expect(xss?.title).toBe(SCRIPT_TITLE);
  });

  it('pages with cursors: no repeats, every story once, diversity on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: Res = await api.get(`/v1/feed?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status, r.text).toBe(200);
      expectMatchesOpenApi('/v1/feed', 'get', 200, r.body);
      const perPub = new Map<string, number>();
      for (const it of r.body.items) perPub.set(it.publisher_name, (perPub.get(it.publisher_name) ?? 0) + 1);
      expect(Math.max(...perPub.values())).toBeLessThanOrEqual(3);
      if (pages === 0) expect(new Set(r.body.items.map((i: { category: string }) => i.category)).size).toBeGreaterThanOrEqual(3);
      seen.push(...r.body.items.map((i: { story_id: string }) => i.story_id));
      cursor = r.body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(62);
  });

  it('filters by region and category', async () => {
    const r = await api.get('/v1/feed?region=us&category=technology&limit=50');
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const it of r.body.items) expect(it.category).toBe('technology');
    for (const it of r.body.items) expect(it.region).toBe('us');
  });

  it.each([
    ['/v1/feed?cursor=garbage', 400, 'invalid_cursor'],
    ['/v1/feed?cursor=eyJvIjo5OTl9.AAAAAAAAAAAAAAAAAAAAAA', 400, 'invalid_cursor'],
    ['/v1/feed?category=weather', 400, 'invalid_category'],
    ['/v1/feed?region=mars', 400, 'invalid_region'],
    ['/v1/feed?limit=0', 400, 'invalid_limit'],
    ['/v1/feed?limit=51', 400, 'invalid_limit'],
    ['/v1/feed?limit=abc', 400, 'invalid_limit'],
    ['/v1/feed?limit=-1', 400, 'invalid_limit'],
    ['/v1/feed?limit=2.5', 400, 'invalid_limit'],
    ['/v1/feed?categroy=world', 400, 'unknown_parameter'],
    ['/v1/feed?limit=1&limit=2', 400, 'repeated_parameter'],
    ['/v1/articles/..%2F..%2Fetc', 400, 'invalid_id'],
    ['/v1/articles/a%00b', 400, 'invalid_id'],
    ['/v1/articles/%ZZ', 400, 'bad_request'],
    [`/v1/stories/${'x'.repeat(300)}`, 400, 'invalid_id'],
    ['/v1/articles/nope', 404, 'not_found'],
    ['/v1/stories/nope', 404, 'not_found'],
    ['/r/nope', 404, 'not_found'],
    ['/r/..', 400, 'invalid_id'],
    ['/v1/search', 400, 'missing_query'],
    ['/v1/search?q=comet&category=top', 400, 'invalid_category'],
    ['/v1/search?q=comet&region=atlantis', 400, 'invalid_region'],
    ['/v1/search?q=comet&cursor=a.b', 400, 'invalid_cursor'],
    ['/v1/search?q=%01', 400, 'invalid_query'],
    ['/thumbs/aa/..%2F..%2Fsecret.webp', 400, 'invalid_id'],
    ['/thumbs/%2e%2e/x.webp', 400, 'invalid_id'],
    [`/thumbs/ab/${'c'.repeat(64)}.webp`, 400, 'invalid_id'],
    [`/thumbs/cc/${'c'.repeat(64)}.png`, 400, 'invalid_id'],
    [`/thumbs/cc/${'c'.repeat(64)}.webp`, 404, 'not_found'],
    ['/v1/publishers', 404, 'not_found'], // admin routes are off without a token
    ['/no/such/route', 404, 'not_found'],
  ])('GET %s → %i %s', async (path, status, code) => {
    expectError(await api.get(path), status, code);
  });

  it('refuses a cursor of another feed or another search', async () => {
    const a = await api.get('/v1/feed?region=global&limit=5');
    expectError(await api.get(`/v1/feed?region=us&limit=5&cursor=${a.body.next_cursor}`), 400, 'invalid_cursor');
    expectError(await api.get(`/v1/search?q=comet&cursor=${a.body.next_cursor}`), 400, 'invalid_cursor');
    expectError(await api.get(`/v1/feed?region=global&limit=5&cursor=${a.body.next_cursor.slice(0, -2)}xx`), 400, 'invalid_cursor');
  });

  it('answers a wrong method with 405 JSON', async () => {
    const r = await api.get('/v1/feed', {}, 'POST', '{}');
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe('method_not_allowed');
  });

  it('shows an article with related articles of its story', async () => {
    const r = await api.get(`/v1/articles/${coverage[1]}`);
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/articles/{id}', 'get', 200, r.body);
    expect(r.body.article.id).toBe(coverage[1]);
    expect(r.body.story.id).toBe('cov');
    expect(r.body.related.map((a: { id: string }) => a.id).sort()).toEqual(coverage.filter((id) => id !== coverage[1]).sort());
    expect(r.headers.etag).toBeTruthy();
    expect(r.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect((await api.get(`/v1/articles/${coverage[1]}`, { 'if-none-match': r.headers.etag as string })).status).toBe(304);
  });

  it('gives Full Coverage: every article and publisher of a story', async () => {
    const r = await api.get('/v1/stories/cov');
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/stories/{id}', 'get', 200, r.body);
    expect(r.body.articles.map((a: { id: string }) => a.id).sort()).toEqual([...coverage].sort());
    expect(r.body.publishers.map((p: { id: string }) => p.id).sort()).toEqual(['p1', 'p2', 'px']);
    expect(r.body.publishers[0]).toEqual({ id: 'p2', name: 'Publisher p2', article_count: 2 });
    // the page's sections name articles of the response
    const ids = new Set(coverage);
    expect(r.body.timeline.length).toBeGreaterThan(0);
    for (const t of r.body.timeline) expect(ids.has(t.article_id)).toBe(true);
    expect(r.body.timeline.reduce((n: number, t: { article_count: number }) => n + t.article_count, 0)).toBe(coverage.length);
    expect(r.body.top_coverage.every((id: string) => ids.has(id) && id !== 'a-cov')).toBe(true);
    expect(r.body.by_region).toEqual([{ region: 'eu', article_count: 4, article_ids: expect.any(Array) }]);
    expect(r.body.articles.find((a: { id: string }) => a.id === 'a-cov').display_title).toBe('Probe lands on comet');
  });

  it('searches with results that match the document', async () => {
    const r = await api.get('/v1/search?q=comet');
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/search', 'get', 200, r.body);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const it of r.body.items) expect(it.story_id).toBe('cov');
  });

  it('records a click under the reader\'s hashed id (anonymous without one) and redirects to the stored URL only', async () => {
    const r = await api.get(`/r/${coverage[2]}?to=https://evil.example/`);
    expectError(r, 400, 'unknown_parameter');
    const ok = await api.get(`/r/${coverage[2]}`);
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe(`https://p2.example/cov/2`);
    expect(ok.headers['cache-control']).toBe('no-store');
    // no reader yet: the click is anonymous, and the reply makes the caller one
    const cookie = ([] as string[]).concat(ok.headers['set-cookie'] ?? []).find((c) => c.startsWith('newsagg_reader='))!.split(';')[0]!;
    await api.get(`/r/${coverage[2]}`, { cookie });
    const { rows } = await db.sql.query<{ article_id: string; story_id: string; reader: string | null }>('SELECT article_id, story_id, reader FROM clicks ORDER BY id');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ article_id: coverage[2], story_id: 'cov', reader: null });
    expect(rows[1]!.reader).toMatch(/^r_[A-Za-z0-9_-]{22}$/);
    expect(rows[1]!.reader).not.toContain(cookie.split('=')[1]!);
  });

  it('serves stored thumbnails immutably, by exact name only', async () => {
    const bytes = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 fake-image-bytes', 'latin1');
    const hash = createHash('sha256').update(bytes).digest('hex');
    mkdirSync(join(api.dataDir, 'thumbs', hash.slice(0, 2)), { recursive: true });
    writeFileSync(join(api.dataDir, 'thumbs', hash.slice(0, 2), `${hash}.webp`), bytes);
    writeFileSync(join(api.dataDir, 'secret.webp'), 'not for the web');
    const r = await fetch(`${api.url}/thumbs/${hash.slice(0, 2)}/${hash}.webp`);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    expect(r.headers.get('content-type')).toBe('image/webp');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await api.get(`/thumbs/${hash.slice(0, 2)}/${hash}.webp`, { 'if-none-match': r.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('serves health, readiness, metrics and the OpenAPI document', async () => {
    const h = await api.get('/healthz');
    expectMatchesOpenApi('/healthz', 'get', 200, h.body);
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(200);
    expectMatchesOpenApi('/readyz', 'get', 200, ready.body);
    expect((await api.get('/metrics')).status).toBe(200);
    const doc = await api.get('/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/v1/feed', '/v1/articles/{id}', '/v1/stories/{id}', '/v1/search', '/r/{id}']));
  });

  it('serves the web UI with a strict content security policy and no innerHTML in its script', async () => {
    const page = await api.get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.text).toMatch(/<script type="module" src="\/app\.js\?v=[0-9a-f]+"><\/script>/);
    const js = await api.get('/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect((await api.get('/app.css')).status).toBe(200);
  });
});
