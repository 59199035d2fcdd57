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
import { OwnNatsServer } from '../helpers/nats.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const HOSTS = 16;
const FEEDS_PER_HOST = 5;
const ITEMS = 100;
const TOTAL = HOSTS * FEEDS_PER_HOST * ITEMS;

interface Line {
  msg?: string;
  [k: string]: unknown;
}

/** The CLI in its own process, as an operator runs it; its JSON log lines kept. */
function startNode(args: string[]): { child: ChildProcess; url: Promise<string>; exited: Promise<number | null>; lines: () => Line[]; stderr: () => string } {
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
  // (the log is JSON lines on stderr)
  const lines = () => err.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
  return { child, url, exited, lines, stderr: () => err };
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
 * SIGTERM in the middle of ingest on a node of a cluster (the JetStream ingest log): it stops
 * within its shutdown budget and exits 0, having logged each step of the shutdown; what it had
 * not stored goes back to the log, and the node started again stores every article once. (The
 * shards the batches in hand need used to be handed over first: those batches then waited for an
 * owner until the budget ran out, and the node exited 1.)
 */
describe('SIGTERM during ingest', { timeout: 600_000 }, () => {
  let farm: FeedFarm;
  let db: TestDb;
  let nats: OwnNatsServer;
  let dir: string;
  let args: string[];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: HOSTS, feedsPerHost: FEEDS_PER_HOST, keep: ITEMS, seed: 'sigterm' }).start();
    const now = Date.now();
    for (const f of farm.feeds) farm.publish(f, ITEMS, now - 60_000);
    db = await scratchPostgres();
    nats = await OwnNatsServer.start();
    await addPublishers(db.sql, farm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    // every publisher owed a poll soon after start
    const store = new SqlPublisherStore(db.sql, Date.now, Math.random);
    for (let i = 0; i < farm.feeds.length; i++) {
      const p = newPublisher(`farm-${i}`, { url: farm.feeds[i]!.url, name: `Farm ${farm.feeds[i]!.name}` }, now, Math.random);
      p.nextPollAt = now + 15 * 60_000;
      p.unackedSince = now;
      await store.save(toStored(p));
    }
    dir = mkdtempSync(join(tmpdir(), 'newsagg-sigterm-'));
    args = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', nats.url, '--node-id', 'sigterm-node',
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'info'];
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await farm?.close();
    await nats?.stop();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stored = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles')).rows[0]!.n;

  it('exits 0 within its budget, and the node started again stores everything once', async () => {
    const first = startNode(args);
    children.push(first.child);
    await first.url;
    const atStop = await until('ingest to be under way', async () => {
      const n = await stored();
      return n >= TOTAL * 0.1 ? n : null;
    }, 240_000, 50);
    expect(atStop).toBeLessThan(TOTAL);

    first.child.kill('SIGTERM');
    expect(await first.exited, first.stderr()).toBe(0);
    expect(first.stderr()).not.toMatch(/did not finish in time/);
    expect(first.lines().at(-1)?.msg).toBe('stopped');
    // each step of the shutdown said how long it took
    const steps = first.lines().filter((l) => l.msg === 'shutdown step done').map((l) => l['step']);
    expect(steps).toEqual(expect.arrayContaining(['http intake', 'components', 'actors', 'database']));
    expect(first.lines().some((l) => l.msg === 'ingest stopped consuming')).toBe(true);
    expect(await stored()).toBeLessThan(TOTAL);

    const second = startNode(args);
    children.push(second.child);
    await second.url;
    await until('every published article to be stored', async () => ((await stored()) >= TOTAL ? true : null), 300_000, 500);
    const { rows } = await db.sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles');
    expect(rows[0]).toEqual({ n: TOTAL, urls: TOTAL });
    const urls = new Set((await db.sql.query<{ url: string }>('SELECT url FROM articles')).rows.map((r) => r.url));
    expect([...farm.published].filter((u) => !urls.has(u))).toEqual([]);
    const drift = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stories s WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)`,
    );
    expect(drift.rows[0]!.n).toBe(0);

    second.child.kill('SIGTERM');
    expect(await second.exited, second.stderr()).toBe(0);
  });
});
