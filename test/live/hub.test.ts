import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../src/actors/store/feed-items.js';
import { cacheLiveEvents, type BreakingItem } from '../../src/actors/store/live-events.js';
import { openCache } from '../../src/runtime/cache.js';
import { OP, RawWs } from '../helpers/raw-ws.js';
import { client, clients, item, of, open, startHub, until } from './hub-harness.js';

describe('the live hub (/v1/live)', () => {
  it('answers subscribe and pushes new stories to the topics they belong to, once per connection', async () => {
    const s = await startHub();
    const feed = await client(s, ['feed:us:technology']);
    const other = await client(s, ['feed:uk:sports']);
    const both = await client(s, ['feed:global:top', 'feed:us:top', 'story:s1']);
    const story = await client(s, ['story:s1']);
    expect(of(feed, 'subscribed')[0]).toEqual({ type: 'subscribed', topics: ['feed:us:technology'] });
    await s.publish({ type: 'stories', stories: [{ item: item('s1'), regions: ['us'] }] });
    for (const c of [feed, both, story]) await until('story pushed', () => of(c, 'story').length > 0);
    expect(of(feed, 'story')[0]).toEqual({ type: 'story', story: item('s1') });
    // an update of the same story (coverage count) follows as another frame
    await s.publish({ type: 'stories', stories: [{ item: item('s1', { coverage_count: 7 }), regions: ['us'] }] });
    await until('update pushed', () => of(story, 'story').length === 2);
    expect((of(story, 'story')[1]!.story as FeedItem).coverage_count).toBe(7);
    await until('both got the update', () => of(both, 'story').length === 2);
    // subscribed to three matching topics, it still got each update once
    expect(of(both, 'story')).toHaveLength(2);
    expect(of(other, 'story')).toEqual([]);
  });

  it('sends a story at most once per interval, its latest state: a burst of updates costs one frame per story', async () => {
    let t = 1_000_000; // the hub's clock: frozen until the test moves it
    const s = await startHub({ storyIntervalMs: 1_000, now: () => t });
    const c = await client(s, ['feed:global:top']);
    const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const update = (n: number) => s.publish({ type: 'stories', stories: ids.map((id) => ({ item: item(id, { coverage_count: n }), regions: ['us'] })) });
    // a story's first update goes out at once
    await update(1);
    await until('each story once', () => of(c, 'story').length === 20);
    // five more rounds of updates within the same second: held, each replacing the one waiting
    for (let n = 2; n <= 6; n++) await update(n);
    await until('the updates held', () => s.hub.stats().heldStories === 20);
    expect(of(c, 'story')).toHaveLength(20);
    // the second passes: one frame per story, its latest state
    t += 1_000;
    await until('the latest of each', () => of(c, 'story').length === 40);
    expect(s.hub.stats().heldStories).toBe(0);
    const last = new Map(of(c, 'story').map((m) => [(m.story as FeedItem).story_id, (m.story as FeedItem).coverage_count]));
    expect([...last.values()]).toEqual(Array(20).fill(6));
    // a story not sent in the last interval goes out at once again
    t += 1_000;
    await update(7);
    await until('sent at once', () => of(c, 'story').length === 60);
  });

  it('paces a flood of new stories: at most storyFramesPerSecond, the rest wait their turn in order', async () => {
    let t = 1_000_000;
    const s = await startHub({ storyFramesPerSecond: 10, now: () => t });
    const c = await client(s, ['feed:global:top']);
    await s.publish({ type: 'stories', stories: Array.from({ length: 25 }, (_, i) => ({ item: item(`f${i}`), regions: ['us'] })) });
    await until('the first second', () => of(c, 'story').length === 10);
    await until('the rest waiting', () => s.hub.stats().heldStories === 15);
    expect(of(c, 'story')).toHaveLength(10);
    t += 1_000;
    await until('the next second', () => of(c, 'story').length === 20);
    t += 1_000;
    await until('the last', () => of(c, 'story').length === 25);
    expect(of(c, 'story').map((m) => (m.story as FeedItem).story_id)).toEqual(Array.from({ length: 25 }, (_, i) => `f${i}`));
  });

  it('never holds a breaking alert: it overtakes the story update waiting for its turn', async () => {
    const t = 1_000_000;
    const s = await startHub({ now: () => t });
    const feed = await client(s, ['feed:us:top', 'breaking']);
    await s.publish({ type: 'stories', stories: [{ item: item('hot'), regions: ['us'] }] });
    await until('story sent', () => of(feed, 'story').length === 1);
    await s.publish({ type: 'stories', stories: [{ item: item('hot', { coverage_count: 9 }), regions: ['us'] }] });
    await until('update held', () => s.hub.stats().heldStories === 1);
    const story: BreakingItem = { ...item('hot', { coverage_count: 9 }), breaking_since: '2026-01-01T00:00:00.000Z' };
    await s.publish({ type: 'breaking', story, regions: ['us'], active: true });
    await until('breaking pushed while the clock stands still', () => of(feed, 'breaking').length === 1);
    expect(s.hub.stats().heldStories).toBe(0);
  });

  it('pushes breaking news to breaking and to the breaking topics of its editions only', async () => {
    const s = await startHub();
    const all = await client(s, ['breaking']);
    const eu = await client(s, ['breaking:eu']);
    const us = await client(s, ['breaking:us']);
    const story: BreakingItem = { ...item('b1', { category: 'world' }), breaking_since: '2026-01-01T00:00:00.000Z' };
    await s.publish({ type: 'breaking', story, regions: ['eu', 'uk'], active: true });
    await until('breaking pushed', () => of(all, 'breaking').length > 0 && of(eu, 'breaking').length > 0);
    expect(of(eu, 'breaking')[0]).toEqual({ type: 'breaking', story, active: true });
    await s.publish({ type: 'breaking', story, regions: ['eu', 'uk'], active: false });
    await until('cool-down pushed', () => of(all, 'breaking').length === 2);
    expect(of(all, 'breaking')[1]!.active).toBe(false);
    expect(of(us, 'breaking')).toEqual([]);
  });

  it('tells a client subscribing to breaking news what is breaking now', async () => {
    const story: BreakingItem = { ...item('b2'), breaking_since: '2026-01-01T00:00:00.000Z' };
    const asked: string[] = [];
    const s = await startHub({ breaking: async (region) => (asked.push(region), region === 'global' || region === 'us' ? [story] : []) });
    const c = await client(s, ['breaking:us', 'feed:us:top']);
    await until('replayed', () => of(c, 'breaking').length > 0);
    expect(of(c, 'breaking')).toEqual([{ type: 'breaking', story, active: true }]);
    expect(asked).toEqual(['us']);
  });

  it.each([
    ['not JSON', 'subscribe me', 'invalid_json'],
    ['not an object', '[1,2]', 'invalid_frame'],
    ['an unknown type', '{"type":"hello"}', 'invalid_frame'],
    ['no topics', '{"type":"subscribe"}', 'invalid_topics'],
    ['an unknown topic', '{"type":"subscribe","topics":["feed:mars:top"]}', 'invalid_topic'],
    ['a non-string topic', '{"type":"subscribe","topics":[42]}', 'invalid_topic'],
    ['a story id with a slash', '{"type":"subscribe","topics":["story:../x"]}', 'invalid_topic'],
    ['too many topics', JSON.stringify({ type: 'subscribe', topics: ['breaking', 'breaking:us', 'breaking:uk', 'breaking:eu', 'breaking:apac', 'breaking:mea'] }), 'too_many_subscriptions'],
    ['a frame over the size limit', JSON.stringify({ type: 'subscribe', topics: ['breaking'], pad: 'x'.repeat(600) }), 'frame_too_large'],
  ])('answers %s with an error frame, keeps the connection and disturbs nobody', async (_what, frame, code) => {
    const s = await startHub();
    const bystander = await client(s, ['feed:us:top']);
    const bad = await client(s, ['feed:us:technology']);
    bad.send(frame);
    await until('error frame', () => of(bad, 'error').length > 0);
    const err = of(bad, 'error')[0]!.error as { code: string; message: string };
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(5);
    // the connection lives on: pings are answered and pushes still arrive, to both clients
    bad.json({ type: 'ping' });
    await until('pong', () => of(bad, 'pong').length > 0);
    await s.publish({ type: 'stories', stories: [{ item: item('after'), regions: ['us'] }] });
    await until('pushes after the bad frame', () => of(bad, 'story').length > 0 && of(bystander, 'story').length > 0);
    // nothing of a refused subscribe was applied
    expect(s.hub.subscribers('breaking')).toBe(0);
  });

  it('answers a binary frame with an error frame', async () => {
    const s = await startHub();
    const c = await client(s);
    c.sendFrame(OP.binary, Buffer.from([1, 2, 3]));
    await until('error frame', () => of(c, 'error').length > 0);
    expect((of(c, 'error')[0]!.error as { code: string }).code).toBe('binary_frame');
  });

  it('unsubscribes', async () => {
    const s = await startHub();
    const c = await client(s, ['feed:us:top', 'breaking']);
    c.json({ type: 'unsubscribe', topics: ['feed:us:top'] });
    await until('unsubscribed', () => of(c, 'unsubscribed').length > 0);
    expect(s.hub.subscribers('feed:us:top')).toBe(0);
    expect(s.hub.subscribers('breaking')).toBe(1);
  });

  it('never buffers without bound for a client that does not read: it is coalesced, then given up and closed with 1013', { timeout: 120_000 }, async () => {
    // Nothing here waits on a clock: the hub's clock is frozen (no stall sweep), and uWS pings a
    // silent connection only after 120 s (the sleeper also keeps its connection alive while it
    // does not read). The close frame is sent once the sleeper has read what it was sent before,
    // so it cannot be lost behind unread data when uWS closes a socket that stays full.
    const s = await startHub({ maxBufferBytes: 16 * 1024, coalesceMs: 1, heartbeatSeconds: 120, now: () => 1_000_000, storyFramesPerSecond: Infinity });
    const reader = await client(s, ['feed:us:top']);
    reader.frames.length = 0;
    let readerGot = 0;
    reader.onFrame = () => readerGot++;
    const sleeper = await RawWs.open(s.port, { keep: false });
    clients.push(sleeper);
    sleeper.json({ type: 'subscribe', topics: ['feed:us:top'] });
    await until('sleeper subscribed', () => s.hub.subscribers('feed:us:top') === 2);
    sleeper.pause();
    const pad = 'p'.repeat(4000);
    let maxBuffered = 0;
    let maxPending = 0;
    // 40 MB of distinct story updates: far more than the socket buffers hold
    for (let i = 0; i < 10_000 && s.hub.stats().closing === 0 && s.hub.connections === 2; i++) {
      await s.publish({ type: 'stories', stories: [{ item: item(`u${i}`, { summary: pad }), regions: ['us'] }] });
      if (i % 50 === 0) {
        sleeper.sendFrame(OP.ping, Buffer.alloc(0));
        await new Promise((r) => setTimeout(r, 5));
        const st = s.hub.stats();
        maxBuffered = Math.max(maxBuffered, st.maxBufferedBytes);
        maxPending = Math.max(maxPending, st.pendingUpdates);
      }
    }
    // the server gave it up: nothing more for it, nothing kept for it; the close frame waits for it to read
    // (its close frame is already sent if its kernel buffers took the rest meanwhile)
    await until('sleeper given up', () => s.hub.stats().closing === 1 || s.hub.connections === 1);
    expect(s.hub.subscribers('feed:us:top')).toBe(1);
    expect(s.hub.stats().pendingUpdates).toBe(0);
    sleeper.socket.resume();
    expect(await sleeper.closed).toBe(1013);
    await until('closed on the server', () => s.hub.connections === 1);
    // what the server held for it stayed bounded: the buffer limit plus a frame or so in uWS, at most 256 updates waiting
    expect(maxBuffered).toBeLessThanOrEqual(16 * 1024 + 5 * 1024);
    expect(maxPending).toBeLessThanOrEqual(257);
    // the reader was served all along (its frames may still be arriving on a loaded machine)
    await until('the reader served', () => readerGot > 100);
  });

  it('pings idle connections: one that answers stays, one that does not is closed', { timeout: 90_000 }, async () => {
    const s = await startHub({ heartbeatSeconds: 8 });
    const c = await client(s);
    c.autoPong = false;
    const alive = await client(s);
    await until('a ping', () => c.frames.some((f) => f.opcode === OP.ping), 60_000);
    expect(s.hub.connections).toBe(2);
    // closed by the server after the ping went unanswered
    await c.closed;
    await until('closed on the server', () => s.hub.connections === 1);
    expect(alive.frames.filter((f) => f.opcode === OP.ping).length).toBeGreaterThan(0);
    alive.json({ type: 'ping' });
    await until('the answering one is served', () => of(alive, 'pong').length > 0);
  });

  it('reaches the subscribers of every API node through Redis', async () => {
    const prefix = `newsagg-live-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
    const caches = await Promise.all([0, 1, 2].map(() => openCache({ redisUrl: 'redis://127.0.0.1:6379', prefix })));
    try {
      const a = await startHub({}, caches[0]);
      const b = await startHub({}, caches[1]);
      const ca = await client(a, ['breaking:eu']);
      const cb = await client(b, ['breaking']);
      // a third node (the one that detected it) publishes
      const story: BreakingItem = { ...item('r1'), breaking_since: '2026-01-01T00:00:00.000Z' };
      await cacheLiveEvents(caches[2]!).publish({ type: 'breaking', story, regions: ['eu'], active: true });
      await until('both nodes pushed it', () => of(ca, 'breaking').length > 0 && of(cb, 'breaking').length > 0);
      expect(of(ca, 'breaking')[0]).toEqual({ type: 'breaking', story, active: true });
    } finally {
      for (const s of open.splice(0)) await s.close();
      for (const c of caches) await c.close();
    }
  });

  it('says goodbye (1001) to every client when the server closes', async () => {
    const s = await startHub();
    const c = await client(s, ['breaking']);
    await s.close();
    open.splice(open.indexOf(s), 1);
    expect(await c.closed).toBe(1001);
  });
});
