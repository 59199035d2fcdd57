import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest, type IngestService } from '../../src/actors/ingest/service.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { isSafeText } from '../../src/actors/store/safe-text.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { Metrics } from '../../src/runtime/metrics.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { MemoryWorkQueue } from '../../src/runtime/work-queue.js';
import { startApi, type ApiHarness } from '../api/harness.js';
import { expectMatchesOpenApi } from '../api/schema.js';
import { databases, type TestDb } from '../helpers/db.js';

const NOW = Date.now();
const at = (min: number) => new Date(NOW - 3 * 3_600_000 + min * 60_000).toISOString();
const TOKEN = 'admin-token-for-poison-tests-0123';

const TOPICS = ['harbour', 'budget', 'election', 'football', 'vaccine', 'volcano', 'orchestra', 'railway', 'drought', 'satellite'];
function good(i: number): RawArticle {
  const t = TOPICS[i % TOPICS.length]!;
  return {
    url: `https://good.example/news/${i}`, title: `${t[0]!.toUpperCase()}${t.slice(1)} report number ${i} from the city council`,
    summary: `A detailed account of the ${t} story, part ${i}, with quotes from officials and residents.`, publisher: 'good', published_at: at(i),
  };
}

/**
 * Poison isolation with the real database: text it would refuse is cleaned where it enters, and
 * what it still refuses (here, a row a CHECK constraint forbids: a refusal no cleaning can
 * foresee) is found by splitting the batch, set aside with its reason, and everything else is stored.
 */
