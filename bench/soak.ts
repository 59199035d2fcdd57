/**
 * Soak (`npm run bench -- soak`): minutes of ingest from publishers on the loopback network while
 * faults are injected on a schedule, against the node's own PostgreSQL and Redis (ports 18150 and
 * 18151, made here and thrown away after).
 *
 * - The node runs in its own process (bench/fixtures/soak-node.ts: the components of `newsagg
 *   start`, polling every 10-60 s instead of minutes, windows of a few minutes so their state
 *   turns over within the run) and is killed with SIGKILL when the schedule says.
 * - 80 feeds on 8 loopback hosts publish NEWSAGG_BENCH_SOAK_RATE articles/s between them and
 *   honour ETag/If-Modified-Since (a publisher that moved its validators on too early would never
 *   see its articles again).
 * - Faults, at fractions of the run: poison items (NUL and lone-surrogate character references,
 *   raw control characters, a 100 KB title, a 300 KB body), kill -9 and restart, Redis FLUSHALL,
 *   PostgreSQL restarted (pg_ctl restart -m fast), kill -9 and restart again.
 * - Then publishing stops and the node gets time to settle.
 *
 * Reported: articles published and stored (poison items among them: all of them are storable once
 * cleaned), lost, stored twice, story counts that differ from their rows, what was set aside; the node's largest heap and the growth of its post-GC heap
 * floor over its longest life; per fault, the seconds until /readyz answers 200, until an article
 * is stored again, until the top feed shows 10 stories again, and the largest of those (recovery).
 * Targets: 0 lost, 0 duplicated, heap flat within 10 %, recovery <= 30 s.
 *
 * NEWSAGG_BENCH_SOAK_MINUTES (default 8), NEWSAGG_BENCH_SOAK_RATE (default 10 articles/s),
 * NEWSAGG_BENCH_SOAK_SETTLE_S (default 240), NEWSAGG_BENCH_SOAK_FAULTS (a comma-separated subset of
 * poison, kill, redis_flush, postgres_restart; default all, at their places in the schedule).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FeedFarm, type FarmFeed } from '../test/helpers/feed-farm.js';
import { SoakPostgres, SoakRedis, soakServicesMissing } from './fixtures/soak-services.js';

type Figures = Record<string, number | string | boolean>;

const env = process.env;
const MINUTES = Number(env.NEWSAGG_BENCH_SOAK_MINUTES ?? 8);
const RATE = Number(env.NEWSAGG_BENCH_SOAK_RATE ?? 10);
const SETTLE_S = Number(env.NEWSAGG_BENCH_SOAK_SETTLE_S ?? 240);
const PG_PORT = 18150;
const REDIS_PORT = 18151;
const NODE_PORT = 18152;
/** /metrics (the heap samples) is behind the admin token */
const ADMIN_TOKEN = 'soak-bench-admin-token-0123456789';
const ROOT = new URL('../', import.meta.url).pathname;
const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

interface Sample {
  t: number;
  life: number;
  ready: boolean;
  stored: number | null;
  feedItems: number | null;
  /** stories in the global top feed's sorted set in Redis */
  topStories: number | null;
  heap: number | null;
  /** why /readyz or the feed page was not answering: failed readiness checks, or the HTTP status / 'no answer' */
  why: string[];
}

type FaultKind = 'poison' | 'kill' | 'redis_flush' | 'postgres_restart';

class SoakNode {
  child: ChildProcess | null = null;
  lives = 0;

