import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAcceleration } from '../../src/actors/breaking/acceleration.js';
import { coverageCandidates, recentArticles } from '../../src/actors/store/breaking.js';
import { addPublishers, listPublishers } from '../../src/actors/store/publishers.js';
import { databases, type TestDb } from '../helpers/db.js';

const HOUR = 3_600_000;

/**
 * The SQL behind accelerated polling (issue 23 item 3), on PostgreSQL and PGlite: the publishers
 * that covered a region or topic in the last day, whatever their tier, with their feed's health;
 * the articles a starting detector counts again; and `accelerated_until` in the admin list.
 */
describe.each(databases)('breaking coverage on %s', (_name, open) => {
  let db: TestDb;
  const now = Date.now();

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, [
      { id: 'nz-herald', name: 'NZ Herald', feed_url: 'https://nz.example/feed', tier: 3 },
      { id: 'world-desk', name: 'World Desk', feed_url: 'https://world.example/feed', tier: 2 },
      { id: 'both', name: 'Both', feed_url: 'https://both.example/feed', tier: 2 },
      { id: 'sports-only', name: 'Sports', feed_url: 'https://sports.example/feed', tier: 1 },
      { id: 'stale', name: 'Stale', feed_url: 'https://stale.example/feed', tier: 1 },
      { id: 'broken', name: 'Broken', feed_url: 'https://broken.example/feed', tier: 2 },
    ]);
    await db.sql.query(`UPDATE publishers SET circuit = 'open', circuit_reason = 'HTTP_503: down' WHERE id = 'broken'`);
    const rows: [string, string, string, string, number][] = [
      // id, publisher, region, category, hours ago
      ['a1', 'nz-herald', 'apac', 'business', 2],
      ['a2', 'nz-herald', 'apac', 'sports', 5],
      ['a3', 'world-desk', 'eu', 'world', 3],
      ['a4', 'both', 'apac', 'world', 1],
      ['a5', 'sports-only', 'us', 'sports', 1],
      ['a6', 'stale', 'apac', 'world', 30],
      ['a7', 'broken', 'apac', 'world', 1],
    ];
    for (const [id, pub, region, category, ago] of rows) {
      const at = new Date(now - ago * HOUR).toISOString();
      await db.sql.query(
        `INSERT INTO articles (id, url, url_hash, title, publisher_id, published_at, ingested_at, category, region, story_id)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9)`,
        [id, `https://x.example/${id}`, `uh-${id}`, `Title ${id}`, pub, at, category, region, `s-${id}`],
      );
    }
  }, 60_000);

  afterAll(async () => {
    await db?.cleanup();
  });

  it('finds the publishers of the region or topic in the last day, whatever their tier', async () => {
    const list = await coverageCandidates(db.sql, ['apac'], 'world', now - 24 * HOUR);
    const byId = new Map(list.map((c) => [c.id, c]));
    expect([...byId.keys()].sort()).toEqual(['both', 'broken', 'nz-herald', 'world-desk']);
    expect(byId.get('nz-herald')).toMatchObject({ regionArticles: 2, topicArticles: 0, circuit: 'closed' });
    expect(byId.get('world-desk')).toMatchObject({ regionArticles: 0, topicArticles: 1 });
    expect(byId.get('both')).toMatchObject({ regionArticles: 1, topicArticles: 1, feedUrl: 'https://both.example/feed' });
    expect(byId.get('broken')).toMatchObject({ circuit: 'open', lastError: 'HTTP_503: down' });
    // the policy picks among them: both first, the broken feed left slowed
    expect(planAcceleration(list, now).map((o) => o.id)).toEqual(['both', 'nz-herald', 'world-desk']);
    expect(await coverageCandidates(db.sql, [], null, now - 24 * HOUR)).toEqual([]);
  });

  it('lists the recent articles newest first for a detector that starts', async () => {
    const recent = await recentArticles(db.sql, now - 2.5 * HOUR, 10);
    expect(recent.map((a) => a.id).sort()).toEqual(['a1', 'a4', 'a5', 'a7']);
    for (let i = 1; i < recent.length; i++) expect(recent[i]!.ingested_at).toBeLessThanOrEqual(recent[i - 1]!.ingested_at);
    expect(await recentArticles(db.sql, now - 2.5 * HOUR, 2)).toHaveLength(2);
  });

  it('shows accelerated_until in the admin list while it lies ahead, null otherwise', async () => {
    const until = now + 30 * 60_000;
    await db.sql.query(`UPDATE publishers SET state = jsonb_build_object('accelUntil', $2::float8) WHERE id = $1`, ['nz-herald', until]);
    await db.sql.query(`UPDATE publishers SET state = jsonb_build_object('accelUntil', $2::float8) WHERE id = $1`, ['stale', now - 60_000]);
    const rows = new Map((await listPublishers(db.sql, { limit: 100 })).map((r) => [r.id, r]));
    expect(rows.get('nz-herald')!.accelerated_until).toBe(new Date(Math.floor(until / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(rows.get('stale')!.accelerated_until).toBeNull();
    expect(rows.get('both')!.accelerated_until).toBeNull();
  });
});
