import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';
import { newPublisher, toStored } from '../../src/actors/publisher/state.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm } from '../helpers/feed-farm.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const HOSTS = 24;
const FEEDS_PER_HOST = 5;
const ITEMS = 100;
const TOTAL = HOSTS * FEEDS_PER_HOST * ITEMS;

/** A node as an operator runs it: the CLI in its own process, killed with SIGKILL when the test says. */
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
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * kill -9 in the middle of ingest, with fixed feeds that honour ETag (so a publisher whose
 * validators moved on too early would never see its articles again): after a restart every
 * article is stored exactly once, and every story's counts equal its rows.
 */
describe('kill -9 during ingest', { timeout: 600_000 }, () => {
  let farm: FeedFarm;
  let db: TestDb;
  let dir: string;
  let args: string[];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS, seed: 'crash' }).start();
    const now = Date.now();
    for (const f of farm.feeds) farm.publish(f, ITEMS, now - 60_000);
    db = await scratchPostgres();
    await addPublishers(db.sql, farm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    // every publisher as a node leaves it when it stops before its articles were acknowledged:
    // owed a poll within 30 s of the next start, however long that start takes (a publisher added
    // as usual waits up to its tier interval for its first poll)
    const store = new SqlPublisherStore(db.sql, Date.now, Math.random);
    for (let i = 0; i < farm.feeds.length; i++) {
      const p = newPublisher(`farm-${i}`, { url: farm.feeds[i]!.url, name: `Farm ${farm.feeds[i]!.name}` }, now, Math.random);
      p.nextPollAt = now + 15 * 60_000;
      p.unackedSince = now;
      await store.save(toStored(p));
    }
    dir = mkdtempSync(join(tmpdir(), 'newsagg-crash-'));
    args = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn'];
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await farm?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stored = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n;

  it('loses nothing, stores nothing twice, and keeps story counts exact', async () => {
    const first = startNode(args);
    children.push(first.child);
    await first.url;
    const atKill = await until('ingest to be under way', async () => {
      const n = await stored();
      return n >= TOTAL * 0.15 ? n : null;
    }, 240_000, 100);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(atKill).toBeLessThan(TOTAL);

    const second = startNode(args);
    children.push(second.child);
    await second.url;
    // the publishers whose articles were not acknowledged poll again within 30 s of the restart
    await until('every published article to be stored', async () => ((await stored()) >= TOTAL ? true : null), 240_000, 500);

    const { rows } = await db.sql.query<{ n: number; urls: number; hashes: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls, count(DISTINCT url_hash)::int AS hashes FROM articles',
    );
    expect(rows[0]).toEqual({ n: TOTAL, urls: TOTAL, hashes: TOTAL });
    const urls = new Set((await db.sql.query<{ url: string }>('SELECT url FROM articles')).rows.map((r) => r.url));
    expect([...farm.published].filter((u) => !urls.has(u))).toEqual([]);
    const drift = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stories s
        WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)
           OR s.publisher_count <> (SELECT count(DISTINCT publisher_id) FROM articles a WHERE a.story_id = s.id)`,
    );
    expect(drift.rows[0]!.n).toBe(0);
    const orphans = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles a WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = a.story_id)');
    expect(orphans.rows[0]!.n).toBe(0);
    expect((await db.sql.query('SELECT 1 FROM rejected_articles')).rows).toHaveLength(0);

    second.child.kill('SIGTERM');
    expect(await second.exited, second.stderr()).toBe(0);
  });
});
