/**
 * `npm run bench -- story-counts`: what keeping story counts exact costs at the seeds' volume.
 * A scratch PostgreSQL database is bulk-loaded with SQL (generate_series: STORY_COUNTS_ARTICLES
 * articles, default 1.5 M, over three month partitions, in STORY_COUNTS_STORIES stories, default
 * 300 k; the last hour written at 1,400 articles a minute, as 2 M a day). Reported: one pass of the
 * periodic check (recent stories + a 2,000-story slice) and its parts, the passes a whole round of
 * the slices takes, against the reference of checking every story at once (what a full scan each
 * minute would cost); and retention dropping the oldest month with its straddling stories recounted.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { newsMigrations } from '../src/actors/store/migrations.js';
import { applyRetention } from '../src/actors/store/retention.js';
import { StoryCountCheck } from '../src/actors/store/story-count-check.js';
import { driftedStories, storiesWrittenSince, storyIdsAfter } from '../src/actors/store/story-counts.js';
import { databaseNow } from '../src/actors/store/stories.js';
import { migrate } from '../src/runtime/migrate.js';
import { openSql, type Sql } from '../src/runtime/sql.js';
import { PG_ADMIN } from './fixtures/scratch-stores.js';

type Figures = Record<string, number | string | boolean>;

const ARTICLES = Number(process.env.STORY_COUNTS_ARTICLES ?? 1_500_000);
const STORIES = Number(process.env.STORY_COUNTS_STORIES ?? 300_000);
const DAY = 86_400_000;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Articles over the 60 days before now (three month partitions), the newest hour at 1,400 a
 * minute; a story's articles lie within two days (30 blocks of stories, each of two days of
 * articles), so the stories a month boundary splits are the few of one block, as with real news.
 */
async function load(sql: Sql, now: number): Promise<void> {
  const from = now - 60 * DAY;
  for (let m = 0; m <= 3; m++) {
    const d = new Date(from);
    await sql.query('SELECT ensure_articles_partition($1::timestamptz)', [new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + m, 1)).toISOString()]);
  }
  const recent = 84_000; // the last hour at 1,400 a minute
  const chunk = 250_000;
  for (let lo = 1; lo <= ARTICLES; lo += chunk) {
    const hi = Math.min(ARTICLES, lo + chunk - 1);
    // published evenly over the 60 days (article 1 oldest); written when published, the newest hour
    // at 1,400 a minute; its story one of its two-day block's; one publisher in 2,000
    await sql.query(
      `INSERT INTO articles (id, url, url_hash, title, publisher_id, published_at, ingested_at, story_id, category, region)
       SELECT 'a' || i, 'https://p' || (i % 2000) || '.example/' || i, md5(i::text), 'Headline number ' || i, 'p' || (i % 2000),
              to_timestamp(($3::float8 + ($4::float8 - $3::float8) * i / $5) / 1000),
              CASE WHEN i > $5 - $6 THEN to_timestamp(($4::float8 - ($5 - i) * 60000.0 / 1400) / 1000)
                   ELSE to_timestamp(($3::float8 + ($4::float8 - $3::float8) * i / $5) / 1000) END,
              's' || lpad(((i / $7) * $8 + i % $8)::text, 7, '0'), 'world', 'us'
         FROM generate_series($1::int, $2::int) AS i`,
      [lo, hi, from, now, ARTICLES, recent, Math.ceil(ARTICLES / 30), Math.ceil(STORIES / 30)],
    );
  }
  await sql.query(
    `INSERT INTO stories (id, title, article_count, publisher_count, first_seen, updated_at, category, score)
     SELECT story_id, 'Story ' || story_id, count(*), count(DISTINCT publisher_id), min(published_at), max(published_at), 'world', 0
       FROM articles GROUP BY story_id`,
  );
  await sql.query('VACUUM ANALYZE articles');
  await sql.query('VACUUM ANALYZE stories');
}

export async function run(): Promise<Figures> {
  const quiet = loadavg()[0]! < 0.5;
  const name = `newsagg_bench_counts_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  const sql = await openSql({ databaseUrl: u.href, dataDir: '' });
  try {
    await migrate(sql, newsMigrations);
    const now = Date.now();
    const loaded = await timed(() => load(sql, now));
    console.log(`  loaded ${ARTICLES} articles in ${STORIES} stories in ${Math.round(loaded.ms / 1000)} s`);

    // a few stories off by one, as a bug or a race would leave them (some recent, some not)
    await sql.query(`UPDATE stories SET article_count = article_count + 1 WHERE id IN ('s0000007', 's0150001', 's0299999')`);

    // the parts of one pass, then whole passes
    const dbNow = await databaseNow(sql);
    const recent = await timed(() => storiesWrittenSince(sql, dbNow - 6 * 60_000, 20_000));
    const slice = await timed(() => storyIdsAfter(sql, 's0100000', 2_000));
    const compare = await timed(() => driftedStories(sql, [...new Set([...recent.value, ...slice.value])]));
    const check = new StoryCountCheck({ sql });
    const passes: number[] = [];
    let repaired = 0;
    let rounds = 0;
    for (let wrapped = false; !wrapped; rounds++) {
      const p = await timed(() => check.pass());
      passes.push(p.ms);
      repaired += p.value.repaired.length;
      wrapped = p.value.wrapped;
    }
    // the reference: every story compared at once
    const full = await timed(() =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM stories s
           LEFT JOIN (SELECT story_id, count(*)::int AS n, count(DISTINCT publisher_id)::int AS p FROM articles GROUP BY story_id) c ON c.story_id = s.id
          WHERE s.article_count <> COALESCE(c.n, 0) OR s.publisher_count <> COALESCE(c.p, 0)`,
      ),
    );

    // retention: the oldest month goes; its stories that have later articles are recounted
    const oldest = new Date(now - 60 * DAY);
    const cutoff = Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth() + 1, 1);
    const retention = await timed(() => applyRetention(sql, cutoff, now));

    return {
      articles: ARTICLES,
      stories: STORIES,
      load_s: loaded.ms / 1000,
      pass_ms_median: median(passes),
      pass_ms_max: Math.max(...passes),
      pass_recent_stories: recent.value.length,
      pass_recent_ms: recent.ms,
      pass_slice_ms: slice.ms,
      pass_compare_ms: compare.ms,
      passes_per_round: rounds,
      repaired_in_round: repaired,
      full_check_ms: full.ms,
      full_check_found: full.value.rows[0]!.n,
      pass_vs_full_check: median(passes) / full.ms,
      retention_ms: retention.ms,
      retention_partitions: retention.value.partitions.length,
      retention_recounted: retention.value.recounted,
      quiet,
    };
  } finally {
    await sql.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then((f) => console.log(f), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