  constructor(private readonly args: string[]) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fixtures/soak-node.ts', ...this.args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.lives++;
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/listening on http/.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`soak node exited (${code}) before listening: ${err}`)));
    });
  }

  async kill(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<number | null> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return c?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

async function probe(base: string, db: pg.Pool, redis: SoakRedis): Promise<Omit<Sample, 't' | 'life'>> {
  const get = async (path: string): Promise<{ status: number; text: string } | null> => {
    try {
      const r = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(3_000), headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      return { status: r.status, text: await r.text() };
    } catch {
      return null;
    }
  };
  const [ready, metrics, feed, stored, topStories] = await Promise.all([
    get('/readyz'),
    get('/metrics'),
    get('/v1/feed?limit=20'),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM articles').then((r) => r.rows[0]!.n, () => null),
    redis.zcard('feed:global:top').catch(() => null),
  ]);
  const heap = metrics ? /^newsagg_nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(metrics.text) : null;
  let feedItems: number | null = null;
  if (feed?.status === 200) {
    try {
      feedItems = ((JSON.parse(feed.text) as { items?: unknown[] }).items ?? []).length;
    } catch {
      feedItems = null;
    }
  }
  const why: string[] = [];
  if (ready?.status !== 200) {
    let failed: string[] = [];
    try {
      failed = ((JSON.parse(ready?.text ?? '{}') as { failed?: string[] }).failed ?? []).map((c) => `readyz:${c}`);
    } catch {
      failed = [];
    }
    why.push(...(failed.length > 0 ? failed : [`readyz:${ready ? ready.status : 'no answer'}`]));
  }
  if (feed?.status !== 200) why.push(`feed:${feed ? feed.status : 'no answer'}`);
  return { ready: ready?.status === 200, stored, feedItems, topStories, heap: heap ? Number(heap[1]) : null, why };
}

/** Poison items on a few feeds: text a database refuses, raw control characters, a huge title, a huge body. */
function publishPoison(farm: FeedFarm, feeds: FarmFeed[], now: number): number {
  const kinds: ((s: string) => { xmlTitle?: string; title?: string; link?: string })[] = [
    (s) => ({ xmlTitle: `Storm&#0; hits the coast ${s}` }),
    (s) => ({ xmlTitle: `Rocket &#xD800; launch &#xDC00; delayed ${s}` }),
    (s) => ({ xmlTitle: `Market\u0007 report\u001b today ${s}` }),
    (s) => ({ title: `Huge headline ${s} ${'word '.repeat(20_000)}` }),
    (s) => ({ title: `Long body ${s}`, description: `A body of text. ${'More of the same text. '.repeat(14_000)}` }),
  ];
  feeds.forEach((f, i) => farm.publish(f, 1, now, (it) => kinds[i % kinds.length]!(it.guid)));
  return feeds.length;
}

export async function run(): Promise<Figures> {
  const missing = soakServicesMissing();
  if (missing) return { skipped: missing };
  const load = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-soak-'));
  // the postgres user (as which the cluster runs when we are root) must reach its directory inside
  chmodSync(dir, 0o755);
  const pgs = new SoakPostgres(join(dir, 'pg'), PG_PORT);
  const redis = new SoakRedis(REDIS_PORT);
  const farm = await new FeedFarm({ hosts: 8, feedsPerHost: 10, keep: 200, seed: 'soak' }).start();
  let node: SoakNode | null = null;
  let db: pg.Pool | null = null;
  try {
    await pgs.start();
    await redis.start();
    db = new pg.Pool({ connectionString: pgs.url, max: 3 });
    db.on('error', () => {});
    // the node migrates at start; publishers are added once the schema is there
    node = new SoakNode([
      '--port', String(NODE_PORT), '--host', '127.0.0.1', '--admin-token', ADMIN_TOKEN, '--data-dir', join(dir, 'node'), '--database-url', pgs.url, '--redis-url', redis.url,
      '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'error', '--dedup-window-hours', '0.05', '--active-window-hours', '0.05',
    ]);
    await node.start();
    const base = `http://127.0.0.1:${NODE_PORT}`;
    await db.query(
      `INSERT INTO publishers (id, name, feed_url) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
      [farm.feeds.map((_, i) => `soak-${i}`), farm.feeds.map((f) => `Soak ${f.name}`), farm.feeds.map((f) => f.url)],
    );
    // publishers added behind the node's back start on its next start: restart it once, cleanly
    await node.stop();
    await node.start();

    const t0 = Date.now();
    const durationMs = MINUTES * 60_000;
    const samples: Sample[] = [];
    const faults: { kind: FaultKind; at: number; tookMs: number }[] = [];
    let poison = 0;
    let publishing = true;
    let carry = 0;
    const publisher = setInterval(() => {
      if (!publishing) return;
      carry += RATE / 10;
      for (; carry >= 1; carry--) farm.publish(farm.feeds[Math.floor(Math.random() * farm.feeds.length)]!, 1, Date.now());
    }, 100);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = await probe(base, db!, redis);
        samples.push({ t: Date.now() - t0, life: node!.lives, ...s });
        await new Promise((r) => setTimeout(r, 1_000));
      }
    })();

    const only = (env.NEWSAGG_BENCH_SOAK_FAULTS ?? '').split(',').filter(Boolean);
    const schedule = ([[0.15, 'poison'], [0.3, 'kill'], [0.5, 'redis_flush'], [0.65, 'postgres_restart'], [0.8, 'kill']] as [number, FaultKind][]).filter(
      ([, kind]) => only.length === 0 || only.includes(kind),
    );
    for (const [frac, kind] of schedule) {
      const wait = t0 + frac * durationMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const at = Date.now() - t0;
      const start = Date.now();
      if (kind === 'poison') poison = publishPoison(farm, farm.feeds.slice(0, 10), Date.now());
      else if (kind === 'kill') {
        await node.kill();
        await node.start();
      } else if (kind === 'redis_flush') await redis.flushAll();
      else pgs.ctl('restart');
      faults.push({ kind, at, tookMs: Date.now() - start });
    }
    const left = t0 + durationMs - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    publishing = false;
    clearInterval(publisher);
    const publishedAt = Date.now() - t0;

    // settle: every article published (and storable) stored, or the time is up
    const published = [...farm.published];
    const missingOf = async () => {
      const { rows } = await db!.query<{ url: string }>('SELECT url FROM unnest($1::text[]) AS u(url) WHERE NOT EXISTS (SELECT 1 FROM articles a WHERE a.url = u.url)', [published]);
      return rows.map((r) => r.url);
    };
    let lost = await missingOf();
    const settleEnd = Date.now() + SETTLE_S * 1000;
    while (lost.length > 0 && Date.now() < settleEnd) {
      await new Promise((r) => setTimeout(r, 5_000));
      lost = await missingOf().catch(() => lost);
    }
    const settledMs = Date.now() - t0 - publishedAt;
    sampling = false;
    await sampler;

    const totals = (await db.query<{ n: number; hashes: number; urls: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT url_hash)::int AS hashes, count(DISTINCT url)::int AS urls FROM articles',
    )).rows[0]!;
    const drift = (await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stories s
        WHERE s.article_count <> (SELECT count(*) FROM articles a WHERE a.story_id = s.id)
           OR s.publisher_count <> (SELECT count(DISTINCT publisher_id) FROM articles a WHERE a.story_id = s.id)`,
    )).rows[0]!.n;
    const rejected = (await db.query<{ reason: string; n: number }>('SELECT reason, count(*)::int AS n FROM rejected_articles GROUP BY reason')).rows;
    const poisonStored = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM articles WHERE title ~ '^(Storm|Rocket|Market|Huge headline|Long body)'")).rows[0]!.n;
    const exitCode = await node.stop();

    const out: Figures = {
      load_average_at_start: round(load, 2),
      quiet: load < 0.5,
      minutes: MINUTES,
      rate_per_s: RATE,
      articles_published: published.length,
      articles_stored: totals.urls,
      rows: totals.n,
      lost: lost.length,
      stored_twice: totals.n - totals.hashes,
      story_count_drift: drift,
      settle_seconds: round(settledMs / 1000),
      poison_published: poison,
      poison_stored: poisonStored,
      rejected_by_reason: rejected.map((r) => `${r.reason}:${r.n}`).join(',') || 'none',
      clean_exit_code: exitCode ?? 'none',
      node_lives: node.lives,
    };
    if (lost.length) out.lost_examples = lost.slice(0, 3).join(' ');

    // heap: the largest seen, and over the node's longest life the post-GC floor (the least heap
    // in each 30 s) in its second half against its first, after a minute of warm-up
    const heaps = samples.filter((s) => s.heap !== null);
    out.heap_largest_mb = round(Math.max(0, ...heaps.map((s) => s.heap!)) / 2 ** 20);
    const byLife = new Map<number, Sample[]>();
    for (const s of heaps) byLife.set(s.life, [...(byLife.get(s.life) ?? []), s]);
    const longest = [...byLife.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    const warm = longest.filter((s) => s.t - longest[0]!.t >= 60_000);
    if (warm.length >= 60) {
      const floors: number[] = [];
      for (let i = 0; i + 30 <= warm.length; i += 30) floors.push(Math.min(...warm.slice(i, i + 30).map((s) => s.heap!)));
      const half = Math.floor(floors.length / 2);
      const first = Math.max(...floors.slice(0, half));
      const second = Math.max(...floors.slice(half));
      out.heap_longest_life_seconds = round((longest.at(-1)!.t - longest[0]!.t) / 1000);
      out.heap_floor_first_half_mb = round(first / 2 ** 20);
      out.heap_floor_second_half_mb = round(second / 2 ** 20);
      out.heap_floor_growth_pct = round((second / first - 1) * 100);
    }

    // recovery per fault, counted from the fault: until /readyz answers 200, until an article is
    // stored again (more than when the fault's injection ended), until the top feed answers 10
    // stories, and until the global top feed in Redis holds 90 % of the stories it held before
    const before = (at: number) => [...samples].reverse().find((s) => s.t <= at);
    const after = (at: number, from: number, ok: (s: Sample) => boolean): number | null => {
      const hit = samples.find((s) => s.t > from && ok(s));
      return hit ? round((hit.t - at) / 1000) : null;
    };
    const seen = new Map<string, number>();
    let worst = 0;
    // the top feed after a Redis flush refills from new stories only until the cache is rebuilt from PostgreSQL
    let worstOther = 0;
    for (const f of faults) {
      const n = (seen.get(f.kind) ?? 0) + 1;
      seen.set(f.kind, n);
      const name = n > 1 ? `${f.kind}_${n}` : f.kind;
      const end = f.at + f.tookMs;
      const storedThen = before(end)?.stored ?? before(f.at)?.stored ?? 0;
      const topThen = before(f.at)?.topStories ?? 0;
      const ready = after(f.at, f.at, (s) => s.ready);
      const stored = after(f.at, end, (s) => s.stored !== null && s.stored > storedThen);
      const feed = after(f.at, f.at, (s) => (s.feedItems ?? 0) >= 10);
      const top = after(f.at, f.at, (s) => (s.topStories ?? 0) >= 0.9 * topThen);
      out[`fault_${name}_at_s`] = round(f.at / 1000);
      if (f.tookMs > 100) out[`fault_${name}_injection_s`] = round(f.tookMs / 1000);
      out[`fault_${name}_ready_s`] = ready ?? 'never';
      out[`fault_${name}_storing_s`] = stored ?? 'never';
      out[`fault_${name}_feed_page_s`] = feed ?? 'never';
      out[`fault_${name}_top_feed_90pct_s`] = top ?? 'never';
      if (f.kind === 'redis_flush') out[`fault_${name}_top_feed_stories_before`] = topThen;
      // what was failing until the node was ready again (the readiness checks that failed, or the feed's status)
      const upTo = ready === null ? Infinity : f.at + ready * 1000;
      const causes = new Set(samples.filter((s) => s.t > f.at && s.t <= upTo).flatMap((s) => s.why));
      if (causes.size > 0) out[`fault_${name}_not_ready_because`] = [...causes].join(' ');
      const parts = [ready, stored, feed, top];
      const rec = parts.some((x) => x === null) ? Infinity : Math.max(...(parts as number[]));
      out[`fault_${name}_recovery_s`] = Number.isFinite(rec) ? rec : 'never';
      if (rec > worst) worst = rec;
      if (f.kind !== 'redis_flush' && rec > worstOther) worstOther = rec;
    }
    out.recovery_worst_except_redis_flush_s = Number.isFinite(worstOther) ? worstOther : 'never';
    out.recovery_worst_s = Number.isFinite(worst) ? worst : 'never';
    // flat: the post-GC floor grew by at most 10 % (a floor that falls is no leak)
    out.targets_met = lost.length === 0 && totals.n === totals.hashes && Number.isFinite(worst) && worst <= 30 && Number(out.heap_floor_growth_pct ?? 0) <= 10;
    return out;
  } finally {
    await node?.kill().catch(() => {});
    await db?.end().catch(() => {});
    await redis.stop().catch(() => {});
    try {
      pgs.ctl('stop');
    } catch {
      /* not running */
    }
    await farm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
