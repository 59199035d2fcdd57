import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';
import { startIngest, type IngestService } from '../../src/actors/ingest/service.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { freshEntries, type PublisherIdentity } from '../../src/actors/publisher/entries.js';
import { createSeen } from '../../src/actors/publisher/seen.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { databases, type TestDb } from '../helpers/db.js';

/**
 * Labels through the one pipeline, end to end: feed XML (real parser) -> the publisher's entries
 * -> ingest (prepare in the CPU stage, dedup shards in a worker, clustering, storage) -> the stored
 * rows. The entry's own tags file an article; the feed's language is a prior for short headlines;
 * a wire copy takes its original's categories, primary and secondary, whether the original came
 * in the same batch or was stored before.
 */

// real time: the dedup shards in their worker read the real clock for their window
const NOW = Date.now();
const rfc = (min: number) => new Date(NOW - 3 * 3_600_000 + min * 60_000).toUTCString();

const saleTitle = 'Harbour City agree record sale of the club to US investors';
const saleText =
  'Harbour City have agreed the record sale of the football club to a group of US investors, the club said on Monday, ending a ' +
  'year of talks. The new owners promised to fund a new stadium and keep the manager, who led the team to the league title last season.';

function pub(id: string, language: string | null = null): PublisherIdentity {
  return { id, name: `The ${id}`, url: `https://${id}.example/feed`, category: null, country: 'GB', language };
}

function item(p: string, id: string, min: number, title: string, description = '', tags: string[] = []): string {
  return `<item><title>${title}</title><link>https://${p}.example/news/${id}</link><guid>${id}</guid><pubDate>${rfc(min)}</pubDate>` +
    `${description ? `<description>${description}</description>` : ''}${tags.map((t) => `<category>${t}</category>`).join('')}</item>`;
}

function entries(p: PublisherIdentity, items: string, language: string | null = null): RawArticle[] {
  const body = `<?xml version="1.0"?><rss version="2.0"><channel><title>${p.name}</title><link>https://${p.id}.example/</link>` +
    `${language ? `<language>${language}</language>` : ''}${items}</channel></rss>`;
  return freshEntries(parseFeed(body, { baseUrl: p.url, contentType: 'application/rss+xml' }), createSeen(), p, NOW).articles;
}

describe.each(databases)('labels through ingest on %s', (_mode, open) => {
  let db: TestDb;
  let system: ActorSystem;
  let ingest: IngestService;

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, ['wire', 'daily', 'herald'].map((p) => ({ id: p, name: `The ${p}`, feed_url: `https://${p}.example/feed` })));
    system = new ActorSystem();
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache: new MemoryCache(), pool: null, partitions: 2, now: () => NOW });
  }, 180_000);
  afterAll(async () => {
    await ingest?.stop();
    await system?.shutdown();
    await db?.cleanup();
  });

  async function row(id: string) {
    const { rows } = await db.sql.query<{ id: string; category: string; secondary_category: string | null; language: string; duplicate_of: string | null }>(
      'SELECT id, category, secondary_category, language, duplicate_of FROM articles WHERE url LIKE $1', [`%/news/${id}`],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  it('files by the entry tag, reads short headlines by the feed language, and stores the secondary category', async () => {
    const wire = entries(pub('wire', 'fr'), [
      item('wire', 'o1', 0, saleTitle, saleText, ['Business']),
      item('wire', 's1', 1, 'Hartley signs a new two-year deal', '', ['Sport']),
      item('wire', 'm1', 2, 'Día de Muertos parade draws record crowds in Mexico City'),
    ].join(''), 'en');
    // the copy of o1 in the same batch, from a publisher that files nothing
    const daily = entries(pub('daily'), item('daily', 'c1', 6, `${saleTitle} | The Daily`, saleText));
    await ingest.ingest([...wire, ...daily]);
    await ingest.drain();

    const o1 = await row('o1');
    expect(o1).toMatchObject({ category: 'business', secondary_category: 'sports', duplicate_of: null });
    expect(await row('s1')).toMatchObject({ category: 'sports' });
    // the feed's <language>en</language> comes before the publisher's fr; without either, the text reads pt
    expect((await row('m1')).language).toBe('en');
    expect(prepareBatch([{ url: 'https://x.example/m', title: 'Día de Muertos parade draws record crowds in Mexico City', published_at: null }], NOW).ok[0]!.language).toBe('pt');
    expect(await row('c1')).toMatchObject({ duplicate_of: o1.id, category: 'business', secondary_category: 'sports' });
  }, 60_000);

  it('a copy arriving after its original was stored takes the stored categories', async () => {
    const herald = entries(pub('herald'), item('herald', 'c2', 20, `UPDATE 1-${saleTitle}`, saleText));
    // on its own words the copy is a sports story
    expect(prepareBatch(herald, NOW).ok[0]!.category).toBe('sports');
    await ingest.ingest(herald);
    await ingest.drain();
    const o1 = await row('o1');
    expect(await row('c2')).toMatchObject({ duplicate_of: o1.id, category: 'business', secondary_category: 'sports' });
  }, 60_000);
});
