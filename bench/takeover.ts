/**
 * Takeover benchmark (`npm run bench -- takeover`): how long ingest stops when the node owning the
 * story (and dedup) shard dies with the seeds' volume in the window.
 *
 * Setup, bulk-loaded into a scratch PostgreSQL database with COPY (psql): ARTICLES synthetic
 * articles (default 2,000,000) of STORIES stories (default 200,000) published over the last 47 h,
 * with their fingerprints and story rows, and the story owner's snapshot as a previous owner would
 * have left it: every story built by the clusterer from its first article, the story's other
 * article ids attached (the restore's cost is the stories, the article ids and the vocabulary; a
 * full replay of 2 M articles to build it would take the bench half an hour), with its watermark
 * TAIL articles (default 7,000: five minutes at 2 M a day) before the end of the load, so those
 * are replayed by whoever takes over.
 *
 * Then node A starts alone (a fresh owner acquiring both shards: figures `fresh_*`), node B
 * joins, the node owning the story shard is killed with SIGKILL and the survivor takes over
 * (`kill9_*`). Meanwhile 30 articles a second (the seeds' 2 M a day) are appended to the ingest
 * log in batches of three; the first of each batch is a probe whose store time says when ingest
 * resumed (first probe stored after the kill) and when it was back at full speed (the first probe
 * appended after the kill that was stored within 2 s). The survivor's /metrics is read every
 * second: its longest event-loop delay and its RSS, while it takes over; its log says whether
 * it lost a lease (`lease lapsed`) or acquired the story shard more than once.
 *
 * The baseline, the replay the old code did on the node's thread: the clusterer's speed adding
 * stored articles (measured while the snapshot is built) times the window's articles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RawArticle } from '../src/actors/ingest/types.js';
import { newsMigrations } from '../src/actors/store/migrations.js';
import { saveStorySnapshot } from '../src/actors/store/story-snapshots.js';
import { StoryClusterer } from '../src/actors/stories/clusterer.js';
import { encodeSnapshot } from '../src/actors/stories/snapshot-codec.js';
import { openIngestLog } from '../src/roles/ingest-log.js';
import { silentLogger } from '../src/runtime/log.js';
import { migrate } from '../src/runtime/migrate.js';
import { connectNats, type NatsLink } from '../src/runtime/nats-connect.js';
import { openSql, type Sql } from '../src/runtime/sql.js';
import { copyRows } from './fixtures/copy-rows.js';
import { rng, syntheticNews, type SyntheticArticle } from './fixtures/synthetic-news.js';
import { freePort, scratch } from './fixtures/scratch-stores.js';

type Figures = Record<string, number | string | boolean>;
const env = process.env;
const ARTICLES = Number(env.NEWSAGG_BENCH_TAKEOVER_ARTICLES ?? 2_000_000);
const STORIES = Number(env.NEWSAGG_BENCH_TAKEOVER_STORIES ?? 200_000);
const TAIL = Number(env.NEWSAGG_BENCH_TAKEOVER_TAIL ?? 7_000);
const RATE = 30;
const TOKEN = 'bench-takeover-admin-token';
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const NATS_SERVER = '/usr/sbin/nats-server';
const H = 3_600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface NodeProc {
  id: string;
  proc: ChildProcess;
  url: Promise<string>;
  /** log events by message: when each was seen */
  events: { msg: string; at: number; kind?: string }[];
}

function startNodeProc(id: string, args: string[]): NodeProc {
  const proc = spawn(process.execPath, ['--import', 'tsx', CLI, 'start', '--node-id', id, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: NodeProc['events'] = [];
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      const m = /^newsagg listening on (\S+)$/.exec(l);
      if (m) resolve(m[1]!);
    });
    createInterface({ input: proc.stderr! }).on('line', (l) => {
      let o: { level?: number; msg?: string; kind?: string } = {};
      try {
        o = JSON.parse(l) as typeof o;
      } catch {
        // not a log line
      }
      if (o.msg) events.push({ msg: o.msg, at: Date.now(), ...(o.kind ? { kind: o.kind } : {}) });
      if ((o.level ?? 40) >= 40) process.stderr.write(`  [${id}] ${l.slice(0, 300)}\n`);
    });
    proc.once('exit', (code) => reject(new Error(`${id} exited with ${code} before listening`)));
  });
  return { id, proc, url, events };
}

