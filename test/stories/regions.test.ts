import { describe, expect, it } from 'vitest';
import type { Entity } from '../../src/actors/enrich/entities.js';
import { StoryClusterer } from '../../src/actors/stories/clusterer.js';
import { editions } from '../../src/actors/stories/editions.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { feedsByRegion, feedScore, HOME_BONUS } from '../../src/actors/store/feed-items.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';

const T0 = Date.UTC(2026, 4, 2, 12);
let seq = 0;

/** A story of `n` reports: where each says it happened, and the edition of each publisher. */
function story(reports: { places: string[]; region: string }[]) {
  const c = new StoryClusterer({ background: false });
  let id = '';
  for (const r of reports) {
    seq++;
    const a = { id: `r${seq}`, url: `https://x${seq}.example/`, title: 'Harbour Rangers beat Bay Wolves 2-1 in the final', publisher: `pub${seq}`, published_at: T0 + seq * 60_000 };
    const entities: Entity[] = [{ name: 'Harbour Rangers', type: 'org' }, { name: 'Bay Wolves', type: 'org' }];
    id = c.add(a, { entities, places: r.places, category: 'sports', region: r.region }).storyId;
  }
  return c.get(id)!;
}

const reports = (n: number, r: { places: string[]; region: string }) => Array.from({ length: n }, () => r);

describe('a story\'s editions: where it happened, and who covers it, weighted', () => {
  it.each<[string, { places: string[]; region: string }[], string[], string[]]>([
    // name, reports, editions, home editions
    ['a Manila match one UK outlet among ten covered', [...reports(9, { places: ['PH'], region: 'apac' }), { places: ['PH'], region: 'uk' }], ['apac'], ['apac']],
    ['a London story told by US outlets', reports(4, { places: ['GB'], region: 'us' }), ['uk', 'us'], ['uk']],
    ['a story without places from one UK outlet', reports(1, { places: [], region: 'uk' }), ['uk'], []],
    ['coverage split between two editions', [...reports(2, { places: [], region: 'us' }), ...reports(2, { places: [], region: 'eu' })], ['us', 'eu'], []],
    ['a place named in passing by one report of eight', [...reports(7, { places: ['FR'], region: 'eu' }), { places: ['FR', 'JP'], region: 'eu' }], ['eu'], ['eu']],
  ])('%s', (_name, rs, regions, home) => {
    const s = story(rs);
    expect(s.article_count).toBe(rs.length);
    expect(s.regions).toEqual(regions);
    expect(s.home_regions).toEqual(home);
  });

  it('weighs by share of articles', () => {
    const counts = new Uint16Array(12);
    counts[3] = 3; // apac: 3 of 10 articles place it there
    counts[6 + 1] = 2; // uk publishers: 2 of 10
    counts[6 + 0] = 3; // us publishers: 3 of 10
    expect(editions(counts, 10)).toEqual({ regions: ['apac', 'us'], home_regions: ['apac'] });
  });

  it('ranks a story higher only in the feeds of its home editions', () => {
    const s = { score: 100, home_regions: ['uk'] };
    expect(feedScore(s, 'uk')).toBe(100 + HOME_BONUS);
    expect(feedScore(s, 'us')).toBe(100);
    expect(feedScore(s, 'global')).toBe(100);
    expect(feedScore({ score: 100 }, 'uk')).toBe(100);
    expect(feedsByRegion({ category: 'sports', regions: ['uk'] }).map((f) => `${f.region} ${f.key}`)).toEqual([
      'global feed:global:top', 'global feed:global:sports', 'uk feed:uk:top', 'uk feed:uk:sports',
    ]);
  });
});

describe('feed cache', () => {
  it('files a story in each of its editions, ranked higher where it happened', async () => {
    const cache = new MemoryCache();
    const item = (id: string, region: string) => ({
      article_id: `a-${id}`, story_id: id, title: id, summary: null, thumbnail_url: null, publisher_id: 'p', publisher_name: 'P', published_at: '2026-05-02T12:00:00Z',
      source_url: 'https://p.example/', click_url: `/r/a-${id}`, category: 'sports', region, coverage_count: 3,
    });
    await publishStories(cache, [
      { item: item('home', 'uk'), publisher_id: 'p1', score: 10, regions: ['uk'], home_regions: ['uk'] },
      { item: item('away', 'uk'), publisher_id: 'p2', score: 11, regions: ['apac', 'uk'], home_regions: ['apac'] },
    ]);
    const order = async (key: string) => (await cache.zrevrangebyscore(key, Infinity, -Infinity, { limit: 10 })).map((r) => `${r.member} ${r.score}`);
    expect(await order('feed:uk:sports')).toEqual([`home ${10 + HOME_BONUS}`, 'away 11']);
    expect(await order('feed:apac:top')).toEqual([`away ${11 + HOME_BONUS}`]);
    expect(await order('feed:global:top')).toEqual(['away 11', 'home 10']);
  });
});
