/**
 * Builds config/publishers/catalogue.json, the catalogue of real news publishers `start
 * --catalogue` and the first-run screen offer, from the awesome-rss-feeds OPML lists
 * (github.com/plenaryapp/awesome-rss-feeds, CC0 1.0) in ../shared/data/awesome-rss-feeds-opml:
 *
 *   npx tsx bench/build-catalogue.ts          (NEWSAGG_DATA overrides the data folder)
 *
 * Kept per feed: its URL, a name, the publisher's country (ISO 3166-1) and edition, and a
 * category where the list files it under one of ours. These are facts about where publishers
 * offer their feeds; the lists are dedicated to the public domain (CC0), and so is the catalogue.
 * No feed content is read or kept. Country lists give a country; the topic lists (recommended/)
 * give a category and no country (the global edition), and only their news topics are kept:
 * hobby, how-to and developer lists are not news. Left out too: feeds of other aggregators
 * (Google News, Reddit: their entries link back to the aggregator, not to a publisher) and of
 * audio and video shows (YouTube channels, podcast hosts: a front page shows written reporting).
 * Names are the site's name, not the feed's title (bench/catalogue-names.ts has the rule and the
 * table of names no rule can tell); the build fails listing every feed it cannot name.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { regionForCountry } from '../src/actors/enrich/gazetteer.js';
import { parseOpml } from '../src/actors/publisher/opml.js';
import type { CatalogueEntry } from '../src/actors/publisher/catalogue.js';
import { CatalogueNameError, siteName } from './catalogue-names.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const DATA = resolve(process.env.NEWSAGG_DATA ?? join(ROOT, '..', 'shared', 'data'), 'awesome-rss-feeds-opml');
const OUT = join(ROOT, 'config', 'publishers', 'catalogue.json');

/** the country lists' file names → ISO 3166-1 alpha-2 */
const COUNTRIES: Record<string, string> = {
  Australia: 'AU', Bangladesh: 'BD', Brazil: 'BR', Canada: 'CA', France: 'FR', Germany: 'DE', 'Hong Kong SAR China': 'HK',
  India: 'IN', Indonesia: 'ID', Iran: 'IR', Ireland: 'IE', Italy: 'IT', Japan: 'JP', Mexico: 'MX', 'Myanmar (Burma)': 'MM',
  Nigeria: 'NG', Pakistan: 'PK', Philippines: 'PH', Poland: 'PL', Russia: 'RU', 'South Africa': 'ZA', Spain: 'ES',
  Ukraine: 'UA', 'United Kingdom': 'GB', 'United States': 'US',
};

/** the topic lists that are news → our category (null: general news) */
const TOPICS: Record<string, string | null> = {
  News: null, 'Business & Economy': 'business', Startups: 'business', Tech: 'technology', Apple: 'technology', Android: 'technology',
  Science: 'science', Space: 'science', Sports: 'sports', Football: 'sports', Cricket: 'sports', Tennis: 'sports',
  Movies: 'entertainment', Music: 'entertainment', Television: 'entertainment', Gaming: 'entertainment',
};

const AGGREGATORS = /(^|\.)(news\.google\.com|reddit\.com)$/i;
const SHOWS = /(^|\.)(youtube\.com|libsyn\.com|libsynpro\.com|megaphone\.fm|acast\.com|art19\.com|simplecast\.com|podbean\.com|soundcloud\.com|spreaker\.com|omnycontent\.com|whooshkaa\.com|gimletmedia\.com|wnyc\.org|tedcdn\.com|relay\.fm|twit\.tv|atp\.fm)$/i;
const SHOW_URL = /podcast|\/p0[0-9a-z]{6}\.rss$/i;


function opmlFiles(dir: string): { file: string; key: string }[] {
  return readdirSync(dir).filter((f) => f.endsWith('.opml')).sort().map((f) => ({ file: join(dir, f), key: f.replace(/\.opml$/, '') }));
}

function main(): void {
  if (!existsSync(DATA)) {
    console.error(`no OPML lists at ${DATA} (set NEWSAGG_DATA)`);
    process.exit(1);
  }
  const out: CatalogueEntry[] = [];
  const seen = new Set<string>();
  const unnamed: string[] = [];
  const add = (e: CatalogueEntry) => {
    const host = new URL(e.feed_url).hostname;
    if (AGGREGATORS.test(host) || SHOWS.test(host) || SHOW_URL.test(e.feed_url) || /podcast/i.test(e.name) || seen.has(e.feed_url)) return;
    seen.add(e.feed_url);
    try {
      out.push({ ...e, name: siteName(e.name, e.feed_url) });
    } catch (err) {
      if (!(err instanceof CatalogueNameError)) throw err;
      unnamed.push(err.message);
    }
  };
  // country lists first: a feed listed under a country keeps it
  for (const { file, key } of opmlFiles(join(DATA, 'countries', 'with_category'))) {
    const country = COUNTRIES[key];
    if (!country) throw new Error(`no ISO code for the country list "${key}"`);
    for (const f of parseOpml(readFileSync(file, 'utf8')).feeds) add({ name: f.name.trim(), feed_url: f.feed_url, country, region: regionForCountry(country), category: null });
  }
  for (const { file, key } of opmlFiles(join(DATA, 'recommended', 'with_category'))) {
    if (!(key in TOPICS)) continue;
    for (const f of parseOpml(readFileSync(file, 'utf8')).feeds) add({ name: f.name.trim(), feed_url: f.feed_url, country: null, region: 'global', category: TOPICS[key]! });
  }
  if (unnamed.length > 0) {
    console.error(`${unnamed.length} feeds without a site name:\n  ${unnamed.join('\n  ')}`);
    process.exit(1);
  }
  const doc = {
    about:
      'Real news publishers by edition: feed URL, the site\'s name (not the feed\'s title: see bench/catalogue-names.ts), ' +
      'country (ISO 3166-1) and edition, category where the source list files the feed under one of ours. Built by bench/build-catalogue.ts from the ' +
      'awesome-rss-feeds OPML lists (github.com/plenaryapp/awesome-rss-feeds @ 9ff012e4, CC0 1.0 public domain dedication); ' +
      'these facts are redistributed here under the same CC0 1.0 terms. No feed content is included.',
    license: 'CC0-1.0',
    source: 'https://github.com/plenaryapp/awesome-rss-feeds/tree/9ff012e43711d715b3415d81dca7ddc0d3483fc5',
    publishers: out,
  };
  // one publisher per line: reviewable diffs when the lists change
  const head = JSON.stringify({ about: doc.about, license: doc.license, source: doc.source }, null, 1).slice(0, -2);
  writeFileSync(OUT, `${head},\n "publishers": [\n${out.map((e) => `  ${JSON.stringify(e)}`).join(',\n')}\n ]\n}\n`);
  const byRegion = new Map<string, number>();
  for (const e of out) byRegion.set(e.region, (byRegion.get(e.region) ?? 0) + 1);
  console.log(`${out.length} publishers -> ${OUT}`, Object.fromEntries([...byRegion].sort()));
}

main();
