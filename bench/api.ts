/**
 * API benchmark (`npm run bench -- api`): wrk pinned to core 1, the server pinned to core 0 in
 * its own process, 100 connections. References and subjects are measured in the same run:
 *   - bare uWebSockets.js hello-world (the reference), in rounds alternating with the feed
 *     subjects (NEWSAGG_BENCH_API_ROUNDS, 3): ratios are medians of per-round pairs, so load
 *     drift on this shared machine cancels; each run also reports the server process's CPU per
 *     request, a figure that load hardly moves,
 *   - cached `/v1/feed` first page, deep cursor pages (rotating over many cursors), search
 *     (rotating over 500 two-word queries, so popular first pages come from the hot cache) and
 *     search with every query distinct (each one answered by the database) over a synthetic
 *     article table,
 *   - in server mode also readers (NEWSAGG_BENCH_API_READERS, 100,000 profiles): the personalised
 *     first page (`for=me`) with every request a different reader, in rounds alternating with the
 *     cached anonymous feed (the ratio is personal ÷ anonymous), once with every profile loaded
 *     (after a warm-up) and once cold (a fresh server: each request loads its profile from the
 *     database); and trending recomputation over the seeded articles (its 24 h window, and the
 *     whole table as a worst case),
 * in server mode (PostgreSQL + a private Redis) and embedded mode (PGlite + in-process cache).
 * Article text is generated here from made-up words; no real data is used.
 * Sizes: NEWSAGG_BENCH_API_ARTICLES (default 1,000,000 server / 50,000 embedded), seeded once and
 * reused (server mode keeps database `newsagg_bench_api`, or NEWSAGG_BENCH_API_DB), NEWSAGG_BENCH_API_SECONDS per run (5),
 * NEWSAGG_BENCH_API_PROFILE=<dir> for a CPU profile of the API server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, has } from './fixtures/scratch-stores.js';
import { profileHeapBytes, readerScript, seedReaders, warmReaders } from './fixtures/readers.js';

const self = fileURLToPath(import.meta.url);
const root = join(self, '..', '..');
const SECONDS = Number(process.env.NEWSAGG_BENCH_API_SECONDS ?? 5);
const PG_ADMIN = process.env.NEWSAGG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STORIES = 3_000;
/** alternating reference/subject rounds for the ratio figures */
const ROUNDS = Number(process.env.NEWSAGG_BENCH_API_ROUNDS ?? 3);
const ROLE = process.env.NEWSAGG_BENCH_API_ROLE;
const READERS = Number(process.env.NEWSAGG_BENCH_API_READERS ?? 100_000);
/** the server-mode database, seeded once and reused */
const BENCH_DB = process.env.NEWSAGG_BENCH_API_DB ?? 'newsagg_bench_api';

type Figures = Record<string, number | string | boolean>;

// ---- synthetic text: pseudo-words from syllables, Zipf-ish frequencies -------------------------
const SYL = ['ka', 'lo', 'mi', 'ter', 'van', 'so', 'ra', 'den', 'pu', 'lix', 'or', 'be', 'tal', 'nu', 'gri', 'fen', 'hos', 'ju', 'wel', 'zar'];
function word(i: number): string {
  let s = '';
  let n = i + 20;
  while (n > 0) {
    s += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length);
  }
  return s;
}
const VOCAB = Array.from({ length: 20_000 }, (_, i) => word(i));
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
/** index skewed towards common words, but with a long tail */
const pick = (r: () => number) => VOCAB[Math.floor(VOCAB.length * r() ** 2.5)]!;

// ---- child process roles -------------------------------------------------------------------------
async function serveHello(): Promise<void> {
  const uWS = (await import('uWebSockets.js')).default;
  const app = uWS.App().get('/*', (res) => {
    res.writeHeader('content-type', 'text/plain');
    res.end('Hello World!');
  });
  app.listen('127.0.0.1', 0, (t) => console.log(`READY ${uWS.us_socket_local_port(t)}`));
}

