import { describe, expect, it } from 'vitest';
import { BREAKING_DETECTOR, breakingBehaviour, type BreakingDeps, type BreakingMsg, type BreakingReply } from '../../src/actors/breaking/actor.js';
import type { ActiveBreaking } from '../../src/actors/breaking/breaking-set.js';
import { DEFAULT_DETECTOR } from '../../src/actors/breaking/detect.js';
import type { BreakingRow, RecentArticle } from '../../src/actors/store/breaking.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { ActorSystem } from '../../src/runtime/system.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 5, 1, 12);
const REGION: Record<string, string> = { AU: 'apac', FR: 'eu' };

/**
 * The detector actor on the real runtime with a ManualClock, its effects recorded in memory:
 * the articles table is an array, the breaking table a map (the SQL behind them has its own
 * tests through the node), announcements and accelerations are logs.
 */
function world(opts: { rows?: Map<string, BreakingRow>; failLoads?: { n: number }; articles?: RecentArticle[]; recount?: boolean; start?: number } = {}) {
  const clock = new ManualClock(opts.start ?? T0);
  const system = new ActorSystem({ clock, askTimeoutMs: 60_000 });
  const articles: RecentArticle[] = opts.articles ?? [];
  const rows = opts.rows ?? new Map<string, BreakingRow>();
  const announced: { story: string; active: boolean }[] = [];
  const accelerated: { regions: string[]; until: number }[] = [];
  const saves: string[][] = [];
  const deps: BreakingDeps = {
    cfg: { ...DEFAULT_DETECTOR, cooldownMs: 120 * MIN, accelerateMs: 30 * MIN, accelerateIntervalMs: 2 * MIN },
    now: () => clock.now(),
    loadArticles: async (ids, since) => {
      if (opts.failLoads && opts.failLoads.n > 0) {
        opts.failLoads.n--;
        throw new Error('database away');
      }
      return articles.filter((a) => ids.includes(a.story_id) && a.published_at >= since);
    },
    loadActive: async () => [...rows.values()].filter((r) => r.ended_at === null),
    ...(opts.recount ? { loadRecent: async (since: number, limit: number) => articles.filter((a) => a.ingested_at >= since).reverse().slice(0, limit) } : {}),
    save: async (list) => {
      saves.push(list.map((r) => r.story_id));
      for (const r of list) rows.set(r.story_id, { ...r, since: rows.get(r.story_id)?.since ?? r.since });
    },
    end: async (ids, at) => {
      for (const id of ids) rows.set(id, { ...rows.get(id)!, ended_at: at });
    },
    pruneEnded: async () => {},
    regionOfPlace: (p) => REGION[p] ?? 'global',
    accelerate: async (regions, _interval, until) => (accelerated.push({ regions, until }), 3),
    announce: async (b: ActiveBreaking, active) => void announced.push({ story: b.story, active }),
  };
  system.register(breakingBehaviour(deps));
  system.spawn(BREAKING_DETECTOR);
  let seq = 0;
  const write = (story: string, publishers: number, places: string[] = ['AU']) => {
    seq = articles.length;
    for (let i = 0; i < publishers; i++) {
      articles.push({ id: `a${++seq}`, story_id: story, publisher_id: `p${seq}`, published_at: clock.now() - 1000, ingested_at: clock.now(), entities: [], places });
    }
    system.send<BreakingMsg>(BREAKING_DETECTOR, { type: 'stories', stories: [{ id: story, regions: ['us', 'apac'] }] });
  };
  /** moves the clock and lets the actor finish what the timers started */
  const step = async (ms: number) => {
    await system.idle();
    clock.advance(ms);
    await system.idle();
  };
  const active = async () => ((await system.ask<BreakingReply, BreakingMsg>(BREAKING_DETECTOR, { type: 'active' })) ?? []).map((b) => b.story);
  return { system, clock, rows, announced, accelerated, saves, write, step, active };
}

