import type { TrendingStory } from '../../actors/store/trending.js';

/**
 * Trending as pure maths over the window's signals: a story trends when many distinct publishers
 * took it up recently (coverage velocity: each publisher counts by how recently it joined) and
 * readers click it (each reader once, by how recently), damped by the time since the story last
 * moved. Clicks amplify coverage rather than add to it, so a story no publisher took up lately
 * cannot trend on clicks alone (clicks are easier to fake than publishers). The per-publisher and
 * per-reader decays are summed where the rows are (store/trending.ts, with these half-lives);
 * this combines them. The clock is injected.
 */
export interface TrendingPolicy {
  /** how long a publisher's joining counts fully, halving after (default 2 h) */
  velocityHalfLifeMs: number;
  /** the same for a reader's click (default 2 h) */
  clickHalfLifeMs: number;
  /** how fast a story that stopped moving cools (default 6 h) */
  recencyHalfLifeMs: number;
  /** the coverage velocity is multiplied by 1 + clickWeight × log2(1 + clicks) (default 0.5) */
  clickWeight: number;
}

export const DEFAULT_TRENDING: TrendingPolicy = {
  velocityHalfLifeMs: 2 * 3_600_000,
  clickHalfLifeMs: 2 * 3_600_000,
  recencyHalfLifeMs: 6 * 3_600_000,
  clickWeight: 0.5,
};

export interface Trend {
  id: string;
  score: number;
  regions: readonly string[];
}

const decay = (ageMs: number, half: number) => Math.pow(0.5, Math.max(0, ageMs) / half);

/** What one distinct publisher (or reader) adds to velocity (or clicks) at `ageMs`: the store's sum term. */
export function decayedOne(ageMs: number, halfLifeMs: number): number {
  return decay(ageMs, halfLifeMs);
}

/** Every story's trend score, highest first (ties by id); stories with no score are left out. */
export function trendScores(stories: readonly TrendingStory[], now: number, p: TrendingPolicy = DEFAULT_TRENDING): Trend[] {
  const out: Trend[] = [];
  for (const s of stories) {
    const score = s.velocity * (1 + p.clickWeight * Math.log2(1 + s.clicks)) * decay(now - s.updated_ms, p.recencyHalfLifeMs);
    if (score > 0) out.push({ id: s.id, score: Math.round(score * 1e4) / 1e4, regions: Array.isArray(s.regions) ? s.regions : [] });
  }
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The top `n` per edition (`global` = every story), from trends sorted highest first. */
export function topByRegion(trends: readonly Trend[], regions: readonly string[], n: number): Map<string, Trend[]> {
  const out = new Map<string, Trend[]>(regions.map((r) => [r, []]));
  for (const t of trends) {
    const g = out.get('global');
    if (g && g.length < n) g.push(t);
    for (const r of t.regions) {
      const list = out.get(r);
      if (list && r !== 'global' && list.length < n) list.push(t);
    }
  }
  return out;
}