async function serveApi(): Promise<void> {
  const { openSql } = await import('../src/runtime/sql.js');
  const { openCache } = await import('../src/runtime/cache.js');
  const { CursorCodec } = await import('../src/api/cursor.js');
  const { FeedService } = await import('../src/api/feed.js');
  const { registerApiRoutes } = await import('../src/api/routes.js');
  const { HttpServer } = await import('../src/api/server.js');
  const { Router } = await import('../src/api/router.js');
  const { HttpMetrics } = await import('../src/api/http-metrics.js');
  const { Metrics } = await import('../src/runtime/metrics.js');
  const { startReaderServices } = await import('../src/api/services.js');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const sql = await openSql({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir });
  const cache = await openCache({ redisUrl: process.env.BENCH_REDIS_URL || undefined, prefix: 'bench:' });
  const codec = new CursorCodec('bench-cursor-secret-0123456789');
  const feed = new FeedService({ sql, cache, codec });
  await feed.start();
  const router = new Router();
  // the limiter stays on the path (as in production) with a bucket wrk cannot drain
  // the clock starts at the instant the articles were generated around and runs on in real time,
  // so search ranks against the seeded ages and hot pages still expire
  const start = Number(process.env.BENCH_NOW);
  const t0 = Date.now();
  const now = () => start + (Date.now() - t0);
  // as in a node: reader services, and HTTP metrics on every request
  const readers = await startReaderServices({ sql, cache, feed, codec, now, trendingIntervalMs: 3_600_000 });
  registerApiRoutes(router, { sql, cache, feed, codec, rateLimit: { rps: 1e9, burst: 1e9 }, dataDir, now, profiles: readers.profiles, personal: readers.personal, trending: readers.trending });
  const http = new HttpServer({ host: '127.0.0.1', port: 0, router, metrics: new HttpMetrics(new Metrics()) });
  console.log(`READY ${await http.listen()}`);
}

// exit normally on SIGTERM, so `node --cpu-prof` children write their profile
if (ROLE) for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => process.exit(0));
if (ROLE === 'hello') await serveHello();
else if (ROLE === 'api') await serveApi();

// ---- orchestration -------------------------------------------------------------------------------

interface Child {
  child: ChildProcess;
  port: number;
}

async function startChild(role: string, env: Record<string, string>): Promise<Child> {
  // NEWSAGG_BENCH_API_PROFILE=<dir>: the API server writes a CPU profile there when it stops
  const prof = role === 'api' && process.env.NEWSAGG_BENCH_API_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.NEWSAGG_BENCH_API_PROFILE}`] : [];
  const args = [process.execPath, ...prof, '--import', 'tsx', self];
  const child = has('taskset') ? spawn('taskset', ['-c', '0', ...args], { cwd: root, env: { ...process.env, ...env, NEWSAGG_BENCH_API_ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(args[0]!, args.slice(1), { cwd: root, env: { ...process.env, ...env, NEWSAGG_BENCH_API_ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${role} server did not start`)), 120_000);
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /READY (\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
  return { child, port };
}

async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null) return;
  const done = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(t);
}

interface WrkResult {
  rps: number;
  p99_ms: number;
  non2xx: number;
  /** server-process CPU per request (user + system, from /proc), NaN where unreadable */
  cpu_us_per_req: number;
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100);

