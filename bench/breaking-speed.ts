/**
 * Breaking speed for polled publishers (`npm run bench -- breaking-speed`): how long from an
 * event's first publication until the breaking banner, and until 80 % of its articles are stored,
 * when every publisher is polled (the simulator runs without a WebSub hub, so nothing is pushed).
 *
 * One embedded node in this process (`start --demo --demo-url`: the simulator's publishers as
 * sources, default polling policy and breaking settings) against the publisher simulator in this
 * process, on the real clock. After a warm-up (every publisher polled at least once, their first
 * polls spread over 20 s, then `WARMUP_S` more of normal flow), a burst: `BURST` honest outlets
 * publish on one new event within `WITHIN_S` seconds. Measured against the event's first
 * publication: the breaking story's `since` (the moment the detector flags it and the banner is
 * pushed), and the moment 80 % (and all) of the event's articles are stored. The publishers that
 * covered the event's region or topic in the last day are then polled every 60 s for 30 minutes;
 * `NEWSAGG_BENCH_BREAKING_ACCELERATE=0` runs the same without acceleration (an interval of a day)
 * for the baseline, `NEWSAGG_BENCH_BREAKING_EARLY_SHARE=1` with acceleration only once the story
 * breaks (none while it rises).
 *
 * Sizes: NEWSAGG_BENCH_BREAKING_PUBLISHERS (150), _BURST (40), _WITHIN_S (60), _WARMUP_S (60),
 * _TIMEOUT_S (900: gives up waiting for the 80 % after this long).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalUrl } from '../src/actors/dedup/canonical-url.js';
import { resolveConfig } from '../src/config.js';
import { startNode } from '../src/node.js';
import { componentsFor } from '../src/roles/index.js';
import { startSimulator } from '../src/simulator/index.js';

type Figures = Record<string, number | string | boolean>;
const env = process.env;
const PUBLISHERS = Number(env.NEWSAGG_BENCH_BREAKING_PUBLISHERS ?? 150);
const BURST = Number(env.NEWSAGG_BENCH_BREAKING_BURST ?? 40);
const WITHIN_S = Number(env.NEWSAGG_BENCH_BREAKING_WITHIN_S ?? 60);
const WARMUP_S = Number(env.NEWSAGG_BENCH_BREAKING_WARMUP_S ?? 60);
const TIMEOUT_S = Number(env.NEWSAGG_BENCH_BREAKING_TIMEOUT_S ?? 900);
const ACCELERATE = env.NEWSAGG_BENCH_BREAKING_ACCELERATE !== '0';
const EARLY_SHARE = env.NEWSAGG_BENCH_BREAKING_EARLY_SHARE;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<Figures> {
  const sim = await startSimulator({ publishers: PUBLISHERS, seed: 'breaking-speed', websub: false, rateScale: 4 });
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-bench-breaking-'));
  const config = resolveConfig(
    ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--demo', '--demo-url', sim.url, '--log-level', 'warn', '--workers', '1',
      ...(ACCELERATE ? [] : ['--breaking-accelerate-interval-seconds', '86400']), ...(EARLY_SHARE ? ['--breaking-early-share', EARLY_SHARE] : [])],
    {},
  );
  const node = await startNode(config, { components: componentsFor(config) });
  const count = async (q: string, params: unknown[] = []) => (await node.sql.query<{ n: number }>(q, params)).rows[0]!.n;
  try {
    // warm-up: every publisher polled once, then normal flow for a while (the detector's baseline)
    const t0 = Date.now();
    while (Date.now() - t0 < 120_000 && (await count('SELECT count(*)::int AS n FROM publishers WHERE last_polled_at IS NOT NULL')) < PUBLISHERS) await sleep(1_000);
    const polled = await count('SELECT count(*)::int AS n FROM publishers WHERE last_polled_at IS NOT NULL');
    await sleep(WARMUP_S * 1000);
    const before = await count('SELECT count(*)::int AS n FROM articles');

    const outlets = sim.publishers.filter((p) => p.kind === 'outlet' && p.behaviour === 'ok').map((p) => p.id);
    const burst = sim.burst({ publishers: outlets.slice(0, BURST), withinMs: WITHIN_S * 1000 });
    const first = Math.min(...burst.schedule.map((s) => s.at));
    let urls: string[] = [];
    let banner: number | null = null;
    let at80: number | null = null;
    let atAll: number | null = null;
    let lastSaid = Date.now();
    const deadline = Date.now() + TIMEOUT_S * 1000;
    while (Date.now() < deadline) {
      await sleep(250);
      // stored under their link, or its canonical form
      if (urls.length < 2 * burst.schedule.length) urls = sim.truth().items.filter((i) => i.event_id === burst.event_id).flatMap((i) => [i.url, canonicalUrl(i.url)]);
      if (urls.length === 0) continue;
      const stored = await count('SELECT count(DISTINCT url_hash)::int AS n FROM articles WHERE url = ANY($1::text[])', [urls]);
      if (banner === null) {
        const { rows } = await node.sql.query<{ since: number }>(
          `SELECT (extract(epoch from since) * 1000)::float8 AS since FROM breaking_stories
            WHERE story_id IN (SELECT story_id FROM articles WHERE url = ANY($1::text[]) AND story_id IS NOT NULL) ORDER BY since LIMIT 1`,
          [urls],
        );
        if (rows[0]) banner = rows[0].since;
      }
      const now = Date.now();
      if (now - lastSaid >= 30_000) {
        lastSaid = now;
        const since = await count('SELECT count(*)::int AS n FROM articles') - before;
        console.log(`  ${Math.round((now - first) / 1000)} s after the first publication: ${stored}/${burst.schedule.length} stored (${since} articles of any event since the burst), banner ${banner === null ? 'not yet' : `at ${Math.round((banner - first) / 1000)} s`}`);
      }
      if (at80 === null && stored >= 0.8 * burst.schedule.length) at80 = now;
      if (atAll === null && stored >= burst.schedule.length) atAll = now;
      if (banner !== null && atAll !== null) break;
      if (banner !== null && at80 !== null && now - at80 > 120_000) break;
    }
    const metrics = await (await fetch(`${node.url}/metrics`)).text();
    const accelerated = Number(/^newsagg_breaking_accelerated_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    const secs = (t: number | null) => (t === null ? -1 : Math.round((t - first) / 100) / 10);
    return {
      accelerate: ACCELERATE,
      early_share: config.breakingEarlyShare,
      publishers: PUBLISHERS,
      publishers_polled_before_burst: polled,
      articles_before_burst: before,
      burst_outlets: BURST,
      burst_within_s: WITHIN_S,
      event_articles: burst.schedule.length,
      first_publication_to_banner_s: secs(banner),
      first_publication_to_80pct_stored_s: secs(at80),
      first_publication_to_all_stored_s: secs(atAll),
      publishers_accelerated: accelerated,
    };
  } finally {
    await node.stop().catch(() => undefined);
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// run directly (`npx tsx bench/breaking-speed.ts`): print the figures (the baseline run, without touching latest.json)
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, 'bench/'))) {
  run().then((f) => console.log(JSON.stringify(f, null, 2)), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
