import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';
import type { RawArticle } from '../../src/actors/ingest/types.js';
import { openIngestLog } from '../../src/roles/ingest-log.js';
import { silentLogger } from '../../src/runtime/log.js';
import { connectNats } from '../../src/runtime/nats-connect.js';
import { ARTICLE_COLUMNS, copyRows } from '../../bench/fixtures/copy-rows.js';
import { syntheticNews, type SyntheticArticle } from '../../bench/fixtures/synthetic-news.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { ownedShards, startNode, TOKEN, until, type RunningNode } from '../helpers/cluster-nodes.js';
import { OwnNatsServer } from '../helpers/nats.js';

const H = 3_600_000;
const ARTICLES = 50_000;
const EVENTS = 5_000;
const FRESH = 300;

/**
 * Issue 20, item 1: a node taking over the story shard with a window of 50,000 articles
 * (bulk-loaded with COPY) builds it in a worker thread, first by replaying the whole window
 * (no snapshot yet), then, after a kill -9 of that owner, from the snapshot it left and the
 * articles stored since. Neither loses a lease meanwhile (its heartbeats and renewals are not
 * late: no `lease lapsed`, the story shard acquired once, still owned afterwards), and the
 * survivor files new articles of the window's events into their stories.
 */
describe('story shard takeover with a large window', { timeout: 900_000 }, () => {
  let db: TestDb;
  let nats: OwnNatsServer;
  const dirs: string[] = [];
  const nodes: RunningNode[] = [];
  const end = Date.now() - 10 * 60_000;
  const gen = (n: number) => syntheticNews({ articles: n, events: EVENTS, spanMs: 40 * H, end, seed: 23, idPrefix: 'to' });

  const args = (): string[] => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-takeover-'));
    dirs.push(dir);
    return ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--nats-url', nats.url, '--workers', '1', '--log-level', 'info', '--admin-token', TOKEN];
  };
  /** log lines of a node since an offset of its stderr */
  const lines = (n: RunningNode, from = 0) => n.stderr().slice(from).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; kind?: string });
  const ready = (n: RunningNode, from = 0) => lines(n, from).some((l) => l.msg === 'shard ready' && l.kind === 'story');
  const acquisitions = (n: RunningNode, from = 0) => lines(n, from).filter((l) => l.msg === 'shard acquired' && l.kind === 'story').length;
  const lapsed = (n: RunningNode, from = 0) => lines(n, from).filter((l) => l.msg?.startsWith('lease lapsed')).length;

  beforeAll(async () => {
    db = await scratchPostgres();
    nats = await OwnNatsServer.start({ jetstream: true });
    for (const t of [end - 48 * H, end, end + 24 * H]) await db.sql.query('SELECT ensure_articles_partition($1)', [new Date(t).toISOString()]);
    const later = new Date(Date.now() + 7 * 24 * H).toISOString();
    await copyRows(db.url!, 'publishers', ['id', 'name', 'feed_url', 'country', 'next_poll_at'], Array.from({ length: 5000 }, (_, i) => [`p${i}`, `Publisher ${i}`, `https://p${i}.invalid/feed.xml`, 'GB', later]));
    let i = 0;
    const loaded = await copyRows(db.url!, 'articles', ARTICLE_COLUMNS, (function* () {
      for (const a of gen(ARTICLES)) {
        const ingested = Math.max(a.published_at, end - 40 * H + Math.floor((40 * H * i++) / ARTICLES));
        // stored as the pipeline stores them: with what enrichment found in them
        const e = enrich({ ...a, published_at: new Date(a.published_at).toISOString() });
        yield [a.id, a.url, `h${a.id}`, a.title, a.summary, a.publisher, new Date(a.published_at).toISOString(), new Date(ingested).toISOString(), e.category, 'en', `st_e${a.event}`, JSON.stringify(e.entities), JSON.stringify(e.places)];
      }
    })());
    expect(loaded).toBe(ARTICLES);
    await db.sql.query('ANALYZE articles');
  }, 300_000);

  afterAll(async () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await nats?.stop();
    await db?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps its leases while it builds the shard, from the window and from a snapshot, and files new articles into their stories', async () => {
    // the first owner: no snapshot yet, the whole window replayed in the story worker
    const first = await startNode('to-1', args());
    nodes.push(first);
    await until('the first owner has built the story shard', () => ready(first), 600_000, 500);
    // it keeps the shard it built (a lapsed lease would have sent it elsewhere, or round again)
    expect(lapsed(first)).toBe(0);
    expect(acquisitions(first)).toBe(1);
    expect(await ownedShards(first, 'story')).toBe(1);
    // and leaves a snapshot for its successor
    await until('a snapshot of the story shard', async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM story_snapshots WHERE complete')).rows[0]!.n > 0, 300_000, 500);
    const snap = (await db.sql.query<{ stories: number; articles: number }>('SELECT stories, articles FROM story_snapshots WHERE complete ORDER BY id DESC LIMIT 1')).rows[0]!;
    expect(snap.articles).toBe(ARTICLES);

    // a second node joins; the story owner dies
    const second = await startNode('to-2', args());
    nodes.push(second);
    await until('the second node ready', async () => (await fetch(`${second.url}/readyz`).catch(() => null))?.ok ?? false, 180_000, 500);
    // (the story shard may move to it: whichever owns it then is killed)
    await new Promise((r) => setTimeout(r, 10_000));
    const owner = (await ownedShards(first, 'story')) === 1 ? first : second;
    const survivor = owner === first ? second : first;
    await until('the story owner ready', () => ready(owner), 600_000, 500);
    const mark = survivor.stderr().length;
    owner.child.kill('SIGKILL');
    await owner.exited;
    await until('the survivor has built the story shard', () => ready(survivor, mark), 600_000, 500);
    expect(lapsed(survivor, mark)).toBe(0);
    expect(acquisitions(survivor, mark)).toBe(1);

    // new articles of the window's events reach their stories
    const fresh: SyntheticArticle[] = [];
    let n = 0;
    // the generator goes on where the loaded window ended
    for (const a of gen(ARTICLES + FRESH)) if (n++ >= ARTICLES) fresh.push(a);
    const link = await connectNats({ url: nats.url });
    const log = await openIngestLog(link, { log: silentLogger });
    const raw = (a: SyntheticArticle): RawArticle => ({ id: a.id, url: a.url, title: a.title, summary: a.summary, publisher: a.publisher, published_at: new Date(a.published_at).toISOString() });
    for (let k = 0; k < fresh.length; k += 30) await log.append(fresh.slice(k, k + 30).map(raw));
    await log.close();
    await link.close();
    const urls = fresh.map((a) => a.url);
    await until('the new articles stored', async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE url = ANY($1)', [urls])).rows[0]!.n >= FRESH, 300_000, 500);
    const rows = (await db.sql.query<{ url: string; story_id: string }>('SELECT url, story_id FROM articles WHERE url = ANY($1)', [urls])).rows;
    const want = new Map(fresh.map((a) => [a.url, `st_e${a.event}`]));
    const right = rows.filter((r) => r.story_id === want.get(r.url)).length;
    expect(rows).toHaveLength(FRESH);
    expect(right / FRESH).toBeGreaterThanOrEqual(0.8);

    // the survivor still holds the story and dedup shards, and never lost a lease
    expect(await ownedShards(survivor, 'story')).toBe(1);
    expect(await ownedShards(survivor, 'dedup')).toBe(1);
    expect(lapsed(survivor, mark)).toBe(0);
    expect(acquisitions(survivor, mark)).toBe(1);
  });
});