/** user + system CPU seconds of a process so far (Linux /proc), NaN elsewhere */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** wrk on core 1 against the server process `pid`; `paths` > 1 rotates over them with a small Lua script. */
function wrk(pid: number | undefined, base: string, paths: string[], lua?: string): WrkResult {
  let script: string | null = null;
  if (paths.length > 1 || lua !== undefined) {
    script = join(tmpdir(), `newsagg-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
    const list = paths.map((p) => `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',\n');
    writeFileSync(script, lua ?? `local paths = {${list}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`);
  }
  const args = ['-t1', '-c100', `-d${SECONDS}s`, '--latency', ...(script ? ['-s', script] : []), base + paths[0]];
  const cpu0 = cpuSeconds(pid);
  const r = has('taskset') ? spawnSync('taskset', ['-c', '1', 'wrk', ...args], { encoding: 'utf8' }) : spawnSync('wrk', args, { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - cpu0;
  if (script) rmSync(script, { force: true });
  const out = r.stdout ?? '';
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(out);
  const unit = p99 ? ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[p99[2]!]! : NaN;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  if (!Number.isFinite(rps)) throw new Error(`wrk failed: ${r.stderr || out}`);
  return { rps, p99_ms: p99 ? Number(p99[1]) * unit : NaN, non2xx, cpu_us_per_req: (cpu / requests) * 1e6 };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Alternating rounds of the reference and the subject (load on this shared machine drifts within
 * seconds, and cancels within a pair): medians of the subject's figures and of the per-round
 * ratios. The hello-world server stays up, idle, while the API server is measured.
 */
function paired(hello: Child, api: Child, base: string, paths: string[]): { subject: WrkResult; ref: WrkResult; ratio: number; cpu_ratio: number } {
  const subj: WrkResult[] = [];
  const refs: WrkResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    refs.push(wrk(hello.child.pid, `http://127.0.0.1:${hello.port}`, ['/']));
    subj.push(wrk(api.child.pid, base, paths));
  }
  const pick = (rs: WrkResult[]): WrkResult => ({
    rps: median(rs.map((r) => r.rps)),
    p99_ms: median(rs.map((r) => r.p99_ms)),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    cpu_us_per_req: median(rs.map((r) => r.cpu_us_per_req)),
  });
  return {
    subject: pick(subj),
    ref: pick(refs),
    ratio: median(subj.map((r, i) => r.rps / refs[i]!.rps)),
    // the reference's CPU per request over ours: what the ratio would be were both CPU-bound
    cpu_ratio: median(subj.map((r, i) => refs[i]!.cpu_us_per_req / r.cpu_us_per_req)),
  };
}

/** Alternating rounds of two runs on the same server: medians of each, and of the per-round ratio b ÷ a. */
function pairedRuns(a: () => WrkResult, b: () => WrkResult): { a: WrkResult; b: WrkResult; ratio: number } {
  const as: WrkResult[] = [];
  const bs: WrkResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    as.push(a());
    bs.push(b());
  }
  const pick = (rs: WrkResult[]): WrkResult => ({
    rps: median(rs.map((r) => r.rps)),
    p99_ms: median(rs.map((r) => r.p99_ms)),
    non2xx: rs.reduce((x, r) => x + r.non2xx, 0),
    cpu_us_per_req: median(rs.map((r) => r.cpu_us_per_req)),
  });
  return { a: pick(as), b: pick(bs), ratio: median(bs.map((r, i) => r.rps / as[i]!.rps)) };
}

const PERSONAL_PATH = '/v1/feed?for=me&region=global&limit=20';

/**
 * Readers on a fresh API server: the personalised first page cold (no profile loaded yet: each
 * request loads one), then, with every profile loaded, beside the cached anonymous feed.
 */
async function measureReaders(api: Child, base: string, env: Record<string, string>, storedBytes: number): Promise<Figures> {
  const cold = wrk(api.child.pid, base, [PERSONAL_PATH], readerScript(PERSONAL_PATH, READERS));
  const warmMs = await warmReaders(base, PERSONAL_PATH, READERS);
  let round = 0;
  const pair = pairedRuns(
    () => wrk(api.child.pid, base, ['/v1/feed?region=global&category=top&limit=20']),
    () => wrk(api.child.pid, base, [PERSONAL_PATH], readerScript(PERSONAL_PATH, READERS, (round++ * 37_003) % READERS)),
  );
  const { openSql } = await import('../src/runtime/sql.js');
  const sql = await openSql({ databaseUrl: env.BENCH_DATABASE_URL, dataDir: env.BENCH_DATA_DIR! });
  try {
    return {
      readers: READERS,
      reader_interests_stored_bytes_avg: Math.round(storedBytes),
      reader_profile_heap_bytes: await profileHeapBytes(sql, Math.min(READERS, 20_000)),
      personal_cold_rps: Math.round(cold.rps),
      personal_cold_p99_ms: cold.p99_ms,
      personal_warmup_profiles_per_s: Math.round(READERS / (warmMs / 1000)),
      personal_rps: Math.round(pair.b.rps),
      personal_p99_ms: pair.b.p99_ms,
      personal_cpu_us_per_req: round1(pair.b.cpu_us_per_req),
      personal_feed_rps_same_rounds: Math.round(pair.a.rps),
      personal_rps_ratio_vs_cached_feed: pair.ratio,
      personal_non_2xx: cold.non2xx + pair.b.non2xx,
      ...(await measureTrending(sql)),
    };
  } finally {
    await sql.close();
  }
}

/** Trending recomputation over the seeded table: its 24 h window, and the whole table as the window. */
async function measureTrending(sql: import('../src/runtime/sql.js').Sql): Promise<Figures> {
  const { MemoryCache } = await import('../src/runtime/cache-memory.js');
  const { CursorCodec } = await import('../src/api/cursor.js');
  const { FeedService } = await import('../src/api/feed.js');
  const { TrendingService } = await import('../src/api/trending/service.js');
  const cache = new MemoryCache();
  const feed = new FeedService({ sql, cache, codec: new CursorCodec('bench-cursor-secret-0123456789') });
  const run = async (windowMs: number) => {
    const t = new TrendingService({ sql, cache, feed, now: () => NOW, windowMs });
    const ms: number[] = [];
    for (let i = 0; i < 3; i++) {
      await t.recompute();
      ms.push(t.lastRunMs);
    }
    return median(ms);
  };
  const count = async (since: number) => Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM articles WHERE published_at >= $1 AND published_at <= $2', [new Date(since).toISOString(), new Date(NOW).toISOString()])).rows[0]!.n);
  const day = 86_400_000;
  return {
    trending_window_articles: await count(NOW - day),
    trending_recompute_ms: Math.round(await run(day)),
    trending_full_table_articles: await count(NOW - 3650 * day),
    trending_full_table_recompute_ms: Math.round(await run(3650 * day)),
  };
}

const NOW = Date.parse('2026-11-25T12:00:00Z');

/** Stories for the feeds and `n` articles for search, in batches; skipped when already there. */
async function seed(sql: import('../src/runtime/sql.js').Sql, n: number, cache: import('../src/runtime/cache.js').Cache | null): Promise<number> {
  const { upsertArticles } = await import('../src/actors/store/articles.js');
  const { upsertStories } = await import('../src/actors/store/stories.js');
  const { addPublishers } = await import('../src/actors/store/publishers.js');
  const { CATEGORIES, REGIONS, storyScore, toCachedStory } = await import('../src/actors/store/feed-items.js');
  const { publishStories } = await import('../src/actors/store/feed-cache.js');
  const { withRelated } = await import('../src/actors/store/related.js');
  const have = Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM articles')).rows[0]!.n);
  const r = rng(7);
  await addPublishers(sql, Array.from({ length: 200 }, (_, i) => ({ id: `bp${i}`, name: `Bench Publisher ${i}`, feed_url: `https://bp${i}.example/feed` })));
  const BATCH = 5_000;
  for (let start = have; start < n; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + BATCH); i++) {
      const title = Array.from({ length: 8 }, () => pick(r)).join(' ');
      const snippet = Array.from({ length: 25 }, () => pick(r)).join(' ');
      // the feeds' stories have four articles from four publishers (their cards carry headlines of the other three)
      const story = i < 4 * STORIES ? `bs${i % STORIES}` : `bsx${i % 50_000}`;
      const pub = i < 4 * STORIES ? (i + Math.floor(i / STORIES) * 7) % 200 : i % 200;
      rows.push({
        id: `ba${String(i).padStart(8, '0')}`, url: `https://bp${pub}.example/a/${i}`, url_hash: `bh${i}`, simhash: null, title: title[0]!.toUpperCase() + title.slice(1),
        snippet, thumbnail_url: null, publisher_id: `bp${pub}`, published_at: new Date(NOW - Math.floor(r() * 60 * 86_400_000)).toISOString(),
        category: CATEGORIES[i % CATEGORIES.length]!, region: REGIONS[i % REGIONS.length]!, language: 'en', story_id: story, duplicate_of: null, entities: [], places: [],
      });
    }
    await upsertArticles(sql, rows);
    if ((start / BATCH) % 20 === 0) console.log(`  seeded ${Math.min(n, start + BATCH)} / ${n} articles`);
  }
  const leads = await (await import('../src/actors/store/articles.js')).getArticles(sql, Array.from({ length: STORIES }, (_, i) => `ba${String(i).padStart(8, '0')}`));
  const stories = leads.map((a) => {
    const row = { id: a.story_id!, title: a.title, lead_article_id: a.id, article_count: 1 + (Number(a.id.slice(2)) % 9), publisher_count: 1 + (Number(a.id.slice(2)) % 5),
      first_seen: a.published_at, updated_at: a.published_at, category: a.category, regions: [a.region!], entities: [], score: 0 };
    return { ...row, score: storyScore(row) };
  });
  await upsertStories(sql, stories);
  if (cache) {
    const byId = new Map(leads.map((a) => [a.id, a]));
    for (let i = 0; i < stories.length; i += 500) {
      await publishStories(cache, await withRelated(sql, stories.slice(i, i + 500).map((s) => toCachedStory(s, byId.get(s.lead_article_id)!))));
    }
  }
  return Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM articles')).rows[0]!.n);
}

