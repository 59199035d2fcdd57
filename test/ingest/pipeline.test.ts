import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest, type IngestService } from '../../src/actors/ingest/service.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { storyKey } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { databases, type TestDb } from '../helpers/db.js';

// real time: the dedup shards in their worker read the real clock for their window
const NOW = Date.now();
const at = (min: number) => new Date(NOW - 6 * 3_600_000 + min * 60_000).toISOString();

const quakeText =
  'A magnitude 7.1 earthquake struck off the coast of northern Chile on Tuesday, shaking buildings in Antofagasta and ' +
  'prompting a brief tsunami warning, officials from the national emergency office said. There were no immediate reports ' +
  'of deaths. Residents of coastal towns moved to higher ground as sirens sounded along the shore.';

function wire(id: string, publisher: string, min: number, title: string, summary = quakeText): RawArticle {
  return { id, url: `https://${publisher}.example/news/${id}?utm_source=x`, title, summary, publisher, published_at: at(min), publisher_country: 'US' };
}

const batch1: RawArticle[] = [
  wire('w1', 'wire', 0, 'Strong earthquake strikes northern Chile, tsunami warning issued'),
  wire('c1', 'daily', 5, 'Strong earthquake strikes northern Chile, tsunami warning issued | The Daily'),
  wire('c2', 'herald', 7, 'UPDATE 1-Strong earthquake strikes northern Chile, tsunami warning issued', `ANTOFAGASTA (Wire) - ${quakeText}`),
  {
    id: 'j1', url: 'https://tokyo.example/a/j1', title: 'Earthquake rattles Tokyo as Japan reports minor damage',
    summary: 'A magnitude 5.8 earthquake shook Tokyo on Friday, halting trains briefly; Japan Meteorological Agency issued no tsunami warning.',
    publisher: 'tokyo', published_at: at(30), publisher_country: 'JP',
  },
  {
    id: 's1', url: 'https://sport.example/s1', title: 'Arsenal beat Chelsea 2-1 in the London derby',
    summary: 'Arsenal came from behind to beat Chelsea 2-1 at the Emirates Stadium in the Premier League on Sunday.',
    publisher: 'sport', published_at: at(40), publisher_country: 'GB',
  },
];