async function stopNodeProc(n: NodeProc): Promise<void> {
  if (n.proc.exitCode !== null || n.proc.signalCode !== null) return;
  const done = new Promise((r) => n.proc.once('exit', r));
  n.proc.kill('SIGTERM');
  await Promise.race([done, sleep(30_000)]);
  if (n.proc.exitCode === null) n.proc.kill('SIGKILL');
}

async function portOpen(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs: number, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`takeover bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** a gauge of a node's /metrics (first series matching), or null */
async function metric(url: string, name: string, label = ''): Promise<number | null> {
  try {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(2_000) })).text();
    const m = new RegExp(`^${name}${label.replace(/[{}]/g, (c) => `\\${c}`)} ([0-9.e+-]+)`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export async function run(): Promise<Figures> {
  const s = await scratch('server', 'takeover');
  const natsPort = await freePort();
  const natsDir = mkdtempSync(join(tmpdir(), 'newsagg-bench-takeover-nats-'));
  const nats = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], { stdio: 'ignore' });
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  let sql: Sql | null = null;
  const nodes: NodeProc[] = [];
  let appending = true;
  let loop: Promise<void> = Promise.resolve();
  let link: NatsLink | null = null;
  const orphans = () => {
    for (const n of nodes) n.proc.kill('SIGKILL');
    nats.kill('SIGKILL');
  };
  process.once('exit', orphans);
  const out: Figures = { window_articles: ARTICLES, window_stories: STORIES, tail_articles: TAIL };
  try {
    await waitFor('nats-server', async () => ((await portOpen(natsPort)) ? true : null), 10_000, 50);
    sql = await openSql({ databaseUrl: s.databaseUrl!, dataDir: s.dataDir });
    await migrate(sql, newsMigrations);
    const now = Date.now();
    for (const t of [now - 48 * H, now, now + 24 * H]) await sql.query('SELECT ensure_articles_partition($1)', [new Date(t).toISOString()]);
    // the full-text index is no part of a takeover and would triple the load's time
    await sql.query('DROP INDEX IF EXISTS articles_search_idx');
    // one publisher row, its feed on a closed local port (the window's publishers need no rows: a
    // node would poll every one of them, thousands of feeds that never answer)
    await copyRows(s.databaseUrl!, 'publishers', ['id', 'name', 'feed_url', 'country'], [['p0', 'Publisher 0', 'http://127.0.0.1:9/feed.xml', 'GB']]);

    // the window: articles in publication order, stored in that order; the last TAIL after the snapshot's watermark
    const end = now - 10 * 60_000;
    const gen = () => syntheticNews({ articles: ARTICLES, events: STORIES, spanMs: 47 * H, end, seed: 11, idPrefix: 'tk' });
    const storeOrder = (i: number) => end - 47 * H + Math.floor((47 * H * i) / ARTICLES);
    const watermark = storeOrder(ARTICLES - TAIL) - 1;
    const storyOf = (a: SyntheticArticle) => `st_e${a.event}`;
    let started = Date.now();
    let i = 0;
    await copyRows(s.databaseUrl!, 'articles', ['id', 'url', 'url_hash', 'title', 'snippet', 'publisher_id', 'published_at', 'ingested_at', 'category', 'language', 'story_id', 'entities', 'places'], (function* () {
      for (const a of gen()) {
        const ingested = Math.max(a.published_at, storeOrder(i++));
        yield [a.id, a.url, `h${a.id}`, a.title, a.summary, a.publisher, new Date(a.published_at).toISOString(), new Date(ingested).toISOString(), a.category, 'en', storyOf(a), JSON.stringify(a.entities), JSON.stringify(a.places)];
      }
    })());
    const r = rng(5);
    i = 0;
    await copyRows(s.databaseUrl!, 'fingerprints', ['handle', 'article_id', 'root', 'hi', 'lo', 'published_at', 'has_text'], (function* () {
      for (const a of gen()) {
        i++;
        yield [i, a.id, i, ((r() * 2 ** 32) | 0), ((r() * 2 ** 32) | 0), new Date(a.published_at).toISOString(), 'f'];
      }
    })());
    out.copy_s = (Date.now() - started) / 1000;
    console.log(`  loaded ${ARTICLES} articles and fingerprints in ${out.copy_s} s`);

    // the previous owner's snapshot: each story from its first article, then the others' ids attached
    started = Date.now();
    const c = new StoryClusterer({ windowMs: 48 * H });
    const counts = new Map<string, { n: number; ids: string[] }>();
    let k = 0;
    let openers = 0;
    let addMs = 0;
    for (const a of gen()) {
      if (k++ >= ARTICLES - TAIL) break;
      const id = storyOf(a);
      const seen = counts.get(id);
      if (seen) {
        seen.ids.push(a.id);
        continue;
      }
      counts.set(id, { n: 1, ids: [] });
      const t = performance.now();
      c.add(a, { entities: a.entities, places: a.places, category: a.category }, id);
      addMs += performance.now() - t;
      openers++;
    }
    out.replay_rate_articles_per_s = Math.round(openers / (addMs / 1000));
    const snap = c.snapshot();
    for (const st of snap.stories) {
      const extra = counts.get(st.id)?.ids ?? [];
      st.articleIds = st.articleIds.concat(extra);
      st.n += extra.length;
    }
    const chunks = encodeSnapshot(snap);
    counts.clear();
    out.snapshot_mb = Math.round(chunks.reduce((n, x) => n + x.length, 0) / 1e5) / 10;
    await saveStorySnapshot(sql, 'story/0', chunks, { watermark, stories: snap.stories.length, articles: ARTICLES - TAIL }, null);
    out.snapshot_stories = snap.stories.length;
    out.snapshot_build_s = (Date.now() - started) / 1000;
    console.log(`  snapshot of ${snap.stories.length} stories, ${out.snapshot_mb} MB, built in ${out.snapshot_build_s} s`);
    await sql.query('ANALYZE');

    // node A alone: a fresh owner of both shards
    const common = ['--host', '127.0.0.1', '--database-url', s.databaseUrl!, '--redis-url', s.redisUrl!, '--nats-url', natsUrl, '--data-dir', s.dataDir,
      '--cursor-secret', 'bench-takeover-secret-0123456789', '--workers', '1', '--log-level', 'info', '--admin-token', TOKEN];
    const urls = new Map<string, string>();
    const startNode = async (id: string) => {
      const n = startNodeProc(id, [...common, '--port', String(await freePort())]);
      nodes.push(n);
      urls.set(id, await n.url);
      return n;
    };
    const readyOf = (n: NodeProc, kind: string, after: number) => n.events.find((e) => e.msg === 'shard ready' && e.kind === kind && e.at > after)?.at ?? null;
    const acquiredOf = (n: NodeProc, kind: string, after: number) => n.events.filter((e) => e.msg === 'shard acquired' && e.kind === kind && e.at > after);
    const aStart = Date.now();
    const a = await startNode('tk-a');
    const aStory = await waitFor('node A story shard ready', () => readyOf(a, 'story', aStart), 600_000, 200);
    const aDedup = await waitFor('node A dedup shard ready', () => readyOf(a, 'dedup', aStart), 600_000, 200);
    const aAcq = acquiredOf(a, 'story', aStart)[0]?.at ?? aStart;
    out.fresh_story_ready_s = (aStory - aAcq) / 1000;
    out.fresh_dedup_ready_s = (aDedup - (acquiredOf(a, 'dedup', aStart)[0]?.at ?? aStart)) / 1000;
    console.log(`  fresh owner: story ready in ${out.fresh_story_ready_s} s, dedup in ${out.fresh_dedup_ready_s} s`);

    // the seeds' volume into the ingest log; the first of each batch a probe
    link = await connectNats({ url: natsUrl, reconnectWaitMs: 100 });
    const log = await openIngestLog(link, { log: silentLogger });
    const probes = new Map<string, number>();
    const words = ['harbour', 'ferry', 'council', 'budget', 'river', 'bridge', 'school', 'museum', 'station', 'market'];
    loop = (async () => {
      for (let b = 0; appending; b++) {
        const batch: RawArticle[] = [];
        for (let j = 0; j < 3; j++) {
          const n = b * 3 + j;
          batch.push({
            id: `live-${n}`, url: `https://live.example/${process.pid}/${n}`, publisher: 'p0', published_at: new Date().toISOString(),
            title: `${words[n % 10]} ${words[(n >> 3) % 10]} update number ${n} for ${words[(n >> 6) % 10]} board`, summary: `Live article ${n} of the takeover benchmark.`,
          });
        }
        const at = Date.now();
        await log.append(batch).then(() => probes.set(batch[0]!.url, at), () => undefined);
        await sleep(Math.max(0, 100 - (Date.now() - at)));
      }
      await log.close();
    })();
    const probeStored = async (from: number): Promise<{ first: number | null; fullSpeed: number | null }> => {
      const want = [...probes].filter(([, at]) => at > from);
      if (want.length === 0) return { first: null, fullSpeed: null };
      const rows = (await sql!.query<{ url: string; at: number }>('SELECT url, (extract(epoch FROM ingested_at) * 1000)::float8 AS at FROM articles WHERE url = ANY($1)', [want.map(([u]) => u)])).rows;
      const storedAt = new Map(rows.map((x) => [x.url, Number(x.at)]));
      const first = rows.length ? Math.min(...rows.map((x) => Number(x.at))) : null;
      const prompt = want.find(([u, at]) => storedAt.has(u) && storedAt.get(u)! - at <= 2_000);
      return { first, fullSpeed: prompt ? storedAt.get(prompt[0])! : null };
    };
    const warm = Date.now();
    await waitFor('ingest under way on node A', async () => (await probeStored(warm)).fullSpeed, 300_000, 500);

    // node B joins; then the story owner dies
    const bStart = Date.now();
    const b = await startNode('tk-b');
    await sleep(20_000);
    const storyOwners = await Promise.all(nodes.map(async (n) => ({ n, story: (await metric(urls.get(n.id)!, 'newsagg_owned_shards', '{kind="story"}')) ?? 0 })));
    const victim = storyOwners.find((o) => o.story > 0)?.n ?? a;
    const survivor = victim === a ? b : a;
    await waitFor('story shard ready somewhere', () => readyOf(victim, 'story', victim === b ? bStart : aStart), 600_000, 200);
    await sleep(5_000);
    const killedAt = Date.now();
    victim.proc.kill('SIGKILL');
    console.log(`  killed ${victim.id} (story owner), ${survivor.id} takes over`);
    let loopMax = 0;
    let rssMax = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const su = urls.get(survivor.id)!;
        loopMax = Math.max(loopMax, (await metric(su, 'newsagg_event_loop_delay_max_seconds')) ?? 0);
        rssMax = Math.max(rssMax, (await metric(su, 'newsagg_process_resident_memory_bytes')) ?? 0);
        await sleep(1_000);
      }
    })();
    const first = await waitFor('a store after the kill', async () => (await probeStored(killedAt)).first, 600_000, 250);
    const full = await waitFor('full speed after the kill', async () => (await probeStored(killedAt)).fullSpeed, 600_000, 500);
    const storyReady = await waitFor('story ready on the survivor', () => readyOf(survivor, 'story', killedAt), 600_000, 200);
    const dedupReady = readyOf(survivor, 'dedup', killedAt);
    await sleep(15_000);
    sampling = false;
    await sampler;
    out.kill9_story_ready_s = (storyReady - killedAt) / 1000;
    out.kill9_dedup_ready_s = dedupReady === null ? 'not moved' : (dedupReady - killedAt) / 1000;
    out.kill9_first_store_s = (first - killedAt) / 1000;
    out.kill9_full_speed_s = (full - killedAt) / 1000;
    out.survivor_event_loop_delay_max_s = loopMax;
    out.survivor_rss_mb_max = Math.round(rssMax / 1e6);
    out.survivor_story_acquisitions = acquiredOf(survivor, 'story', killedAt).length;
    out.survivor_leases_lapsed = survivor.events.filter((e) => e.at > killedAt && e.msg.startsWith('lease lapsed')).length;
    out.baseline_full_replay_s = Math.round(ARTICLES / (out.replay_rate_articles_per_s as number));
    console.log(`  ${JSON.stringify(out)}`);
    return out;
  } finally {
    appending = false;
    await loop.catch(() => undefined);
    await link?.close().catch(() => undefined);
    for (const n of nodes.reverse()) await stopNodeProc(n);
    await sql?.close();
    nats.kill('SIGKILL');
    rmSync(natsDir, { recursive: true, force: true });
    await s.cleanup();
    process.off('exit', orphans);
  }
}