async function collectDeepCursors(base: string): Promise<string[]> {
  const out: string[] = [];
  for (const [region, category] of [['global', 'top'], ['global', 'world'], ['us', 'top'], ['global', 'business']] as const) {
    let cursor: string | null = null;
    for (let page = 0; page < 40; page++) {
      const res = await fetch(`${base}/v1/feed?region=${region}&category=${category}&limit=20${cursor ? `&cursor=${cursor}` : ''}`);
      const body = (await res.json()) as { next_cursor: string | null };
      cursor = body.next_cursor;
      if (!cursor) break;
      if (page >= 9) out.push(`/v1/feed?region=${region}&category=${category}&limit=20&cursor=${cursor}`);
    }
  }
  return out;
}

/**
 * Two mid-frequency words, as readers type them; a quarter with a filter. `n` = 500 repeats each
 * query every few hundred requests (popular queries: the first page is usually kept rendered);
 * the uncached run uses so many distinct queries that none repeats within a run, so every
 * request is answered by the database.
 */
function searchPaths(n = 500, seed = 99): string[] {
  const r = rng(seed);
  const seen = new Set<string>();
  const out: string[] = [];
  while (out.length < n) {
    const q = `${VOCAB[200 + Math.floor(r() * 3000)]} ${VOCAB[200 + Math.floor(r() * 3000)]}`;
    const path = `/v1/search?q=${encodeURIComponent(q)}${out.length % 4 === 0 ? '&category=world' : ''}`;
    if (n > 500 && seen.has(path)) continue;
    seen.add(path);
    out.push(path);
  }
  return out;
}

