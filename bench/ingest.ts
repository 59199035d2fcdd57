/**
 * End-to-end ingest benchmark (`npm run bench -- ingest`, issue 7).
 *
 * 1. Throughput: raw articles made from simulated publishing (bench/fixtures/ingest-corpus.ts,
 *    wire copies included) go into `startIngest` (real TaskPool, dedup worker group, story actor,
 *    SQL, cache) as fast as it accepts them; articles/s = articles stored ÷ time from the first
 *    append until everything is stored and the newest story shows in `/v1/feed`. Server mode:
 *    a scratch PostgreSQL database + a private Redis; embedded: PGlite in a temp dir + the
 *    in-process cache. Each stage's wall time is measured by wrapping what startIngest is given
 *    (bench/fixtures/stage-timer.ts); of the three overlapped pipeline stages (prepare, decide,
 *    write) the slowest is named the bottleneck. CPU time per article of this process, its main
 *    thread, the PostgreSQL backends and Redis (bench/fixtures/cpu-meter.ts) tells work from
 *    waiting, and bounds what two free cores could reach.
 *    Fetch and feed parsing are not in this figure (raw articles are what the publisher actors
 *    emit); they are in the push latency below.
 * 2. Reference in the same run: fast-xml-parser alone over the captured feed documents (entries/s),
 *    and the project's parseFeed over the same bytes.
 * 3. Push latency: a whole node against the simulator's WebSub hub (bench/fixtures/ingest-push.ts).
 *
 * Sizes: NEWSAGG_BENCH_INGEST_ARTICLES (server, default 30,000), NEWSAGG_BENCH_INGEST_EMBEDDED_ARTICLES
 * (default 15,000), NEWSAGG_BENCH_INGEST_PUBLISHERS (300), NEWSAGG_BENCH_INGEST_PUSHES (60),
 * NEWSAGG_BENCH_INGEST_MODES (server,embedded), NEWSAGG_BENCH_INGEST_PUSH_MODE (server).
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { parseFeed } from '../src/actors/feed/index.js';
import { startIngest } from '../src/actors/ingest/service.js';
import type { RawArticle } from '../src/actors/ingest/types.js';
import { ensureArticlePartitions, newsMigrations } from '../src/actors/store/migrations.js';
import { addPublishers } from '../src/actors/store/publishers.js';
import { CursorCodec } from '../src/api/cursor.js';
import { FeedService } from '../src/api/feed.js';
import { registerApiRoutes } from '../src/api/routes.js';
import { Router } from '../src/api/router.js';
import { HttpServer } from '../src/api/server.js';
import { openCache } from '../src/runtime/cache.js';
import { migrate } from '../src/runtime/migrate.js';
import { openSql } from '../src/runtime/sql.js';
import { ActorSystem } from '../src/runtime/system.js';
import { TaskPool } from '../src/runtime/task-pool.js';
import { CpuMeter } from './fixtures/cpu-meter.js';
import { buildCorpus, type IngestCorpus } from './fixtures/ingest-corpus.js';
import { measurePush } from './fixtures/ingest-push.js';
import { has, scratch } from './fixtures/scratch-stores.js';
import { STAGES, StageTimer, timeAsks, timedCache, timedPool, timedQueue, timedSql } from './fixtures/stage-timer.js';

type Figures = Record<string, number | string | boolean>;
type Mode = 'server' | 'embedded';

const env = process.env;
const N_SERVER = Number(env.NEWSAGG_BENCH_INGEST_ARTICLES ?? 30_000);
const N_EMBEDDED = Number(env.NEWSAGG_BENCH_INGEST_EMBEDDED_ARTICLES ?? 15_000);
const PUBLISHERS = Number(env.NEWSAGG_BENCH_INGEST_PUBLISHERS ?? 300);
const PUSHES = Number(env.NEWSAGG_BENCH_INGEST_PUSHES ?? 60);
const MODES = (env.NEWSAGG_BENCH_INGEST_MODES ?? 'server,embedded').split(',').filter(Boolean) as Mode[];
const PUSH_MODE = (env.NEWSAGG_BENCH_INGEST_PUSH_MODE ?? 'server') as Mode | 'none';
const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

/** fast-xml-parser alone (entries/s over the XML documents) beside the project's parseFeed on the same bytes. */
function parseReference(corpus: IngestCorpus): Figures {
  const xml = corpus.feeds.filter((f) => f.body[0] === 0x3c || f.body.subarray(0, 64).toString().trimStart().startsWith('<'));
  const entries = xml.reduce((n, f) => n + f.entries, 0);
  const bare = new XMLParser({ ignoreAttributes: false });
  const time = (fn: (f: { url: string; body: Buffer }) => unknown) => {
    for (const f of xml.slice(0, 50)) fn(f); // warm up the JIT
    const t0 = performance.now();
    for (const f of xml) fn(f);
    return (performance.now() - t0) / 1000;
  };
  const bareS = time((f) => bare.parse(f.body));
  const oursS = time((f) => parseFeed(f.body, { baseUrl: f.url }));
  return {
    ref_feeds: xml.length,
    ref_xml_parse_articles_per_s: Math.round(entries / bareS),
    ref_xml_parse_feeds_per_s: Math.round(xml.length / bareS),
    parsefeed_articles_per_s: Math.round(entries / oursS),
  };
}

