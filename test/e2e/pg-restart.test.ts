import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';
import { newPublisher, toStored } from '../../src/actors/publisher/state.js';
import { newsMigrations } from '../../src/actors/store/migrations.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { migrate } from '../../src/runtime/migrate.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';
import { FeedFarm } from '../helpers/feed-farm.js';
import { hasPostgresBinaries, privatePostgres, type PrivatePostgres } from '../helpers/private-services.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const HOSTS = 8;
const FEEDS_PER_HOST = 5;
const ITEMS = 60;
const TOTAL = HOSTS * FEEDS_PER_HOST * ITEMS;

/** The CLI in its own process, as an operator runs it. */
function startNode(args: string[]): { child: ChildProcess; url: Promise<string>; exited: Promise<number | null>; stderr: () => string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEWSAGG_')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`node exited (${code}) before listening: ${err.slice(-2000)}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, exited, stderr: () => err };
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number, everyMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * PostgreSQL stopped with a fast shutdown (every session terminated with 57P01, the node's
 * transactions among them) and started again while a node writes batches: the node stays up,
 * answers 503 and reports the database in /readyz meanwhile, retries its batches, and in the
 * end every article is stored once with exact story counts. A private cluster: the shared
 * server is never stopped.
 */
describe.skipIf(!hasPostgresBinaries)('PostgreSQL fast shutdown and restart while a node writes', { timeout: 600_000 }, () => {
  let farm: FeedFarm;
  let pg: PrivatePostgres;
  let sql: Sql;
  let dir: string;
  let args: string[];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS, seed: 'pg-restart' }).start();
    const now = Date.now();
    for (const f of farm.feeds) farm.publish(f, ITEMS, now - 60_000);
    pg = await privatePostgres();
    sql = await openSql({ databaseUrl: pg.url, dataDir: tmpdir() });
    await migrate(sql, newsMigrations);
    await addPublishers(sql, farm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    // every publisher owed a poll soon after start (as after a stop with articles unacknowledged)
    const store = new SqlPublisherStore(sql, Date.now, Math.random);
    for (let i = 0; i < farm.feeds.length; i++) {
      const p = newPublisher(`farm-${i}`, { url: farm.feeds[i]!.url, name: `Farm ${farm.feeds[i]!.name}` }, now, Math.random);
      p.nextPollAt = now + 15 * 60_000;
      p.unackedSince = now;
      await store.save(toStored(p));
    }
    dir = mkdtempSync(join(tmpdir(), 'newsagg-pgrestart-'));
    args = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', pg.url, '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn',
      '--rate-limit-rps', '1000', '--rate-limit-burst', '1000'];
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await farm?.close();
    await sql?.close().catch(() => undefined);
    await pg?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stored = async () => (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n;

  it('stays up, answers 503 while the database is away, retries its batches, and stores everything once', async () => {
    const node = startNode(args);
    children.push(node.child);
    const url = await node.url;
    let exitedEarly: number | null | undefined;
    void node.exited.then((code) => (exitedEarly = code));
    const atStop = await until('ingest to be under way', async () => {
      const n = await stored();
      return n >= TOTAL * 0.05 ? n : null;
    }, 240_000, 50);
    expect(atStop).toBeLessThan(TOTAL);

    // the node's sessions terminated in the middle of their transactions (57P01, as a fast
    // shutdown sends them), including between two statements of a batch's transaction
    let terminated = 0;
    await until('transactions terminated', async () => {
      if (exitedEarly !== undefined) return true;
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start IS NOT NULL`,
      );
      terminated += rows[0]!.n;
      return terminated >= 10 ? true : null;
    }, 120_000, 5);
    await new Promise((r) => setTimeout(r, 500));
    expect(exitedEarly, node.stderr().slice(-1500)).toBeUndefined();

    // then a fast shutdown: every session terminated, new connections refused until it starts again
    await pg.stop();
    const ready = await until('/readyz to report the database', async () => {
      const r = await fetch(`${url}/readyz`);
      const body = (await r.json()) as { failed?: string[] };
      return r.status === 503 && body.failed?.includes('sql') ? body : null;
    }, 30_000);
    expect(ready.failed).toContain('sql');
    for (const path of ['/v1/stories/s-none', '/v1/search?q=harbour', '/v1/articles/a-none']) {
      const r = await fetch(`${url}${path}`);
      expect(r.status, path).toBe(503);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // batches keep failing for a while (the writer and the ingest log retry them)
    await new Promise((r) => setTimeout(r, 3_000));
    expect(exitedEarly).toBeUndefined();

    await pg.start();
    await sql.query('SELECT 1').catch(() => undefined);
    await until('every published article to be stored', async () => ((await stored()) >= TOTAL ? true : null), 300_000, 500);
    expect(exitedEarly).toBeUndefined();
    await until('/readyz ready again', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : null), 60_000);

    const { rows } = await sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles');
    expect(rows[0]).toEqual({ n: TOTAL, urls: TOTAL });
    const urls = new Set((await sql.query<{ url: string }>('SELECT url FROM articles')).rows.map((r) => r.url));
    expect([...farm.published].filter((u) => !urls.has(u))).toEqual([]);
    const drift = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stories s
        WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)
           OR s.publisher_count <> (SELECT count(DISTINCT publisher_id) FROM articles a WHERE a.story_id = s.id)`,
    );
    expect(drift.rows[0]!.n).toBe(0);
    const orphans = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles a WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = a.story_id)');
    expect(orphans.rows[0]!.n).toBe(0);
    expect((await sql.query('SELECT 1 FROM rejected_articles')).rows).toHaveLength(0);

    node.child.kill('SIGTERM');
    expect(await node.exited, node.stderr()).toBe(0);
    expect(node.stderr()).not.toMatch(/uncaught exception/);
  });
});
