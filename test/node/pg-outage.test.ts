import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BufferedPublisherStore } from '../../src/actors/publisher/buffered-store.js';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';
import { addPublishers, getPublishers } from '../../src/actors/store/publishers.js';
import { newsMigrations } from '../../src/actors/store/migrations.js';
import { resolveConfig } from '../../src/config.js';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { migrate } from '../../src/runtime/migrate.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';
import { hasPostgresBinaries, privatePostgres, type PrivatePostgres } from '../helpers/private-services.js';
import { seedStories } from '../helpers/seed.js';
import { seedCoverage, stories } from '../api/fixtures.js';

/**
 * PostgreSQL stopped and started again under a running node (a private cluster: the shared one is
 * never touched). Requests that need the database answer 503 with Retry-After while it is away,
 * the log says so once when it goes and once when it is back, and everything works again after.
 */

const ADMIN = 'outage-admin-token-0123456789';

interface Line {
  level: number;
  msg: string;
  [k: string]: unknown;
}

function capture(): { log: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Line);
      cb();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!hasPostgresBinaries)('PostgreSQL stopped and restarted under a running node', { timeout: 180_000 }, () => {
  let pg: PrivatePostgres;
  let node: Node;
  let dir: string;
  const { log, lines } = capture();

  const get = async (path: string, auth = false) => {
    const r = await fetch(`${node.url}${path}`, { redirect: 'manual', headers: auth ? { authorization: `Bearer ${ADMIN}` } : {} });
    const text = await r.text();
    return { status: r.status, retryAfter: r.headers.get('retry-after'), text };
  };
  const routes: [string, boolean][] = [
    ['/v1/stories/c0001', false],
    ['/v1/articles/a-c0001', false],
    ['/v1/search?q=comet', false],
    ['/r/a-c0001', false],
    ['/v1/publishers', true],
    ['/v1/feed?category=science&limit=5', false],
  ];

  beforeAll(async () => {
    pg = await privatePostgres();
    const sql = await openSql({ databaseUrl: pg.url, dataDir: tmpdir() });
    await migrate(sql, newsMigrations);
    await seedStories(sql, new MemoryCache(), stories(30, 's', 0));
    await seedCoverage(sql, new MemoryCache(), 'c0001', 40);
    await sql.close();
    dir = mkdtempSync(join(tmpdir(), 'newsagg-outage-'));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', pg.url, '--admin-token', ADMIN, '--rate-limit-rps', '1000', '--rate-limit-burst', '1000'], {});
    node = await startNode(config, { log, components: [apiComponent()] });
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    await pg?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is away, logs the outage once each way, and recovers', async () => {
    for (const [path, auth] of routes) expect((await get(path, auth)).status, path).toBeLessThan(400);
    const before = lines.length;

    // requests in flight while the database shuts down: each one answers, none with a 500
    const storm = Promise.all(
      Array.from({ length: 30 }, (_, i) => new Promise((r) => setTimeout(r, i * 20)).then(() => get(routes[i % 5]![0], routes[i % 5]![1]))),
    );
    await pg.stop();
    for (const r of await storm) expect([200, 302, 503], r.text).toContain(r.status);

    // (a search page seen before may be served from the search page cache: ask a new one)
    for (const [path, auth] of [...routes.slice(0, 5), ['/v1/search?q=landing', false] as [string, boolean]].filter(([p]) => p !== '/v1/search?q=comet')) {
      const r = await get(path, auth);
      expect(r.status, `${path}: ${r.text}`).toBe(503);
      expect(JSON.parse(r.text)).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text).failed).toEqual(['sql']);
    // the feed keeps answering from the cache
    expect((await get('/v1/feed?category=science&limit=5')).status).toBe(200);
    // a message that dies meanwhile is kept as a dead letter, written once the database is back
    node.system.register(defineBehaviour<null, { type: 'boom' }>({
      kind: 'doomed',
      init: () => null,
      receive: () => {
        throw new Error('always fails');
      },
      supervision: { maxAttempts: 1, backoffMinMs: 1, backoffMaxMs: 2 },
    }));
    node.system.send('doomed/1', { type: 'boom' });
    await until('the dead letter', async () => node.system.deadLetters.total > 0);

    await pg.start();
    await until('the database answering again', async () => (await get('/v1/stories/c0001')).status === 200);
    for (const [path, auth] of routes) expect((await get(path, auth)).status, path).toBeLessThan(400);
    expect((await get('/readyz')).status).toBe(200);
    await until('the dead letter written', async () => (await node.sql.query('SELECT 1 FROM dead_letters WHERE address = $1', ['doomed/1'])).rows.length === 1);

    const during = lines.slice(before);
    // (the doomed actor's own failure is a real one, and says so)
    const warnOrWorse = during.filter((l) => l.level >= 40 && l['actor'] !== 'doomed/1');
    expect(warnOrWorse.map((l) => `${l.msg} ${String(l.err ?? '')}`)).toEqual([expect.stringMatching(/^PostgreSQL at .* unavailable/)]);
    expect(during.filter((l) => /available again$/.test(l.msg))).toHaveLength(1);
    expect(during.some((l) => 'stack' in l)).toBe(false);
  });
});

describe.skipIf(!hasPostgresBinaries)('publisher states through a database outage', { timeout: 120_000 }, () => {
  let pg: PrivatePostgres;
  let sql: Sql;

  beforeAll(async () => {
    pg = await privatePostgres();
    sql = await openSql({ databaseUrl: pg.url, dataDir: tmpdir() });
    await migrate(sql, newsMigrations);
    await addPublishers(sql, [{ id: 'pub_a', name: 'A', feed_url: 'https://a.example/feed' }, { id: 'pub_b', name: 'B', feed_url: 'https://b.example/feed' }]);
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await pg?.destroy();
  });

  it('keeps the latest state of each publisher while the database is away and writes it when it is back', async () => {
    const inner = new SqlPublisherStore(sql, Date.now, () => 0.5);
    const store = new BufferedPublisherStore(inner, { retryMs: 200 });
    const a = (await store.load('pub_a'))!;
    const b = (await store.load('pub_b'))!;
    await store.save({ ...a, polls: 1 });
    expect(store.waiting).toBe(0);

    await pg.stop();
    // the actor goes on: saves resolve, the newest state per publisher is kept
    await store.save({ ...a, polls: 2 });
    await store.save({ ...a, polls: 3, etag: '"v3"' });
    await store.save({ ...b, polls: 7 });
    expect(store.waiting).toBe(2);
    expect((await store.load('pub_a'))!.polls).toBe(3);
    await expect(inner.load('pub_a')).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });

    await pg.start();
    await until('kept states written', async () => store.waiting === 0);
    const rows = new Map((await getPublishers(sql, ['pub_a', 'pub_b'])).map((r) => [r.id, r]));
    expect(rows.get('pub_a')!.fetch_count).toBe(3);
    expect(rows.get('pub_b')!.fetch_count).toBe(7);
    expect((await inner.load('pub_a'))!.etag).toBe('"v3"');
  });
});
