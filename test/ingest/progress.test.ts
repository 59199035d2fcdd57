import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest, type IngestService } from '../../src/actors/ingest/service.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stalled = (s: IngestService): boolean => {
  try {
    s.checkProgress();
    return false;
  } catch {
    return true;
  }
};

/** Readiness follows progress: articles waiting while nothing gets stored make the ingest check fail. */
describe('ingest progress check', () => {
  let db: TestDb;
  let system: ActorSystem;
  let ingest: IngestService;
  let locker: pg.Client;

  beforeAll(async () => {
    db = await scratchPostgres();
    await addPublishers(db.sql, [{ id: 'p', name: 'P', feed_url: 'https://p.example/feed' }]);
    system = new ActorSystem();
    ingest = await startIngest({ system, sql: db.sql, databaseUrl: db.url, cache: new MemoryCache(), pool: null, partitions: 1, stallMs: 1_000 });
    locker = new pg.Client({ connectionString: db.url! });
    await locker.connect();
  }, 120_000);
  afterAll(async () => {
    await locker?.end().catch(() => {});
    await ingest?.stop(1_000);
    await system?.shutdown();
    await db?.cleanup();
  });

  it('is fine while idle, fails while work waits on a stuck database, and recovers once it moves', async () => {
    expect(stalled(ingest)).toBe(false);
    // another session holds the articles table: every write waits behind it
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE articles IN ACCESS EXCLUSIVE MODE');
    const stored = ingest.ingest([{ url: 'https://p.example/a', title: 'Council approves the new harbour plan', publisher: 'p', published_at: new Date().toISOString() }]);
    await until('the ingest check to fail', () => stalled(ingest));
    expect(() => ingest.checkProgress()).toThrow(/stored nothing for \d+ s with 1 articles waiting/);
    await locker.query('ROLLBACK');
    await stored;
    expect(stalled(ingest)).toBe(false);
    const { rows } = await db.sql.query('SELECT 1 FROM articles');
    expect(rows).toHaveLength(1);
  });
});
