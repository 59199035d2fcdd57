import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOpmlOutlines } from '../../src/api/routes/opml.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness } from './harness.js';
import { expectMatchesOpenApi } from './schema.js';

const TOKEN = 'admin-token-for-tests-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const jsonAuth = { ...auth, 'content-type': 'application/json' };

const OPML = `<?xml version="1.0"?>
<!DOCTYPE opml [<!ENTITY boom "boom">]>
<opml version="2.0" xmlns:newsagg="https://newsagg.invalid/ns/opml/1">
  <head><title>My &amp; list</title></head>
  <body>
    <outline text="Technology">
      <outline type="rss" text="Gadget &amp; Co" xmlUrl="https://gadget.example/feed?a=1&amp;b=2" htmlUrl="https://gadget.example/" newsagg:country="de"/>
      <outline type="rss" text="Chip News" xmlUrl="https://chips.example/rss" category="science"/>
    </outline>
    <outline type="rss" text="Local" xmlUrl="http://local.example/atom.xml" country="US"/>
    <outline type="rss" text="Bad scheme" xmlUrl="javascript:alert(1)"/>
    <outline type="rss" text="Duplicate" xmlUrl="https://chips.example/rss"/>
    <outline text="Empty"/>
  </body>
</opml>`;

describe('OPML codec', () => {
  it('reads nested outlines, decodes entities, keeps folder categories and rejects unusable URLs', () => {
    const r = readOpmlOutlines(OPML);
    expect(r.title).toBe('My & list');
    expect(r.outlines.map((o) => [o.name, o.feed_url, o.category, o.country])).toEqual([
      ['Gadget & Co', 'https://gadget.example/feed?a=1&b=2', 'technology', 'DE'],
      ['Chip News', 'https://chips.example/rss', 'science', null],
      ['Local', 'http://local.example/atom.xml', null, 'US'],
    ]);
    expect(r.rejected.map((x) => x.reason)).toEqual(['xmlUrl is not an http(s) URL', 'duplicate xmlUrl', 'no xmlUrl']);
  });
  it.each([['<html><body>hi</body></html>'], [''], ['<rss><channel/></rss>']])('refuses %j', (doc) => {
    expect(() => readOpmlOutlines(doc)).toThrow(expect.objectContaining({ code: 'OPML_INVALID' }));
  });
});

describe('admin routes', () => {
  let db: TestDb;
  let api: ApiHarness;
  const changes: { added: string[]; removed: string[] }[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    api = await startApi(db.sql, new MemoryCache(), { adminToken: TOKEN, onPublishersChanged: (c) => changes.push(c) });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it.each([
    ['no token', {}],
    ['wrong token', { authorization: 'Bearer not-the-token-at-all-000000' }],
    ['wrong scheme', { authorization: `Basic ${TOKEN}` }],
  ])('refuses %s with 401', async (_n, headers) => {
    const r = await api.get('/v1/publishers', headers);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthorized');
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('adds, lists with polling status, pages, reads and removes publishers', async () => {
    const add = await api.get('/v1/publishers', jsonAuth, 'POST', JSON.stringify({ name: 'Daily <Planet>', feed_url: 'https://planet.example/feed', country: 'gb', tier: 1 }));
    expect(add.status, add.text).toBe(201);
    expectMatchesOpenApi('/v1/publishers', 'post', 201, add.body);
    expect(add.body).toMatchObject({ name: 'Daily <Planet>', country: 'GB', region: 'uk', tier: 1, circuit: 'closed', failures: 0, last_polled_at: null, not_modified_count: 0 });
    expect(changes.at(-1)).toEqual({ added: [add.body.id], removed: [] });
    const dup = await api.get('/v1/publishers', jsonAuth, 'POST', JSON.stringify({ feed_url: 'https://planet.example/feed' }));
    expect(dup.status).toBe(409);
    for (let i = 0; i < 4; i++) {
      const r = await api.get('/v1/publishers', jsonAuth, 'POST', JSON.stringify({ feed_url: `https://site${i}.example/rss` }));
      expect(r.status).toBe(201);
    }
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await api.get(`/v1/publishers?limit=2${cursor ? `&cursor=${cursor}` : ''}`, auth);
      expect(r.status, r.text).toBe(200);
      expectMatchesOpenApi('/v1/publishers', 'get', 200, r.body);
      expect(r.headers['cache-control']).toBe('no-store');
      ids.push(...r.body.items.map((p: { id: string }) => p.id));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    const one = await api.get(`/v1/publishers/${add.body.id}`, auth);
    expectMatchesOpenApi('/v1/publishers/{id}', 'get', 200, one.body);
    const del = await api.get(`/v1/publishers/${add.body.id}`, auth, 'DELETE');
    expect(del.status).toBe(204);
    expect(changes.at(-1)).toEqual({ added: [], removed: [add.body.id] });
    expect((await api.get(`/v1/publishers/${add.body.id}`, auth)).status).toBe(404);
    expect((await api.get(`/v1/publishers/${add.body.id}`, auth, 'DELETE')).status).toBe(404);
  });

  it.each([
    ['not JSON', '{', 'invalid_json'],
    ['an array', '[]', 'invalid_body'],
    ['no feed_url', '{"name":"x"}', 'invalid_body'],
    ['a file URL', '{"feed_url":"file:///etc/passwd"}', 'invalid_body'],
    ['an unknown field', '{"feed_url":"https://a.example/","state":{}}', 'invalid_body'],
    ['a bad country', '{"feed_url":"https://a.example/","country":"Germany"}', 'invalid_body'],
    ['a bad tier', '{"feed_url":"https://a.example/","tier":9}', 'invalid_body'],
    ['a bad category', '{"feed_url":"https://a.example/","category":"weather"}', 'invalid_body'],
  ])('refuses a new publisher with %s', async (_n, body, code) => {
    const r = await api.get('/v1/publishers', jsonAuth, 'POST', body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(code);
  });

  it('imports OPML (idempotently) and exports what is stored', async () => {
    const r = await api.get('/v1/opml', { ...auth, 'content-type': 'text/x-opml' }, 'POST', OPML);
    expect(r.status, r.text).toBe(200);
    expectMatchesOpenApi('/v1/opml', 'post', 200, r.body);
    expect(r.body).toMatchObject({ added: 3, existing: 0 });
    expect(r.body.rejected).toHaveLength(3);
    const again = await api.get('/v1/opml', { ...auth, 'content-type': 'text/x-opml' }, 'POST', OPML);
    expect(again.body).toMatchObject({ added: 0, existing: 3 });
    const bad = await api.get('/v1/opml', auth, 'POST', '<rss><channel/></rss>');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_opml');
    const out = await api.get('/v1/opml', auth);
    expect(out.status).toBe(200);
    expect(out.headers['content-type']).toMatch(/^text\/x-opml/);
    const back = readOpmlOutlines(out.text);
    expect(back.outlines.map((o) => o.feed_url)).toEqual(expect.arrayContaining(['https://gadget.example/feed?a=1&b=2', 'https://chips.example/rss', 'http://local.example/atom.xml']));
    const gadget = back.outlines.find((o) => o.feed_url.startsWith('https://gadget'))!;
    expect(gadget).toMatchObject({ name: 'Gadget & Co', country: 'DE', category: 'technology' });
  });
});