async function measureMode(mode: 'server' | 'embedded', hello: Child): Promise<Figures> {
  const { openSql } = await import('../src/runtime/sql.js');
  const { migrate } = await import('../src/runtime/migrate.js');
  const { newsMigrations } = await import('../src/actors/store/migrations.js');
  const { openCache } = await import('../src/runtime/cache.js');
  const n = Number(process.env.NEWSAGG_BENCH_API_ARTICLES ?? (mode === 'server' ? 1_000_000 : 50_000));
  const env: Record<string, string> = { BENCH_NOW: String(NOW) };
  let redis: ChildProcess | null = null;
  let dataDir: string;
  let count: number;
  let storedBytes = 0;
  if (mode === 'server') {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    if (!/^[a-z_][a-z0-9_]*$/.test(BENCH_DB)) throw new Error(`NEWSAGG_BENCH_API_DB: not a plain database name: ${BENCH_DB}`);
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DB])).rowCount;
    if (!exists) await admin.query(`CREATE DATABASE ${BENCH_DB}`);
    await admin.end();
    const u = new URL(PG_ADMIN);
    u.pathname = `/${BENCH_DB}`;
    const rport = await freePort();
    redis = spawn('redis-server', ['--port', String(rport), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    dataDir = mkdtempSync(join(tmpdir(), 'newsagg-bench-api-'));
    env.BENCH_DATABASE_URL = u.href;
    env.BENCH_REDIS_URL = `redis://127.0.0.1:${rport}`;
    const sql = await openSql({ databaseUrl: u.href, dataDir });
    await migrate(sql, newsMigrations);
    const cache = await openCache({ redisUrl: env.BENCH_REDIS_URL, prefix: 'bench:' });
    count = await seed(sql, n, cache);
    if (READERS > 0) storedBytes = await seedReaders(sql, READERS, NOW, STORIES);
    await sql.query('VACUUM ANALYZE articles'); // flushes the GIN pending list a bulk load leaves behind
    await sql.query('SELECT refresh_search_common_lexemes()'); // the fresh statistics tell search which words are common
    await cache.close();
    await sql.close();
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'newsagg-bench-api-'));
    const sql = await openSql({ dataDir });
    await migrate(sql, newsMigrations);
    count = await seed(sql, n, null);
    await sql.query('VACUUM ANALYZE articles'); // flushes the GIN pending list a bulk load leaves behind
    await sql.query('SELECT refresh_search_common_lexemes()'); // the fresh statistics tell search which words are common
    await sql.close();
  }
  env.BENCH_DATA_DIR = dataDir;
  const api = await startChild('api', env);
  const base = `http://127.0.0.1:${api.port}`;
  try {
    await fetch(`${base}/v1/feed?region=global&category=top&limit=20`); // warm: rebuild from SQL when the cache is cold
    const feed = paired(hello, api, base, ['/v1/feed?region=global&category=top&limit=20']);
    const deepPaths = await collectDeepCursors(base);
    const deep = paired(hello, api, base, deepPaths);
    const search = wrk(api.child.pid, base, searchPaths());
    const uncached = wrk(api.child.pid, base, searchPaths(Math.max(20_000, SECONDS * 4_000), 7_001));
    const m = mode;
    // readers on a fresh server, so the cold figure is cold
    let readers: Figures = {};
    if (mode === 'server' && READERS > 0) {
      await stopChild(api.child);
      const fresh = await startChild('api', env);
      try {
        const freshBase = `http://127.0.0.1:${fresh.port}`;
        await fetch(`${freshBase}/v1/feed?region=global&category=top&limit=20`);
        readers = Object.fromEntries(Object.entries(await measureReaders(fresh, freshBase, env, storedBytes)).map(([k, v]) => [`${m}_${k}`, v]));
      } finally {
        await stopChild(fresh.child);
      }
    }
    return {
      [`${m}_articles`]: count,
      [`${m}_ref_uws_hello_rps`]: Math.round(feed.ref.rps),
      [`${m}_ref_uws_hello_p99_ms`]: feed.ref.p99_ms,
      [`${m}_ref_uws_hello_cpu_us_per_req`]: round1(feed.ref.cpu_us_per_req),
      [`${m}_feed_rps`]: Math.round(feed.subject.rps),
      [`${m}_feed_p99_ms`]: feed.subject.p99_ms,
      [`${m}_feed_rps_ratio_vs_uws`]: feed.ratio,
      [`${m}_feed_cpu_us_per_req`]: round1(feed.subject.cpu_us_per_req),
      [`${m}_feed_cpu_ratio_vs_uws`]: feed.cpu_ratio,
      [`${m}_deep_page_cursors`]: deepPaths.length,
      [`${m}_deep_page_rps`]: Math.round(deep.subject.rps),
      [`${m}_deep_page_p99_ms`]: deep.subject.p99_ms,
      [`${m}_deep_page_rps_ratio_vs_uws`]: deep.ratio,
      [`${m}_deep_page_cpu_us_per_req`]: round1(deep.subject.cpu_us_per_req),
      [`${m}_search_rps`]: Math.round(search.rps),
      [`${m}_search_p99_ms`]: search.p99_ms,
      [`${m}_search_uncached_rps`]: Math.round(uncached.rps),
      [`${m}_search_uncached_p99_ms`]: uncached.p99_ms,
      [`${m}_search_uncached_cpu_us_per_req`]: Math.round(uncached.cpu_us_per_req),
      [`${m}_non_2xx`]: feed.subject.non2xx + deep.subject.non2xx + search.non2xx + uncached.non2xx,
      ...readers,
    };
  } finally {
    await stopChild(api.child);
    if (redis) await stopChild(redis);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Figures> {
  if (!has('wrk')) return { skipped: 'wrk is not installed (apt-get install -y wrk)' };
  const pinned = has('taskset');
  const load = loadavg()[0]!;
  // the reference stays up (idle between its rounds) so every ratio pairs it with the subject
  const hello = await startChild('hello', {});
  const out: Figures = { pinned, load_average_at_start: Math.round(load * 100) / 100, seconds_per_run: SECONDS, rounds: ROUNDS };
  const modes = (process.env.NEWSAGG_BENCH_API_MODES ?? 'server,embedded').split(',') as ('server' | 'embedded')[];
  try {
    for (const m of modes) Object.assign(out, await measureMode(m, hello));
  } finally {
    await stopChild(hello.child);
  }
  // the names BENCH.md lists, from server mode (the production shape) when measured
  const main = modes.includes('server') ? 'server' : modes[0]!;
  out.ref_uws_hello_rps = out[`${main}_ref_uws_hello_rps`]!;
  out.ref_uws_hello_p99_ms = out[`${main}_ref_uws_hello_p99_ms`]!;
  out.feed_rps_ratio_vs_uws = out[`${main}_feed_rps_ratio_vs_uws`]!;
  out.feed_p99_ms = out[`${main}_feed_p99_ms`]!;
  out.feed_cpu_ratio_vs_uws = out[`${main}_feed_cpu_ratio_vs_uws`]!;
  out.deep_page_rps_ratio_vs_uws = out[`${main}_deep_page_rps_ratio_vs_uws`]!;
  out.search_rps = out[`${main}_search_rps`]!;
  out.search_uncached_rps = out[`${main}_search_uncached_rps`]!;
  if (out.server_personal_rps !== undefined) {
    out.personal_rps = out.server_personal_rps;
    out.personal_rps_ratio_vs_cached_feed = out.server_personal_rps_ratio_vs_cached_feed!;
    out.trending_recompute_ms = out.server_trending_recompute_ms!;
  }
  return out;
}
