import { describe, expect, it } from 'vitest';
import type { ActorContext, Message } from '../../src/runtime/actor.js';
import { silentLogger } from '../../src/runtime/log.js';
import type { AddResult, StoryView } from '../../src/actors/stories/clusterer.js';
import { MemoryStoryStore, storyClusterBehaviour, type StoryClusterMsg } from '../../src/actors/stories/story-cluster.js';

const H = 3_600_000;
const T0 = Date.UTC(2024, 4, 1);

/** A fake context: a settable clock and a record of scheduled timers. */
function fakeContext(clock: { now: number }) {
  const timers: { delay: number; msg: Message; id?: string }[] = [];
  const ctx: ActorContext = {
    self: 'story-cluster/0', kind: 'story-cluster', key: '0', log: silentLogger,
    now: () => clock.now,
    send: () => {}, ask: async () => { throw new Error('not used'); },
    schedule: (delay, msg, id) => { timers.push({ delay, msg, ...(id ? { id } : {}) }); },
    cancelTimer: () => {}, stop: () => {},
  };
  return { ctx, timers };
}

const article = (id: string, title: string, hours: number, extra: Record<string, unknown> = {}) => ({
  id, url: `https://example.com/${id}`, title, publisher: `pub-${id}`, published_at: T0 + hours * H, ...extra,
});

describe('story-cluster actor', () => {
  it('clusters, answers queries, and rebuilds the same stories after a restart', async () => {
    const store = new MemoryStoryStore();
    const behaviour = storyClusterBehaviour({ store });
    const clock = { now: T0 + 3 * H };
    const { ctx, timers } = fakeContext(clock);
    const state = await behaviour.init('0', ctx);
    expect(timers[0]).toMatchObject({ msg: { type: 'sweep' }, id: 'sweep' });

    const send = (msg: StoryClusterMsg) => behaviour.receive(state, msg, ctx);
    const r1 = (await send({ type: 'add', article: article('a1', 'Elephants recognise human voices, study finds', 0) })) as AddResult;
    const r2 = (await send({ type: 'add', article: article('a2', 'Study: elephants can tell human voices apart', 1) })) as AddResult;
    const [r3] = (await send({ type: 'add-batch', items: [{ article: article('a3', 'Parliament passes new budget', 2) }] })) as AddResult[];
    expect(r2.storyId).toBe(r1.storyId);
    expect(r3!.storyId).not.toBe(r1.storyId);
    expect(await send({ type: 'story-of', article_id: 'a2' })).toBe(r1.storyId);
    expect(((await send({ type: 'get', story_id: r1.storyId })) as StoryView).article_count).toBe(2);
    expect(store.stories.get(r1.storyId)?.article_count).toBe(2);

    // restart: init reloads from the store and reaches the same story ids
    const again = await behaviour.init('0', ctx);
    const r4 = (await behaviour.receive(again, { type: 'add', article: article('a4', 'Elephants know human voices, researchers say', 3) }, ctx)) as AddResult;
    expect(r4.storyId).toBe(r1.storyId);
  });

  it('archives idle stories on sweep and still answers for them', async () => {
    const store = new MemoryStoryStore();
    const behaviour = storyClusterBehaviour({ store });
    const clock = { now: T0 };
    const { ctx } = fakeContext(clock);
    const state = await behaviour.init('0', ctx);
    const r = (await behaviour.receive(state, { type: 'add', article: article('b1', 'Bridge reopens after repairs', 0) }, ctx)) as AddResult;
    clock.now = T0 + 50 * H;
    expect(await behaviour.receive(state, { type: 'sweep' }, ctx)).toEqual({ evicted: 1 });
    expect(store.stories.get(r.storyId)?.active).toBe(false);
    expect(await behaviour.receive(state, { type: 'get', story_id: r.storyId }, ctx)).toMatchObject({ id: r.storyId, active: false });
    expect(await behaviour.receive(state, { type: 'get', story_id: 'st_missing' }, ctx)).toBeNull();
  });
});
