import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newestEntries } from '../../src/actors/publisher/entries.js';
import { MemoryPublisherStore, type PublisherState } from '../../src/actors/publisher/state.js';
import type { FeedEntry, RawArticle } from '../../src/actors/publisher/types.js';
import { FeedServer, type Item } from './feed-server.js';
import { makeNode, type Node } from './harness.js';

const MIN = 60_000;

let server: FeedServer;
const nodes: Node[] = [];

beforeEach(async () => {
  server = await new FeedServer().start();
});
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
  await server.close();
});

/** An emit whose acknowledgements the test gives (or withholds): the ingest log storing, or not. */
function heldEmit() {
  const calls: { articles: RawArticle[]; ack: () => void; fail: (err: Error) => void }[] = [];
  return {
    calls,
    emit: (articles: RawArticle[]) =>
      new Promise<void>((resolve, reject) => {
        calls.push({ articles, ack: resolve, fail: reject });
      }),
  };
}

const stateOf = (store: MemoryPublisherStore, id: string): PublisherState => store.load(id)!;

describe('acknowledged ingest in the publisher actor', () => {
  it('moves its validators and seen ring only once the articles are stored; until then nothing is re-fetched or re-emitted', async () => {
    const store = new MemoryPublisherStore();
    const held = heldEmit();
    const n = makeNode({ store, extra: { emit: held.emit } });
    nodes.push(n);
    const f = server.add('a');
    server.publish('a', 3, n.clock.now());
    n.send('a', { type: 'configure', url: server.url('a', 'a.sim.test') });
    await n.run(16 * MIN);
    expect(held.calls).toHaveLength(1);
    expect(held.calls[0]!.articles).toHaveLength(3);
    // not acknowledged: nothing moved, and the next poll waits for the acknowledgement
    const waiting = stateOf(store, 'a');
    expect(waiting.etag).toBeNull();
    expect(waiting.unackedSince).toEqual(expect.any(Number));
    expect((await n.status('a')).newEntries).toBe(0);
    await n.run(30 * MIN);
    expect(f.requests).toBe(1);
    expect(held.calls).toHaveLength(1);
    // the actor still answers while it waits
    expect((await n.status('a')).url).toContain('/feed/a');

    held.calls[0]!.ack();
    await n.run(MIN);
    const acked = stateOf(store, 'a');
    expect(acked.etag).toMatch(/^"/);
    expect(acked.unackedSince).toBeNull();
    expect((await n.status('a')).newEntries).toBe(3);
    // the next poll carries the ETag: 304, nothing emitted
    await n.run(30 * MIN);
    expect(f.notModified).toBeGreaterThan(0);
    expect(held.calls).toHaveLength(1);
  });

  it('after a crash before the acknowledgement, a restarted node fetches and emits the same articles again within 30 s', async () => {
    const store = new MemoryPublisherStore();
    const held = heldEmit();
    const n1 = makeNode({ store, extra: { emit: held.emit } });
    nodes.push(n1);
    const f = server.add('c');
    const items = server.publish('c', 4, n1.clock.now());
    n1.send('c', { type: 'configure', url: server.url('c', 'c.sim.test') });
    await n1.run(16 * MIN);
    expect(held.calls).toHaveLength(1);
    const requests = f.requests;
    // the node dies with the emit unacknowledged (its ingest log was in memory)
    await n1.close();

    const n2 = makeNode({ store, start: n1.clock.now() + 2 * MIN });
    nodes.push(n2);
    const st = await n2.status('c');
    // normally a publisher's next poll is minutes away; this one was owed its articles
    expect(st.nextPollAt - n2.clock.now()).toBeLessThanOrEqual(30_000);
    await n2.run(30_000, 5_000);
    expect(f.requests).toBe(requests + 1);
    expect(n2.emitted.map((a) => a.url).sort()).toEqual(items.map((i) => i.link).sort());
    await n2.run(MIN);
    expect(stateOf(store, 'c').unackedSince).toBeNull();
    expect(stateOf(store, 'c').etag).toMatch(/^"/);
  });

  it('a failed emit leaves the entries new: the next poll emits them again', async () => {
    const held = heldEmit();
    const n = makeNode({ extra: { emit: held.emit } });
    nodes.push(n);
    server.add('e');
    server.publish('e', 2, n.clock.now());
    n.send('e', { type: 'configure', url: server.url('e', 'e.sim.test') });
    await n.run(16 * MIN);
    expect(held.calls).toHaveLength(1);
    held.calls[0]!.fail(new Error('batch given up'));
    await n.run(1_000, 1_000);
    expect((await n.status('e')).lastError).toMatch(/^EMIT_FAILED: batch given up/);
    await n.run(3 * MIN);
    expect(held.calls).toHaveLength(2);
    expect(held.calls[1]!.articles.map((a) => a.url)).toEqual(held.calls[0]!.articles.map((a) => a.url));
  });

  it('takes the newest entries of a huge document, up to the cap per poll', async () => {
    const n = makeNode({ extra: { maxEntriesPerPoll: 25 } });
    nodes.push(n);
    const f = server.add('huge');
    const t0 = n.clock.now();
    // 2,000 items in shuffled date order (the server keeps them all, unlike a real 20-item feed)
    const items: Item[] = Array.from({ length: 2_000 }, (_, i) => ({
      guid: `h-${i}`, title: `Huge feed item ${i}`, link: `https://example.test/huge/${i}`, description: `Item ${i}`, pubDate: t0 - ((i * 7919) % 2_000) * MIN,
    }));
    f.items = items;
    n.send('huge', { type: 'configure', url: server.url('huge', 'huge.sim.test') });
    await n.run(16 * MIN);
    const newest = [...items].sort((a, b) => b.pubDate - a.pubDate).slice(0, 25).map((i) => i.link).sort();
    expect(n.emitted.map((a) => a.url).sort()).toEqual(newest);
  });
});

describe('newestEntries', () => {
  const e = (id: string, published: string | null, updated: string | null = null): FeedEntry =>
    ({ id, link: null, title: id, published, updated, summary: null, content: null }) as FeedEntry;
  it.each([
    ['under the cap: all, as they are', [e('a', '2026-01-02'), e('b', '2026-01-01')], 5, ['a', 'b']],
    ['newest by published, in document order', [e('a', '2026-01-01'), e('b', '2026-01-03'), e('c', '2026-01-02')], 2, ['b', 'c']],
    ['updated stands in for published', [e('a', null, '2026-01-05'), e('b', '2026-01-01'), e('c', '2026-01-02')], 2, ['a', 'c']],
    ['undated ones last', [e('a', null), e('b', '2026-01-01'), e('c', null)], 2, ['a', 'b']],
  ])('%s', (_what, entries, max, want) => {
    expect(newestEntries(entries, max).map((x) => x.id)).toEqual(want);
  });
});