describe.each(databases)('ingest pipeline on %s (dedup shards in a worker)', (_mode, open) => {
  let db: TestDb;
  const cache = new MemoryCache();
  let system: ActorSystem;
  let ingest: IngestService;

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, ['wire', 'daily', 'herald', 'tokyo', 'sport', 'late'].map((p) => ({ id: p, name: `The ${p}`, feed_url: `https://${p}.example/feed` })));
    system = new ActorSystem();
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache, pool: null, partitions: 2, now: () => NOW });
  }, 180_000);
  afterAll(async () => {
    await ingest?.stop();
    await system?.shutdown();
    await db?.cleanup();
  });

  async function rows() {
    const { rows } = await db.sql.query<{ id: string; url: string; duplicate_of: string | null; story_id: string; category: string; title: string }>(
      'SELECT id, url, duplicate_of, story_id, category, title FROM articles ORDER BY published_at',
    );
    return rows;
  }

  it('stores articles with wire copies pointing at their original and sharing its story', async () => {
    await ingest.ingest(batch1);
    await ingest.drain();
    const r = await rows();
    expect(r).toHaveLength(5);
    const byUrl = (id: string) => r.find((x) => x.url.includes(`/${id}`))!;
    const w1 = byUrl('w1');
    expect(w1.duplicate_of).toBeNull();
    expect(byUrl('c1').duplicate_of).toBe(w1.id);
    expect(byUrl('c2').duplicate_of).toBe(w1.id);
    expect(byUrl('c1').story_id).toBe(w1.story_id);
    expect(byUrl('j1').story_id).not.toBe(w1.story_id);
    expect(byUrl('s1').story_id).not.toBe(w1.story_id);
    expect(byUrl('s1').category).toBe('sports');
    const story = await db.sql.query<{ article_count: number; publisher_count: number }>('SELECT article_count, publisher_count FROM stories WHERE id = $1', [w1.story_id]);
    expect(story.rows[0]).toMatchObject({ article_count: 3, publisher_count: 3 });
    const feed = await cache.zrevrangebyscore('feed:global:top', Infinity, -Infinity);
    expect(feed.map((f) => f.member)).toContain(w1.story_id);
  });

  it('is idempotent: a redelivered batch or a republished URL adds nothing', async () => {
    await ingest.ingest(batch1);
    await ingest.ingest([{ ...batch1[0]!, id: 'new-guid', title: 'Strong earthquake strikes northern Chile (corrected)' }]);
    await ingest.drain();
    const r = await rows();
    expect(r).toHaveLength(5);
    expect(r.find((x) => x.url.includes('/w1'))!.title).toBe('Strong earthquake strikes northern Chile (corrected)');
  });

  it('after a restart, rebuilds dedup shards and stories from storage', async () => {
    await ingest.stop();
    await system.shutdown();
    system = new ActorSystem();
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache, pool: null, partitions: 2, now: () => NOW });
    await ingest.ingest([wire('late1', 'late', 90, 'Strong earthquake strikes northern Chile, tsunami warning issued - Late Edition')]);
    await ingest.drain();
    const r = await rows();
    const w1 = r.find((x) => x.url.includes('/w1'))!;
    const late = r.find((x) => x.url.includes('/late1'))!;
    expect(late.duplicate_of).toBe(w1.id);
    expect(late.story_id).toBe(w1.story_id);
  });

  it('a URL repeated in the next batch refreshes its row while the first batch is still being written', async () => {
    await ingest.stop();
    await system.shutdown();
    system = new ActorSystem();
    // one article per batch: batch n+1 is decided while batch n is written
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache, pool: null, partitions: 2, maxBatch: 1, now: () => NOW });
    const first: RawArticle = {
      url: 'https://late.example/markets-rally', title: 'Markets rally as inflation cools', publisher: 'late', published_at: at(100),
      summary: 'Stocks rose across Europe and Asia after new figures showed inflation slowing for a third month.',
    };
    await ingest.ingest([
      first,
      // republished with a new date and headline: still one article
      { ...first, title: 'Markets rally as inflation cools (updated)', published_at: at(101) },
      { ...first, title: 'Markets rally as inflation cools (updated again)', published_at: at(102) },
    ]);
    await ingest.drain();
    const r = (await rows()).filter((x) => x.url === first.url);
    expect(r).toHaveLength(1);
    expect(r[0]!.title).toBe('Markets rally as inflation cools (updated again)');
  });

  it('a stalled feed cache holds back announcements, not the transactions; they follow once it answers', async () => {
    await ingest.stop();
    await system.shutdown();
    system = new ActorSystem();
    // a cache whose writes wait for a gate: the story sets are written only after it opens
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const stalled = new Proxy(cache, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'mset' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        return async (...args: unknown[]) => {
          await gate;
          return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache: stalled, pool: null, partitions: 2, maxBatch: 1, now: () => NOW });
    const urls = ['https://late.example/harbour-bridge-closes', 'https://late.example/ferry-strike-ends'];
    await ingest.ingest([
      { url: urls[0]!, title: 'Harbour bridge closes for repairs in Sydney', publisher: 'late', published_at: at(110), summary: 'The bridge will be shut for two weekends while engineers replace expansion joints.' },
      { url: urls[1]!, title: 'Ferry strike ends in Wellington after pay deal', publisher: 'late', published_at: at(111), summary: 'Ferry crews in Wellington voted to accept a new pay offer, ending a week of cancellations.' },
    ]);
    const stored = async () => (await rows()).filter((x) => urls.includes(x.url));
    for (let i = 0; i < 200 && (await stored()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    const written = await stored();
    expect(written).toHaveLength(2);
    expect(await cache.get(storyKey(written[1]!.story_id))).toBeNull();
    open();
    await ingest.drain();
    for (const r of written) expect(await cache.get(storyKey(r.story_id))).not.toBeNull();
  });

  it('rejects bad raw articles with a reason and keeps the rest', async () => {
    await ingest.ingest([
      { url: 'javascript:alert(1)', title: 'x', publisher: 'late', published_at: at(1) },
      { url: 'https://late.example/ok', title: '', publisher: 'late', published_at: at(1) },
      { url: 'https://late.example/fine', title: 'Parliament passes budget after long debate', publisher: 'late', published_at: 'not a date' },
    ]);
    await ingest.drain();
    const r = await rows();
    expect(r.map((x) => x.url)).toContain('https://late.example/fine');
    expect(r.map((x) => x.url)).not.toContain('https://late.example/ok');
  });
});
