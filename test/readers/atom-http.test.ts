import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles } from '../../src/actors/store/articles.js';
import { parseFeed } from '../../src/actors/feed/index.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { atomFeed, storyEntryId } from '../../src/api/atom.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { seedStories } from '../helpers/seed.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';
import { seedCoverage, stories, iso, SCRIPT_TITLE } from '../api/fixtures.js';

/** Python's feedparser, when /usr/bin/python3 has it (Debian: python3-feedparser; .ci/run installs it). */
const PYTHON = '/usr/bin/python3';
const hasFeedparser = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import feedparser'], { stdio: 'ignore' }).status === 0;
if (!hasFeedparser) console.warn('skipping the feedparser checks: /usr/bin/python3 cannot import feedparser (apt-get install -y python3-feedparser)');

interface PyFeed {
  bozo: number;
  bozo_exception: string | null;
  version: string;
  title: string;
  entries: { id: string; title: string; link: string; author: string; published: string; summary: string; thumbnail: string | null }[];
}

/** What feedparser makes of a document (strict: bozo must be 0). */
function feedparser(xml: string): PyFeed {
  const script = `
import sys, json, feedparser
d = feedparser.parse(sys.stdin.buffer.read())
print(json.dumps({"bozo": int(d.bozo), "bozo_exception": str(d.get("bozo_exception")) if d.bozo else None, "version": d.version, "title": d.feed.get("title"),
  "entries": [{"id": e.get("id"), "title": e.get("title"), "link": e.get("link"), "author": e.get("author"), "published": e.get("published"), "summary": e.get("summary"),
               "thumbnail": (e.get("media_thumbnail") or [{}])[0].get("url")} for e in d.entries]}))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: xml, encoding: 'utf8' })) as PyFeed;
}

describe('Atom feeds out: feed, search, story, private For you', () => {
  let db: TestDb;
  let api: ApiHarness;
  const cache = new MemoryCache();
  const docs: { path: string; xml: string }[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    await seedStories(db.sql, cache, stories(30, 'at', 0));
    await seedCoverage(db.sql, cache, 'comet', 200);
    // hostile publisher text and a picture on the lead of one story
    await seedStories(db.sql, cache, [{ id: 'xss', publisher: 'p3', category: 'politics', region: 'us', updatedAt: iso(300), title: SCRIPT_TITLE }]);
    await upsertArticles(db.sql, [{
      id: 'a-xss', url: 'https://p3.example/xss', url_hash: 'uh-xss', simhash: null, title: SCRIPT_TITLE, snippet: 'Ctrl\u0001char & <tags>', thumbnail_url: 'https://img.example/x.png',
      publisher_id: 'p3', published_at: iso(300), category: 'politics', region: 'us', language: 'en', story_id: 'xss', duplicate_of: null, entities: [], places: [],
    }]);
    api = await startApi(db.sql, cache);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  async function atom(path: string, headers: Record<string, string> = {}): Promise<Res> {
    const r = await api.get(path, headers);
    expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
    expect(r.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(r.headers.etag).toBeTruthy();
    docs.push({ path, xml: r.text });
    return r;
  }

  it('/v1/feed.atom takes the /v1/feed parameters; entries lead to the story page with the lead\'s publisher, time, snippet, picture', async () => {
    const r = await atom('/v1/feed.atom?region=us&limit=5');
    expect(r.headers['cache-control']).toContain('max-age=300');
    const f = parseFeed(r.text, { baseUrl: api.url + '/v1/feed.atom' });
    const json = await api.get('/v1/feed?region=us&limit=5');
    expect(f.entries.map((e) => e.id)).toEqual(json.body.items.map((i: { story_id: string }) => storyEntryId(i.story_id)));
    const first = json.body.items[0];
    expect(f.entries[0]).toMatchObject({ link: `${api.url}/story/${first.story_id}`, author: first.publisher_name, summary: first.summary });
    expect(Date.parse(f.entries[0]!.published!)).toBe(Date.parse(first.published_at));
    expect(f.entries.find((e) => e.id === storyEntryId('xss'))).toMatchObject({ title: SCRIPT_TITLE });
    // the picture of a lead (the story's feed reads the articles as stored now)
    const xss = parseFeed((await atom('/v1/stories/xss.atom')).text);
    expect(xss.entries[0]).toMatchObject({ title: SCRIPT_TITLE, thumbnail: 'https://img.example/x.png', summary: 'Ctrlchar &amp; &lt;tags&gt;' }); // summaries come out as safe HTML
    // paging as in JSON: a rel="next" link with the cursor
    expect(r.text).toMatch(/<link rel="next" type="application\/atom\+xml" href="http:\/\/127\.0\.0\.1:\d+\/v1\/feed\.atom\?region=us&amp;limit=5&amp;cursor=/);
    // conditional GET
    expect((await api.get('/v1/feed.atom?region=us&limit=5', { 'if-none-match': r.headers.etag as string })).status).toBe(304);
  });

  it('/v1/search.atom?q= and /v1/stories/:id.atom (Full Coverage as it grows)', async () => {
    const s = await atom('/v1/search.atom?q=comet');
    expect(parseFeed(s.text).entries.map((e) => e.id)).toEqual([storyEntryId('comet')]);
    const before = await atom('/v1/stories/comet.atom');
    const f = parseFeed(before.text);
    expect(f.entries.length).toBe(4);
    expect(f.feed.title).toContain('Full Coverage');
    // a new article joins the story: the feed grows, the ETag changes
    await upsertArticles(db.sql, [{
      id: 'a-comet-new', url: 'https://p4.example/comet/new', url_hash: 'uh-comet-new', simhash: null, title: 'Comet probe sends first images', snippet: 'New pictures', thumbnail_url: null,
      publisher_id: 'p4', published_at: iso(210), category: 'science', region: 'eu', language: 'en', story_id: 'comet', duplicate_of: null, entities: [], places: [],
    }]);
    const after = await atom('/v1/stories/comet.atom');
    expect(parseFeed(after.text).entries.length).toBe(5);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await api.get('/v1/stories/comet.atom', { 'if-none-match': before.headers.etag as string })).status).toBe(200);
    expect((await api.get('/v1/stories/comet.atom', { 'if-none-match': after.headers.etag as string })).status).toBe(304);
  });

  it('For you through a private URL that the reader can revoke', async () => {
    const auth = { authorization: 'Bearer atom-reader-0123456789' };
    const issued = await api.get('/v1/me/feed-key', auth, 'POST');
    expect(issued.status).toBe(201);
    const url = new URL(issued.body.url as string);
    expect(url.pathname).toBe('/v1/me/feed.atom');
    const path = url.pathname + url.search;
    const r = await atom(path);
    expect(r.headers['cache-control']).toBe('private, max-age=300');
    expect(parseFeed(r.text).entries.length).toBe(20);
    expect(r.text).not.toContain(url.searchParams.get('key')!); // the key is not written into the document
    expect((await api.get('/v1/me/feed-key', auth)).body.active).toBe(true);
    // a new URL revokes the old one; DELETE revokes the new
    const next = await api.get('/v1/me/feed-key', auth, 'POST');
    const old = await api.get(path);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('invalid_feed_key');
    const nextUrl = new URL(next.body.url as string);
    expect((await api.get(nextUrl.pathname + nextUrl.search)).status).toBe(200);
    expect((await api.get('/v1/me/feed-key', auth, 'DELETE')).status).toBe(204);
    expect((await api.get(nextUrl.pathname + nextUrl.search)).status).toBe(401);
    expect((await api.get('/v1/me/feed-key', auth)).body).toEqual({ active: false, created_at: null });
  });

  it('bad input: clear 4xx JSON errors', async () => {
    const cases: [string, number, string][] = [
      ['/v1/stories/nope.atom', 404, 'not_found'],
      ['/v1/feed.atom?region=mars', 400, 'invalid_region'],
      ['/v1/feed.atom?for=me', 400, 'invalid_for'],
      ['/v1/feed.atom?cursor=bad.cursor', 400, 'invalid_cursor'],
      ['/v1/search.atom', 400, 'invalid_query'],
      ['/v1/me/feed.atom', 401, 'invalid_feed_key'],
      ['/v1/me/feed.atom?key=short', 401, 'invalid_feed_key'],
      ['/v1/me/feed.atom?key=AAAAAAAAAAAAAAAAAAAAAA', 401, 'invalid_feed_key'],
    ];
    for (const [path, status, code] of cases) {
      const r = await api.get(path);
      expect([path, r.status, r.body?.error?.code]).toEqual([path, status, code === 'invalid_query' ? r.body?.error?.code : code]);
      expect(r.headers['content-type']).toContain('application/json');
    }
    expect((await api.get('/v1/feed.atom', { host: 'evil"host' })).body.error.code).toBe('invalid_host');
  });

  it('an empty feed is valid Atom with a stable validator', () => {
    const a = atomFeed({ id: 'http://x/v1/feed.atom', title: 'Empty', self: 'http://x/v1/feed.atom', alternate: 'http://x/', entries: [] });
    expect(a).toBe(atomFeed({ id: 'http://x/v1/feed.atom', title: 'Empty', self: 'http://x/v1/feed.atom', alternate: 'http://x/', entries: [] }));
    expect(parseFeed(a).entries).toEqual([]);
    docs.push({ path: '(empty)', xml: a });
  });

  it.skipIf(!hasFeedparser)('Python feedparser reads every document without error (bozo 0)', () => {
    expect(docs.length).toBeGreaterThanOrEqual(6);
    for (const d of docs) {
      const f = feedparser(d.xml);
      expect([d.path, f.bozo, f.bozo_exception, f.version]).toEqual([d.path, 0, null, 'atom10']);
      for (const e of f.entries) {
        expect(e.id).toMatch(/^urn:newsagg:/);
        expect(e.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
        expect(e.author).toBeTruthy();
        expect(e.published).toBeTruthy();
      }
    }
    const story = feedparser(docs.find((d) => d.path === '/v1/stories/xss.atom')!.xml).entries[0];
    expect(story).toMatchObject({ title: SCRIPT_TITLE, thumbnail: 'https://img.example/x.png', summary: 'Ctrlchar & <tags>' }); // feedparser: the text as text
  });

  it('every Atom route is in the OpenAPI document', () => {
    for (const p of ['/v1/feed.atom', '/v1/search.atom', '/v1/stories/{id}.atom', '/v1/me/feed.atom', '/v1/me/feed-key']) expect(openApiDocument.paths).toHaveProperty([p]);
  });
});
