import { describe, expect, it } from 'vitest';
import { DECISION_TTL_MS } from '../../src/actors/ingest/decision-time.js';
import type { ActorContext, Message } from '../../src/runtime/actor.js';
import { silentLogger } from '../../src/runtime/log.js';
import type { AddResult, StoryView } from '../../src/actors/stories/clusterer.js';
import { MemoryStoryStore, ORIGINAL_UNKNOWN, storyClusterBehaviour, type ClusterBatchReply, type ClusteredArticle, type ClusterItem, type StoryClusterMsg, type StoryStore } from '../../src/actors/stories/story-cluster.js';

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
  it('clusters, answers with the stories it changed, and rebuilds the same stories after a restart', async () => {
    const store = new MemoryStoryStore();
    const behaviour = storyClusterBehaviour({ store });
    const clock = { now: T0 + 3 * H };
    const { ctx, timers } = fakeContext(clock);
    const state = await behaviour.init('0', ctx);
    expect(timers[0]).toMatchObject({ msg: { type: 'sweep' }, id: 'sweep' });

    const send = (msg: StoryClusterMsg) => behaviour.receive(state, msg, ctx);
    // a node stores what the replies say; the memory store plays that part here
    const add = async (items: ClusterItem[]): Promise<ClusterBatchReply> => {
      const reply = (await send({ type: 'add-batch', items })) as ClusterBatchReply;
      store.record(items, reply);
      return reply;
    };
    const one = await add([{ article: article('a1', 'Elephants recognise human voices, study finds', 0) }]);
    const two = await add([
      { article: article('a2', 'Study: elephants can tell human voices apart', 1) },
      { article: article('a3', 'Parliament passes new budget', 2) },
    ]);
    const [r1] = one.results as AddResult[];
    const [r2, r3] = two.results as AddResult[];
    expect(r2!.storyId).toBe(r1!.storyId);
    expect(r3!.storyId).not.toBe(r1!.storyId);
    expect(await send({ type: 'story-of', article_id: 'a2' })).toBe(r1!.storyId);
    expect(((await send({ type: 'get', story_id: r1!.storyId })) as StoryView).article_count).toBe(2);
    // the reply carries each story the message changed, once, as it stands afterwards
    expect(two.stories.map((v) => [v.id, v.article_count]).sort()).toEqual([[r1!.storyId, 2], [r3!.storyId, 1]].sort());
    expect(two.stories[0]).not.toHaveProperty('article_ids');

    // the same article again (its batch was not stored, and comes again): it stays where it is, and
    // the reply describes its story again, for the batch that now stores it
    const again = await add([{ article: article('a2', 'Study: elephants can tell human voices apart', 1) }]);
    expect(again.results[0]).toMatchObject({ storyId: r1!.storyId, via: 'known' });
    expect(again.stories.map((v) => [v.id, v.article_count])).toEqual([[r1!.storyId, 2]]);

    // restart: init reloads from the store and reaches the same story ids
    const restarted = await behaviour.init('0', ctx);
    const r4 = (await behaviour.receive(restarted, { type: 'add-batch', items: [{ article: article('a4', 'Elephants know human voices, researchers say', 3) }] }, ctx)) as ClusterBatchReply;
    expect((r4.results[0] as AddResult).storyId).toBe(r1!.storyId);
  });

  it('archives idle stories on sweep', async () => {
    const store = new MemoryStoryStore();
    const behaviour = storyClusterBehaviour({ store });
    const clock = { now: T0 };
    const { ctx } = fakeContext(clock);
    const state = await behaviour.init('0', ctx);
    const reply = (await behaviour.receive(state, { type: 'add-batch', items: [{ article: article('b1', 'Bridge reopens after repairs', 0) }] }, ctx)) as ClusterBatchReply;
    const r = reply.results[0] as AddResult;
    expect(await behaviour.receive(state, { type: 'get', story_id: r.storyId }, ctx)).toMatchObject({ id: r.storyId, active: true });
    clock.now = T0 + 50 * H;
    expect(await behaviour.receive(state, { type: 'sweep' }, ctx)).toEqual({ evicted: 1 });
    // stored as it stood when last changed; the actor holds only the active window
    expect(await behaviour.receive(state, { type: 'get', story_id: r.storyId }, ctx)).toBeNull();
    expect(await behaviour.receive(state, { type: 'story-of', article_id: 'b1' }, ctx)).toBeNull();
  });

  it('sets aside an article the clusterer cannot place and places the others', async () => {
    const behaviour = storyClusterBehaviour({ store: new MemoryStoryStore() });
    const { ctx } = fakeContext({ now: T0 });
    const state = await behaviour.init('0', ctx);
    const items = [
      { article: article('c1', 'Floods close the coastal road', 0) },
      // a date the clusterer cannot read as a time, and a title that is not text
      { article: { ...article('c2', 'x', 0), title: null as unknown as string } },
      { article: article('c3', 'Floods close coastal road again', 1) },
    ];
    const reply = (await behaviour.receive(state, { type: 'add-batch', items }, ctx)) as ClusterBatchReply;
    expect(reply.results[1]).toMatchObject({ error: { code: expect.any(String) } });
    expect('storyId' in reply.results[0]!).toBe(true);
    expect('storyId' in reply.results[2]!).toBe(true);
  });

  it('after its replay reads the store again until past the decision time, adding late articles into their stored stories', async () => {
    // the store's own clock, and rows with the instant their transaction began
    const db = { now: 5_000_000 };
    const rows: (ClusteredArticle & { storedAt: number })[] = [];
    const reads: (number | undefined)[] = [];
    const store: StoryStore = {
      loadSince: (_since, storedSince) => {
        reads.push(storedSince);
        return rows.filter((r) => storedSince === undefined || r.storedAt >= storedSince);
      },
      now: () => db.now,
    };
    const stored = (id: string, story: string, title: string, storedAt: number) =>
      rows.push({ article: article(id, title, 0), hints: {}, story_id: story, storedAt });
    stored('e1', 'st_e1', 'Elephants recognise human voices, study finds', db.now - 1_000);
    // filed by an earlier owner in a story named after another article: the replay keeps it there
    stored('e2', 'st_e0', 'Study: elephants can tell human voices apart', db.now - 500);
    const behaviour = storyClusterBehaviour({ store });
    const { ctx, timers } = fakeContext({ now: T0 + H });
    const state = await behaviour.init('0', ctx);
    expect(reads).toEqual([undefined]);
    expect(await behaviour.receive(state, { type: 'story-of', article_id: 'e2' }, ctx)).toBe('st_e0');
    const replayClock = db.now;

    // a batch the old owner answered is stored after the replay read
    db.now += 800;
    stored('late', 'st_late0', 'Parliament passes new budget', db.now - 300);
    let elapsed = 0;
    let added = 0;
    for (let pass = 0; ; pass++) {
      const t = timers.findLast((x) => x.msg.type === 'catch-up');
      if (!t || (t.msg as StoryClusterMsg & { pass: number }).pass !== pass) break;
      timers.length = 0;
      elapsed += t.delay;
      await behaviour.receive(state, t.msg as StoryClusterMsg, ctx);
      await new Promise((r) => setImmediate(r));
      const back = timers.find((x) => x.msg.type === 'caught-up')!;
      timers.splice(timers.indexOf(back), 1);
      added += ((await behaviour.receive(state, back.msg as StoryClusterMsg, ctx)) as { added: number }).added;
      db.now += t.delay;
    }
    // each pass looks back past the decision time from the previous read; the last comes after it
    expect(reads[1]).toBe(replayClock - DECISION_TTL_MS - 5_000);
    expect(reads.length).toBeGreaterThan(2);
    expect(elapsed).toBeGreaterThan(DECISION_TTL_MS);
    expect(added).toBe(1);
    expect(await behaviour.receive(state, { type: 'story-of', article_id: 'late' }, ctx)).toBe('st_late0');
    // a later report of that event finds the story
    const r = (await behaviour.receive(state, { type: 'add-batch', items: [{ article: article('n1', 'Parliament passes the new budget after long debate', 1) }] }, ctx)) as ClusterBatchReply;
    expect((r.results[0] as AddResult).storyId).toBe('st_late0');
  });

  it('files an article with a named story there, opening it under that id when the window lacks it', async () => {
    const behaviour = storyClusterBehaviour({ store: new MemoryStoryStore() });
    const { ctx } = fakeContext({ now: T0 });
    const state = await behaviour.init('0', ctx);
    const reply = (await behaviour.receive(state, {
      type: 'add-batch',
      items: [
        // a copy whose original the owner never saw, named with its original's story
        { article: article('k2', 'Bridge reopens after repairs', 0, { duplicate_of: 'k1' }), story_id: 'st_k1' },
        { article: article('k3', 'Bridge reopens after repairs', 1, { duplicate_of: 'k1' }) },
      ],
    }, ctx)) as ClusterBatchReply;
    expect(reply.results.map((x) => (x as AddResult).storyId)).toEqual(['st_k1', 'st_k1']);
    expect(reply.results.map((x) => (x as AddResult).via)).toEqual(['duplicate', 'score']);

    // a copy that waits for its original: not placed while the original is unknown here
    const waiting = (await behaviour.receive(state, {
      type: 'add-batch',
      items: [
        { article: article('m2', 'Ferry timetable agreed', 2, { duplicate_of: 'm1' }), await_original: true },
        { article: article('k4', 'Bridge reopens after repairs', 2, { duplicate_of: 'k2' }), await_original: true },
      ],
    }, ctx)) as ClusterBatchReply;
    expect(waiting.results[0]).toEqual({ error: { code: ORIGINAL_UNKNOWN, message: expect.any(String) } });
    expect(waiting.results[1]).toMatchObject({ storyId: 'st_k1', via: 'duplicate' });
    expect(await behaviour.receive(state, { type: 'story-of', article_id: 'm2' }, ctx)).toBeNull();
  });
});
