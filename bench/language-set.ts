/**
 * A labelled multilingual headline set, built at run time from NEWSAGG_DATA (nothing copied into
 * the repo): English headlines of AG News, BBC, the UCI sample, Reuters-21578 (upper case, as the
 * wire sent them) and ECB+ leads; headlines of the real RSS snapshots, labelled by the language
 * their feed declares, or for the few feeds that declare none by what the file is (listed below by
 * file name). Each row also carries the publisher-level prior a real aggregator would have.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseFeed } from '../src/actors/feed/parse.js';
import { parseCsv } from './train-topics.js';

export interface LangRow {
  text: string;
  /** ISO 639-1 */
  lang: string;
  /** where it came from (reported per source) */
  source: string;
  /** the language the feed itself declares (null when it declares none) */
  declared: string | null;
}

/** feeds of the snapshots that declare no language, labelled by what they are */
const UNDECLARED: Record<string, string> = {
  'node-feedparser_fixtures/compressed__': 'ru',
  'node-feedparser_fixtures/iconv__': 'ru',
  'miniflux_fixtures/no_encoding_ISO-8859-1__': 'fr',
  'miniflux_fixtures/rdf_UTF8__': 'de',
  'news-aggregator-bootcamp_snapshots/pravda__': 'uk',
  'news-aggregator-bootcamp_snapshots/cbsnews__': 'en',
  'news-aggregator-bootcamp_snapshots/nytimes__': 'en',
  'news-aggregator-bootcamp_snapshots/abcnews-': 'en',
  'news-aggregator-bootcamp_snapshots/bbc-world-': 'en',
  'news-aggregator-bootcamp_snapshots/washingtontimes-': 'en',
};

const NON_LATIN = new Set(['ru', 'uk', 'bg', 'sr', 'el', 'ar', 'fa', 'ur', 'he', 'zh', 'ja', 'ko', 'hi', 'bn', 'kn', 'ta', 'te', 'ml', 'th']);

function feedRows(dir: string): LangRow[] {
  const root = join(dir, 'rss-feeds');
  const manifest = parseCsv(readFileSync(join(root, 'manifest.csv'), 'utf8')).slice(1);
  const rows: LangRow[] = [];
  const seen = new Set<string>();
  for (const m of manifest) {
    const file = m[0]!;
    let parsed;
    try {
      parsed = parseFeed(readFileSync(join(root, file)), { baseUrl: 'https://example.com/' });
    } catch {
      continue;
    }
    const declared = parsed.feed.language?.trim() || null;
    const base = declared?.toLowerCase().split(/[-_]/)[0] ?? null;
    const label = base ?? Object.entries(UNDECLARED).find(([prefix]) => file.startsWith(prefix))?.[1];
    if (!label) continue;
    // a feed declaring a language of another script (a Kannada portal's English section) mislabels
    // headlines written wholly in Latin letters: those are labelled English
    const nonLatin = NON_LATIN.has(label);
    for (const e of parsed.entries) {
      const t = e.title?.trim();
      // snapshots repeat headlines; one row per headline
      if (!t || t.length < 4 || seen.has(t)) continue;
      seen.add(t);
      const lang = nonLatin && !/[^\x00-\u024f\u2000-\u206f]/.test(t) ? 'en' : label;
      rows.push({ text: t, lang, source: `feeds-${lang === 'en' ? 'en' : 'other'}`, declared });
    }
  }
  return rows;
}

/** Every labelled headline; null when the data folder is missing. */
export function languageRows(dir: string): LangRow[] | null {
  if (!existsSync(join(dir, 'rss-feeds/manifest.csv'))) return null;
  const rows: LangRow[] = [];
  const ag = parseCsv(readFileSync(resolve(dir, 'ag-news/ag_news_dev.csv'), 'utf8'));
  for (const r of ag) if (r[1]) rows.push({ text: r[1], lang: 'en', source: 'ag', declared: null });
  for (const line of readFileSync(resolve(dir, 'bbc-news/bbc_news_dev.jsonl'), 'utf8').split('\n')) {
    if (line.trim()) rows.push({ text: (JSON.parse(line) as { title: string }).title, lang: 'en', source: 'bbc', declared: null });
  }
  const uci = parseCsv(readFileSync(resolve(dir, 'uci-news/uci_sample_dev.csv'), 'utf8')).slice(1);
  for (const r of uci) if (r[1]) rows.push({ text: r[1], lang: 'en', source: 'uci', declared: null });
  let k = 0;
  for (const line of readFileSync(resolve(dir, 'reuters-21578/reuters21578.jsonl'), 'utf8').split('\n')) {
    // every fifth titled story: 4,000 upper-case wire headlines are plenty
    if (!line.trim() || k++ % 5 !== 0) continue;
    const t = (JSON.parse(line) as { title: string }).title;
    if (t) rows.push({ text: t, lang: 'en', source: 'reuters', declared: null });
  }
  for (const line of readFileSync(resolve(dir, 'ecb-plus/ecbplus_dev.jsonl'), 'utf8').split('\n')) {
    if (line.trim()) rows.push({ text: (JSON.parse(line) as { lead: string }).lead, lang: 'en', source: 'ecb', declared: null });
  }
  rows.push(...feedRows(dir));
  return rows;
}
