import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';
import { newsMigrations } from '../../src/actors/store/migrations.js';
import { addPublishers, getPublishers } from '../../src/actors/store/publishers.js';
import { SqlShardFences, type FenceToken } from '../../src/runtime/fence.js';
import { silentLogger } from '../../src/runtime/log.js';
import { migrate } from '../../src/runtime/migrate.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';
import { FeedServer } from './feed-server.js';
import { makeNode, seededRandom } from './harness.js';

/** Publisher state on real (embedded) Postgres: a restarted node resumes where it stopped. */
const MIN = 60_000;
const HOUR = 60 * MIN;

let dir: string;
let sql: Sql;
let server: FeedServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'newsagg-pubstore-'));
  sql = await openSql({ dataDir: dir });
  await migrate(sql, newsMigrations);
  server = await new FeedServer().start();
}, 120_000);
afterAll(async () => {
  await server.close();
  await sql?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SqlPublisherStore', () => {
  it('starts an imported publisher by itself, persists status columns, and resumes without re-emitting', { timeout: 120_000 }, async () => {
    server.add('s');
    const items = server.publish('s', 3, Date.UTC(2026, 5, 1));
    await addPublishers(sql, [{ id: 'pub_s', name: 'Stored Daily', feed_url: server.url('s', 's.sim.test'), country: 'IE', category: 'world' }]);

    let now = Date.UTC(2026, 5, 1);
    const n1 = makeNode({ start: now, store: new SqlPublisherStore(sql, () => n1.clock.now(), seededRandom) });
    const first = await n1.status('pub_s'); // spawned from the row alone, no configure message
    expect(first).toMatchObject({ url: server.url('s', 's.sim.test'), name: 'Stored Daily', polls: 0 });
    await n1.run(HOUR);
    expect(n1.emitted.map((a) => a.url).sort()).toEqual(items.map((i) => i.link).sort());
    expect(n1.emitted[0]).toMatchObject({ publisher: 'pub_s', publisher_country: 'IE', feed_category: 'world' });
    const before = await n1.status('pub_s');
    now = n1.clock.now();
    await n1.close();

    const [row] = await getPublishers(sql, ['pub_s']);
    expect(row).toMatchObject({ fetch_count: before.polls, not_modified_count: before.notModified, article_count: 3, failures: 0, circuit: 'closed' });
    expect(Date.parse(row!.next_poll_at!)).toBe(Math.floor(before.nextPollAt / 1000) * 1000);

    const f = server.feeds.get('s')!;
    f.mode = 'no-conditional'; // full bodies: only the persisted seen ring prevents re-emission
    const n2 = makeNode({ start: now + 5 * MIN, store: new SqlPublisherStore(sql, () => n2.clock.now(), seededRandom) });
    try {
      expect(await n2.status('pub_s')).toMatchObject({ polls: before.polls, tier: before.tier, newEntries: 3 });
      await n2.run(2 * HOUR);
      expect(n2.emitted).toHaveLength(0);
      f.mode = 'error';
      await n2.run(2 * HOUR);
      const [failing] = await getPublishers(sql, ['pub_s']);
      expect(failing!.failures).toBeGreaterThan(0);
      expect(failing!.circuit_reason).toMatch(/^FETCH_HTTP_ERROR/);
    } finally {
      await n2.close();
    }
  });

  it('in a cluster, does not write the state of a publisher whose shard moved on (a deposed owner\'s late save)', async () => {
    await addPublishers(sql, [{ id: 'pub_f', name: 'Fenced Daily', feed_url: 'https://fenced.example/feed' }]);
    const fences = new SqlShardFences(sql);
    const a: FenceToken = { key: 'b/publisher.3', gen: 1_000, rev: 11 };
    const b: FenceToken = { key: 'b/publisher.3', gen: 1_000, rev: 17 };
    const tokens: { a: FenceToken | null; b: FenceToken | null } = { a, b: null };
    const onA = new SqlPublisherStore(sql, () => 0, Math.random, undefined, { tokenOf: () => tokens.a, log: silentLogger });
    const onB = new SqlPublisherStore(sql, () => 0, Math.random, undefined, { tokenOf: () => tokens.b, log: silentLogger });
    const etag = async () => (await sql.query<{ etag: string | null }>("SELECT etag FROM publishers WHERE id = 'pub_f'")).rows[0]!.etag;
    const state = (await onA.load('pub_f'))!;
    await fences.raise(a);
    await onA.save({ ...state, etag: '"a1"' });
    expect(await etag()).toBe('"a1"');
    // B takes the shard over: raises the fence, loads, saves; A, paused meanwhile, saves late
    await fences.raise(b);
    tokens.b = b;
    await onB.save({ ...(await onB.load('pub_f'))!, etag: '"b1"' });
    await onA.save({ ...state, etag: '"a2"' });
    expect(await etag()).toBe('"b1"');
    // once A knows it lost the lease it has no token: nothing written either
    tokens.a = null;
    await onA.save({ ...state, etag: '"a3"' });
    expect(await etag()).toBe('"b1"');
  });

  it('loads nothing for an unknown id', async () => {
    const store = new SqlPublisherStore(sql, () => 0, Math.random);
    expect(await store.load('pub_missing')).toBeNull();
  });
});