describe.each(databases)('poison articles on %s', (_mode, open) => {
  let db: TestDb;
  let system: ActorSystem;
  let ingest: IngestService;
  let api: ApiHarness;
  const metrics = new Metrics();

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, [{ id: 'good', name: 'Good News', feed_url: 'https://good.example/feed' }, { id: 'bad', name: 'Bad News', feed_url: 'https://bad.example/feed' }]);
    // a refusal the cleaning cannot foresee (SQLSTATE 23514)
    await db.sql.query(`ALTER TABLE articles ADD CONSTRAINT test_no_refuse_me CHECK (title NOT LIKE '%refuse-me%')`);
    system = new ActorSystem();
    // the node's log, with a short retry schedule so a batch that keeps failing is given up quickly here
    const queue = new MemoryWorkQueue<RawArticle>({ maxBatch: 500, lingerMs: 10, concurrency: 4, maxAttempts: 2, retryMs: 10 });
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache: new MemoryCache(), pool: null, partitions: 2, metrics, queue });
    api = await startApi(db.sql, new MemoryCache(), { adminToken: TOKEN });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await ingest?.stop();
    await system?.shutdown();
    await db?.cleanup();
  });

  it('stores every good article of a batch holding text the database refuses, and sets aside only what it still refuses', async () => {
    const batch: RawArticle[] = [
      ...Array.from({ length: 12 }, (_, i) => good(i)),
      { url: 'https://bad.example/nul', title: 'Storm\u0000 hits the coast', summary: 'Wind\u0000 and rain', publisher: 'bad', published_at: at(20) },
      { url: 'https://bad.example/surrogate', title: 'Rocket \ud83d launch \udc00 delayed', publisher: 'bad', published_at: at(21), text: 'Body \ud800 text' },
      { url: 'https://bad.example/controls', title: 'Market\u0007 report\u001b today', publisher: 'bad', published_at: at(22) },
      { url: 'https://bad.example/huge', title: `Huge headline ${'word '.repeat(20_000)}`, summary: 'x'.repeat(200_000), publisher: 'bad', published_at: at(23) },
      { url: 'https://bad.example/refused', title: 'Please refuse-me now', publisher: 'bad', published_at: at(24) },
      { url: 'ftp://bad.example/not-http', title: 'Not a web page', publisher: 'bad', published_at: at(25) },
      ...Array.from({ length: 12 }, (_, i) => good(12 + i)),
    ];
    // the append is acknowledged: the batch was stored (all but the refused article)
    await ingest.ingest(batch);
    const { rows } = await db.sql.query<{ url: string; title: string; snippet: string | null }>('SELECT url, title, snippet FROM articles');
    const urls = new Set(rows.map((r) => r.url));
    for (let i = 0; i < 24; i++) expect(urls.has(good(i).url)).toBe(true);
    for (const u of ['nul', 'surrogate', 'controls', 'huge']) expect(urls.has(`https://bad.example/${u}`)).toBe(true);
    expect(urls.has('https://bad.example/refused')).toBe(false);
    for (const r of rows) expect(isSafeText(r.title) && (r.snippet === null || isSafeText(r.snippet))).toBe(true);
    expect(rows.find((r) => r.url.endsWith('/nul'))!.title).toBe('Storm hits the coast');
    expect(rows.find((r) => r.url.endsWith('/huge'))!.title.length).toBeLessThanOrEqual(500);

    const rejected = await db.sql.query<{ url: string; reason: string; code: string; message: string; article: string | null }>(
      'SELECT url, reason, code, message, article FROM rejected_articles ORDER BY url',
    );
    expect(rejected.rows.map((r) => [r.url, r.reason, r.code])).toEqual([
      ['ftp://bad.example/not-http', 'invalid_url', 'INVALID_URL'],
      ['https://bad.example/refused', 'storage_rejected', '23514'],
    ]);
    expect(rejected.rows[1]!.message).toMatch(/test_no_refuse_me/);
    expect(JSON.parse(rejected.rows[1]!.article!)).toMatchObject({ url: 'https://bad.example/refused', title: 'Please refuse-me now' });
    expect(await metrics.text()).toMatch(/newsagg_ingest_rejected_total\{reason="storage_rejected"\} 1/);

    // story counts are the stored rows' counts
    const drift = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stories s
        WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)
           OR s.publisher_count <> (SELECT count(DISTINCT publisher_id) FROM articles a WHERE a.story_id = s.id)`,
    );
    expect(drift.rows[0]!.n).toBe(0);
  });

  it('keeps ingesting after a refused article, and a redelivered refusal counts an attempt instead of a row', async () => {
    await ingest.ingest([{ url: 'https://bad.example/refused', title: 'Please refuse-me now', publisher: 'bad', published_at: at(24) }, good(30)]);
    const { rows } = await db.sql.query<{ attempts: number }>("SELECT attempts FROM rejected_articles WHERE url = 'https://bad.example/refused'");
    expect(rows).toEqual([{ attempts: 2 }]);
    const stored = await db.sql.query('SELECT 1 FROM articles WHERE url = $1', [good(30).url]);
    expect(stored.rows).toHaveLength(1);
    ingest.checkProgress();
  });

  it('lists what was set aside on the admin route, newest first, paged, and only with the admin token', async () => {
    expect((await api.get('/v1/rejected-articles')).status).toBe(401);
    const all = await api.get('/v1/rejected-articles?limit=1', { authorization: `Bearer ${TOKEN}` });
    expect(all.status).toBe(200);
    expectMatchesOpenApi('/v1/rejected-articles', 'get', 200, all.body);
    expect(all.body.items).toHaveLength(1);
    expect(all.body.next_cursor).toEqual(expect.any(String));
    const next = await api.get(`/v1/rejected-articles?limit=1&cursor=${encodeURIComponent(all.body.next_cursor)}`, { authorization: `Bearer ${TOKEN}` });
    expect(next.body.items[0].id).toBeLessThan(all.body.items[0].id);
    const storage = await api.get('/v1/rejected-articles?reason=storage_rejected', { authorization: `Bearer ${TOKEN}` });
    expect(storage.body.items.map((r: { url: string; code: string }) => [r.url, r.code])).toEqual([['https://bad.example/refused', '23514']]);
    expect((await api.get('/v1/rejected-articles?reason=nonsense', { authorization: `Bearer ${TOKEN}` })).status).toBe(400);
  });

  it('a batch refused for every article is a fault to retry, not articles to set aside', async () => {
    const before = (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rejected_articles')).rows[0]!.n;
    const all = [1, 2, 3].map((i) => ({ url: `https://bad.example/all-${i}`, title: `refuse-me ${i}`, publisher: 'bad', published_at: at(40 + i) }));
    await expect(ingest.ingest(all)).rejects.toMatchObject({ code: 'QUEUE_GAVE_UP' });
    const after = (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rejected_articles')).rows[0]!.n;
    expect(after).toBe(before);
  });
});