describe('the BreakingDetector actor', () => {
  it('starts a story breaking once: saved, its region accelerated, announced; a later spike only refreshes it', async () => {
    const w = world();
    w.write('quake', 30);
    await w.step(500);
    expect(await w.active()).toEqual(['quake']);
    expect(w.announced).toEqual([{ story: 'quake', active: true }]);
    // the places name Australia: the publishers of its edition (or topic), for 30 minutes
    expect(w.accelerated).toEqual([{ regions: ['apac'], until: T0 + 500 + 30 * MIN }]);
    expect(w.rows.get('quake')).toMatchObject({ since: T0 + 500, ended_at: null, regions: ['us', 'apac'], signal: 's:quake', publishers: 30 });
    w.write('quake', 10);
    await w.step(MIN);
    expect(w.announced).toHaveLength(1);
    expect(w.accelerated).toHaveLength(1);
    expect(w.rows.get('quake')!.last_spike_at).toBe(T0 + 500 + MIN);
  });

  it('cools a story down two hours after its last spike, and says so', async () => {
    const w = world();
    w.write('quake', 30);
    await w.step(500);
    await w.step(119 * MIN);
    expect(await w.active()).toEqual(['quake']);
    await w.step(MIN);
    expect(await w.active()).toEqual([]);
    expect(w.announced).toEqual([{ story: 'quake', active: true }, { story: 'quake', active: false }]);
    expect(w.rows.get('quake')!.ended_at).not.toBeNull();
  });

  it('ignores a normal story, and a loud one from few publishers', async () => {
    const w = world();
    w.write('small', 6);
    w.write('loud', 3);
    await w.step(500);
    expect(await w.active()).toEqual([]);
    expect(w.announced).toEqual([]);
  });

  it('keeps what it decided across a restart: a story breaking before is not announced again', async () => {
    const rows = new Map<string, BreakingRow>();
    const first = world({ rows });
    first.write('quake', 30);
    await first.step(500);
    expect(first.announced).toHaveLength(1);
    await first.system.shutdown();
    const second = world({ rows });
    expect(await second.active()).toEqual(['quake']);
    second.write('quake', 30);
    await second.step(500);
    expect(second.announced).toEqual([]);
  });

  it('survives the database being away: the stories are counted when it is back', async () => {
    const w = world({ failLoads: { n: 1 } });
    w.write('quake', 30);
    await w.step(500);
    expect(await w.active()).toEqual([]);
    await w.step(5_000);
    expect(await w.active()).toEqual(['quake']);
    expect(w.announced).toEqual([{ story: 'quake', active: true }]);
  });

  it('counts again what was stored lately when it starts (a node taking the shard over), so a burst under way is not forgotten', async () => {
    for (const recount of [false, true]) {
      const articles: RecentArticle[] = [];
      const first = world({ articles });
      // fifteen outlets on Australia under one story: not yet a spike
      first.write('quake-a', 15);
      await first.step(500);
      expect(await first.active()).toEqual([]);
      await first.system.shutdown();
      // the new owner hears of fifteen more under another story; only together do they spike (place AU)
      const second = world({ articles, recount, start: T0 + 1_000 });
      second.write('quake-b', 15);
      await second.step(500);
      expect((await second.active()).length > 0, `recount ${recount}`).toBe(recount);
    }
  });

  it('polls the likely publishers faster once while a story rises halfway to a spike, before any alert', async () => {
    const w = world();
    w.write('quake', 13);
    await w.step(500);
    expect(await w.active()).toEqual([]);
    expect(w.announced).toEqual([]);
    expect(w.accelerated).toEqual([{ regions: ['apac'], until: T0 + 500 + 30 * MIN }]);
    // still rising: not told again
    w.write('quake', 2);
    await w.step(500);
    expect(w.accelerated).toHaveLength(1);
    // then it breaks: announced, and its publishers told again (their deadline moves on)
    w.write('quake', 15);
    await w.step(500);
    expect(await w.active()).toEqual(['quake']);
    expect(w.announced).toEqual([{ story: 'quake', active: true }]);
    expect(w.accelerated).toHaveLength(2);
  });
});
