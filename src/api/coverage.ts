/**
 * Full Coverage sections of a story page, from the story's articles alone (pure: no I/O, no
 * clock): a timeline of how the story developed, the top coverage, and coverage by region. The
 * sections name articles by id; the articles themselves are in the same response.
 */
import { headlineKey } from '../actors/store/feed-items.js';

/** What the sections read of an article. */
export interface CoverageArticle {
  id: string;
  publisher_id: string;
  /** source authority, 1 = highest; null when unknown */
  publisher_tier: number | null;
  /** the headline as readers see it (no wire slug, no own masthead) */
  display_title: string;
  published_at: string;
  region: string | null;
  thumbnail_url: string | null;
  summary: string | null;
  duplicate_of: string | null;
}

export type { TimelineEntry } from '../actors/model/index.js';
import type { TimelineEntry } from '../actors/model/index.js';

export interface RegionCoverage {
  region: string;
  article_count: number;
  /** a few of the region's articles: originals first, one per publisher, different headlines first, newest first */
  article_ids: string[];
}

export interface CoverageSections {
  timeline: TimelineEntry[];
  /** the strongest other reports: one per publisher, most authoritative first */
  top_coverage: string[];
  by_region: RegionCoverage[];
}

export const TIMELINE_MAX = 6;
export const TOP_COVERAGE_MAX = 5;
export const REGION_ARTICLES_MAX = 3;

const MIN = 60_000;
/** stretches of time a timeline entry may stand for: the smallest that keeps the timeline short wins */
const STEPS = [15 * MIN, 30 * MIN, 60 * MIN, 2 * 60 * MIN, 3 * 60 * MIN, 6 * 60 * MIN, 12 * 60 * MIN, 24 * 60 * MIN, 48 * 60 * MIN, 7 * 24 * 60 * MIN, 30 * 24 * 60 * MIN];

const time = (a: CoverageArticle) => Date.parse(a.published_at);
const byTime = (a: CoverageArticle, b: CoverageArticle) => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The story's development: its articles in publication order, cut into equal stretches of time
 * (the shortest of STEPS that leaves at most `max` non-empty ones), each shown through its first
 * original report whose headline is new to the timeline. The first entry is the first report.
 */
export function timeline(articles: readonly CoverageArticle[], max = TIMELINE_MAX): TimelineEntry[] {
  if (articles.length === 0) return [];
  const sorted = [...articles].sort(byTime);
  const first = time(sorted[0]!);
  const buckets = (step: number): CoverageArticle[][] => {
    const out = new Map<number, CoverageArticle[]>();
    for (const a of sorted) {
      const k = Math.floor((time(a) - first) / step);
      let list = out.get(k);
      if (!list) out.set(k, (list = []));
      list.push(a);
    }
    return [...out.values()];
  };
  let chosen = buckets(STEPS[STEPS.length - 1]!);
  for (const step of STEPS) {
    const b = buckets(step);
    if (b.length <= max) {
      chosen = b;
      break;
    }
  }
  const used = new Set<string>();
  return chosen.slice(0, max).map((list) => {
    const originals = list.filter((a) => a.duplicate_of === null);
    const pick = originals.find((a) => !used.has(headlineKey(a.display_title))) ?? originals[0] ?? list[0]!;
    used.add(headlineKey(pick.display_title));
    return { at: pick.published_at, article_id: pick.id, article_count: list.length };
  });
}

/**
 * The strongest other reports: originals only, one per publisher, the lead's publisher left out;
 * by source authority, then reports with a picture, then with a snippet, then the earliest.
 */
export function topCoverage(articles: readonly CoverageArticle[], leadId: string | null, max = TOP_COVERAGE_MAX): string[] {
  const lead = articles.find((a) => a.id === leadId);
  const ranked = articles
    .filter((a) => a.duplicate_of === null && a.id !== leadId && a.publisher_id !== lead?.publisher_id)
    .sort(
      (a, b) =>
        (a.publisher_tier ?? 2) - (b.publisher_tier ?? 2) ||
        Number(b.thumbnail_url !== null) - Number(a.thumbnail_url !== null) ||
        Number(b.summary !== null) - Number(a.summary !== null) ||
        byTime(a, b),
    );
  const out: string[] = [];
  const publishers = new Set<string>();
  const headlines = new Set<string>(lead ? [headlineKey(lead.display_title)] : []);
  for (const a of ranked) {
    if (out.length >= max) break;
    const h = headlineKey(a.display_title);
    if (publishers.has(a.publisher_id) || headlines.has(h)) continue;
    publishers.add(a.publisher_id);
    headlines.add(h);
    out.push(a.id);
  }
  return out;
}

/**
 * Where the story is covered: every article (wire copies too: a copy in a regional paper is
 * coverage there) by its region, the regions most covered first; articles without a region count
 * as `global`.
 */
export function byRegion(articles: readonly CoverageArticle[], perRegion = REGION_ARTICLES_MAX): RegionCoverage[] {
  const groups = new Map<string, CoverageArticle[]>();
  for (const a of articles) {
    const r = a.region ?? 'global';
    let list = groups.get(r);
    if (!list) groups.set(r, (list = []));
    list.push(a);
  }
  return [...groups]
    .map(([region, list]) => {
      const newest = [...list].sort((a, b) => byTime(b, a));
      const ordered = [...newest.filter((a) => a.duplicate_of === null), ...newest.filter((a) => a.duplicate_of !== null)];
      const ids: string[] = [];
      const publishers = new Set<string>();
      const headlines = new Set<string>();
      // a headline not shown yet first; the region's other publishers' repeats only to fill up
      for (const fresh of [true, false]) {
        for (const a of ordered) {
          if (ids.length >= perRegion) break;
          const h = headlineKey(a.display_title);
          if (publishers.has(a.publisher_id) || (fresh && headlines.has(h))) continue;
          publishers.add(a.publisher_id);
          headlines.add(h);
          ids.push(a.id);
        }
      }
      return { region, article_count: list.length, article_ids: ids };
    })
    .sort((a, b) => b.article_count - a.article_count || a.region.localeCompare(b.region));
}

export function coverageSections(articles: readonly CoverageArticle[], leadId: string | null): CoverageSections {
  return { timeline: timeline(articles), top_coverage: topCoverage(articles, leadId), by_region: byRegion(articles) };
}