/** Dates moved so the newest article is a minute old: the feed and the windows see live news. */
function shiftToNow(articles: readonly RawArticle[], toMs: number): RawArticle[] {
  const shift = Date.now() - 60_000 - toMs;
  return articles.map((a) => ({ ...a, published_at: a.published_at ? new Date(Date.parse(a.published_at) + shift).toISOString() : null }));
}

async function throughput(mode: Mode, corpus: IngestCorpus, n: number): Promise<Figures> {
  const s = await scratch(mode, 'ingest');
  const sql = await openSql({ databaseUrl: s.databaseUrl, dataDir: s.dataDir });
  const cache = await openCache({ redisUrl: s.redisUrl, prefix: 'bench-ingest:' });
  const system = new ActorSystem({});
  const pool = new TaskPool({ typescript: import.meta.url.endsWith('.ts') });
  const feed = new FeedService({ sql, cache, codec: new CursorCodec('bench-ingest-cursor-secret-0123456789') });
  let http: HttpServer | null = null;
  try {
    await migrate(sql, newsMigrations);
    const articles = shiftToNow(corpus.articles.slice(0, n), corpus.toMs);
    const oldest = Math.min(...articles.map((a) => Date.parse(a.published_at ?? '')).filter(Number.isFinite));
    await ensureArticlePartitions(sql, () => oldest, Math.max(1, Math.ceil((Date.now() - oldest) / (28 * 86_400_000))));
    await addPublishers(sql, corpus.publishers.map((p) => ({ id: p.id, name: p.name, feed_url: p.feed_url, site_url: p.site_url, country: p.country, category: p.section })));
    await feed.start();
    const router = new Router();
    registerApiRoutes(router, { sql, cache, feed, codec: new CursorCodec('bench-ingest-cursor-secret-0123456789'), rateLimit: { rps: 1e9, burst: 1e9 }, dataDir: s.dataDir });
    http = new HttpServer({ host: '127.0.0.1', port: 0, router });
    const base = `http://127.0.0.1:${await http.listen()}`;

    const timer = new StageTimer();
    timeAsks(system, timer);
    const counts = { batches: 0 };
    const service = await startIngest({
      system, sql: timedSql(sql, timer), databaseUrl: sql.url, cache: timedCache(cache, timer), pool: timedPool(pool, timer), queue: timedQueue(timer, counts),
    });
    const meter = new CpuMeter(mode === 'server' ? sql : null, s.redisPid ?? null);
    await meter.start();
    // how long the main thread (which also serves the API in a node) goes without reading I/O
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    timer.reset();
    const t0 = performance.now();
    // each append resolves once its articles are stored; the log takes them as fast as it has room
    const stored: Promise<void>[] = [];
    for (let i = 0; i < articles.length; i += 500) stored.push(service.ingest(articles.slice(i, i + 500)));
    const appendedMs = performance.now() - t0;
    await Promise.all(stored);
    await service.drain();
    const drainedMs = performance.now() - t0;
    // visible: the story of the last article appended is in /v1/feed of its story's category (or
    // the top feed), on whichever page its rank puts it (a one-article story ranks low among thousands)
    const last = (await sql.query<{ story_id: string; category: string }>(
      'SELECT a.story_id, s.category FROM articles a JOIN stories s ON s.id = a.story_id WHERE a.url = $1', [articles.at(-1)!.url],
    )).rows[0];
    let visible = false;
    for (const end = Date.now() + 15_000; last && !visible && Date.now() < end; ) {
      for (const path of [`/v1/feed?category=${last.category}&limit=50`, '/v1/feed?limit=50']) {
        let cursor: string | null = null;
        for (let page = 0; page < 200 && !visible; page++) {
          const body = (await (await fetch(`${base}${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json()) as { items?: { story_id: string }[]; next_cursor?: string | null };
          visible ||= !!body.items?.some((it) => it.story_id === last.story_id);
          cursor = body.next_cursor ?? null;
          if (!cursor) break;
        }
      }
      if (!visible) await new Promise((r) => setTimeout(r, 20));
    }
    const visibleMs = performance.now() - t0;
    const cpu = await meter.stop();
    loopDelay.disable();
    const totals = (await sql.query<{ n: number; dups: number; stories: number }>(
      'SELECT count(*)::int AS n, count(duplicate_of)::int AS dups, count(DISTINCT story_id)::int AS stories FROM articles',
    )).rows[0]!;
    const largest = (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles GROUP BY story_id ORDER BY 1 DESC LIMIT 1')).rows[0]?.n ?? 0;
    await service.stop();

    const m = mode;
    const busy = timer.busy.get('batch') ?? 0;
    const out: Figures = {
      [`${m}_articles_in`]: articles.length,
      [`${m}_articles_stored`]: totals.n,
      [`${m}_duplicates`]: totals.dups,
      [`${m}_stories`]: totals.stories,
      // how many stories the simulator's truth has for these articles (clustering cost grows with story size)
      [`${m}_gold_events`]: new Set(corpus.events.slice(0, n).filter((e) => e !== null)).size,
      [`${m}_largest_story_articles`]: largest,
      [`${m}_batches`]: counts.batches,
      [`${m}_seconds`]: round(visibleMs / 1000, 2),
      [`${m}_append_seconds`]: round(appendedMs / 1000, 2),
      [`${m}_feed_visible_after_drain_ms`]: Math.round(visibleMs - drainedMs),
      [`${m}_feed_visible`]: visible,
      [`articles_per_s_${m}`]: Math.round(totals.n / (visibleMs / 1000)),
      [`${m}_pipeline_busy_share`]: round(busy / drainedMs, 3),
      [`${m}_load_average_after`]: round(loadavg()[0]!, 2),
      [`${m}_event_loop_delay_p99_ms`]: round(loopDelay.percentile(99) / 1e6, 1),
      [`${m}_event_loop_delay_max_ms`]: round(loopDelay.max / 1e6, 1),
    };
    for (const st of STAGES) {
      const ms = timer.busy.get(st) ?? 0;
      out[`${m}_stage_${st}_share`] = round(ms / busy, 3);
      out[`${m}_stage_${st}_ms_per_1k`] = round((ms / totals.n) * 1000, 1);
    }
    // Four stages work on consecutive batches at once (prepare on the CPU pool; decide: exact
    // dedup, near-dup, clustering; write: the transaction; announce: lead lookup and feed cache),
    // so the slowest one bounds the rate. Their wall times include waiting for a core: the CPU
    // figures below tell how much of it is work.
    const groups: Record<string, readonly string[]> = { prepare: ['prepare'], decide: ['exact_dedup', 'near_dup', 'cluster'], write: ['sql_tx'], announce: ['publish_lookup', 'cache_publish'] };
    let worst = '';
    let worstMs = 0;
    for (const [g, stages] of Object.entries(groups)) {
      const ms = stages.reduce((sum, st) => sum + (timer.busy.get(st) ?? 0), 0);
      out[`${m}_pipeline_${g}_ms_per_1k`] = round((ms / totals.n) * 1000, 1);
      if (ms > worstMs) { worst = g; worstMs = ms; }
    }
    out[`${m}_bottleneck`] = worst;
    out[`${m}_bound_slowest_stage_articles_per_s`] = Math.round((totals.n * 1000) / worstMs);
    const perK = (ms: number) => round((ms / totals.n) * 1000, 1);
    out[`${m}_cpu_node_ms_per_1k`] = perK(cpu.nodeMs);
    if (cpu.mainMs !== null) out[`${m}_cpu_main_thread_ms_per_1k`] = perK(cpu.mainMs);
    out[`${m}_main_thread_active_share`] = round(cpu.mainActiveMs / visibleMs, 3);
    let cpuTotal = cpu.nodeMs;
    if (cpu.dbMs !== null) { out[`${m}_cpu_postgres_ms_per_1k`] = perK(cpu.dbMs); cpuTotal += cpu.dbMs; }
    if (cpu.redisMs !== null) { out[`${m}_cpu_redis_ms_per_1k`] = perK(cpu.redisMs); cpuTotal += cpu.redisMs; }
    // what two fully free cores could do with this much work per article (ignores waiting)
    out[`${m}_bound_2_cores_articles_per_s`] = Math.round((2 * totals.n * 1000) / cpuTotal);
    // the main thread runs clustering and every client protocol: it cannot go faster than this
    if (cpu.mainMs !== null) out[`${m}_bound_main_thread_articles_per_s`] = Math.round((totals.n * 1000) / cpu.mainMs);
    // which CPU limit binds first on a free machine: the main thread (clustering, every client
    // protocol) or the two cores' total work; a measured rate far below both means waiting (load)
    out[`${m}_cpu_bottleneck`] = cpu.mainMs !== null && cpu.mainMs * 2 > cpuTotal ? 'main_thread' : 'two_cores';
    return out;
  } finally {
    await http?.close(0);
    await feed.stop();
    await system.shutdown(10_000);
    await pool.close();
    await cache.close();
    await sql.close();
    await s.cleanup();
  }
}

export async function run(): Promise<Figures> {
  const load = loadavg()[0]!;
  const out: Figures = { load_average_at_start: round(load, 2), quiet: load < 0.5 };
  if (MODES.includes('server') && !has('redis-server')) return { skipped: 'redis-server is not installed (needed for server mode); set NEWSAGG_BENCH_INGEST_MODES=embedded' };
  const want = Math.max(MODES.includes('server') ? N_SERVER : 0, MODES.includes('embedded') ? N_EMBEDDED : 0);
  const t0 = performance.now();
  const corpus = await buildCorpus({ publishers: PUBLISHERS, articles: want, startMs: Date.parse('2026-01-05T00:00:00Z') });
  Object.assign(out, {
    corpus_seconds: round((performance.now() - t0) / 1000, 1),
    corpus_articles: corpus.articles.length,
    corpus_publishers: corpus.publishers.length,
    corpus_simulated_hours: round((corpus.toMs - corpus.fromMs) / 3_600_000, 1),
    corpus_own_articles: corpus.roles.original ?? 0,
    corpus_wire_copies: corpus.roles.copy ?? 0,
    corpus_wire_originals: corpus.roles.wire ?? 0,
    corpus_items_not_in_feeds: corpus.itemsNotInFeeds,
  });
  Object.assign(out, parseReference(corpus));
  for (const m of MODES) {
    Object.assign(out, await throughput(m, corpus, m === 'server' ? N_SERVER : N_EMBEDDED));
    out[`${m}_ratio_vs_xml_parse`] = round((out[`articles_per_s_${m}`] as number) / (out.ref_xml_parse_articles_per_s as number), 4);
  }
  corpus.feeds.length = 0;
  corpus.articles.length = 0;
  corpus.events.length = 0;
  if (PUSH_MODE !== 'none') {
    const push = await measurePush(PUSH_MODE, PUSHES);
    for (const [k, v] of Object.entries(push)) out[`push_${k}`] = v;
    // push_p99_ms (the live.push_p99_ms figure) comes from p99_ms above
  }
  return out;
}
