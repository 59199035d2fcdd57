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

  it('takes a document of more new entries than a step holds in steps, newest first, each once the one before is stored', async () => {
    const store = new MemoryPublisherStore();
    const held = heldEmit();
    const n = makeNode({ store, extra: { emit: held.emit, maxEntriesPerPoll: 25 } });
    nodes.push(n);
    const f = server.add('big');
    const t0 = n.clock.now();
    // 110 items in shuffled date order (the server keeps them all, unlike a real 20-item feed)
    const items: Item[] = Array.from({ length: 110 }, (_, i) => ({
      guid: `b-${i}`, title: `Big feed item ${i}`, link: `https://example.test/big/${i}`, description: `Item ${i}`, pubDate: t0 - 60 * MIN - ((i * 37) % 110) * MIN,
    }));
    f.items = items;
    n.send('big', { type: 'configure', url: server.url('big', 'big.sim.test') });
    await n.run(16 * MIN);
    const byAge = [...items].sort((a, b) => b.pubDate - a.pubDate).map((i) => i.link);
    const got: string[][] = [];
    for (let step = 0; step < 5; step++) {
      expect(held.calls).toHaveLength(step + 1);
      got.push(held.calls[step]!.articles.map((a) => a.url));
      // until the last step is stored the validators stay, and no poll comes between the steps
      expect(stateOf(store, 'big').etag).toBeNull();
      expect(f.requests).toBe(1);
      held.calls[step]!.ack();
      await n.run(1_000, 1_000);
    }
    expect(got.map((g) => g.length)).toEqual([25, 25, 25, 25, 10]);
    expect(got.map((g) => [...g].sort())).toEqual([0, 25, 50, 75, 100].map((k) => byAge.slice(k, k + 25).sort()));
    expect(held.calls).toHaveLength(5);
    expect(stateOf(store, 'big').etag).toMatch(/^"/);
    expect((await n.status('big')).newEntries).toBe(110);
    expect((await n.status('big')).skipped).toBe(0);
    // stored once, all of them: the next poll is a 304 and emits nothing
    await n.run(60 * MIN);
    expect(f.notModified).toBeGreaterThan(0);
    expect(held.calls).toHaveLength(5);
  });

  it('a node stopped between the steps of a document: the next poll is no 304, and only the rest is emitted', async () => {
    const store = new MemoryPublisherStore();
    const held = heldEmit();
    const n1 = makeNode({ store, extra: { emit: held.emit, maxEntriesPerPoll: 40 } });
    nodes.push(n1);
    const f = server.add('part');
    const t0 = n1.clock.now();
    f.items = Array.from({ length: 100 }, (_, i) => ({ guid: `p-${i}`, title: `Part item ${i}`, link: `https://example.test/part/${i}`, description: `Item ${i}`, pubDate: t0 - (i + 1) * MIN }));
    n1.send('part', { type: 'configure', url: server.url('part', 'part.sim.test') });
    await n1.run(16 * MIN);
    held.calls[0]!.ack();
    await n1.run(1_000, 1_000);
    expect(held.calls).toHaveLength(2);
    const stored = held.calls[0]!.articles.map((a) => a.url);
    // the node stops with the second step unacknowledged: 40 of 100 stored
    await n1.close();

    const n2 = makeNode({ store, start: n1.clock.now() + 5 * MIN, extra: { maxEntriesPerPoll: 40 } });
    nodes.push(n2);
    await n2.status('part');
    await n2.run(2 * MIN, 5_000);
    expect(f.notModified).toBe(0);
    expect(f.requests).toBe(2);
    const again = n2.emitted.map((a) => a.url);
    expect(again).toHaveLength(60);
    expect(again.filter((u) => stored.includes(u))).toEqual([]);
    expect(new Set([...stored, ...again]).size).toBe(100);
  });

  it('a failed step drops the steps after it: the next poll, a minimum interval later, finds them all new again', async () => {
    const store = new MemoryPublisherStore();
    const held = heldEmit();
    const n = makeNode({ store, extra: { emit: held.emit, maxEntriesPerPoll: 30 } });
    nodes.push(n);
    const f = server.add('fail');
    const t0 = n.clock.now();
    f.items = Array.from({ length: 70 }, (_, i) => ({ guid: `f-${i}`, title: `Fail item ${i}`, link: `https://example.test/fail/${i}`, description: `Item ${i}`, pubDate: t0 - (i + 1) * MIN }));
    n.send('fail', { type: 'configure', url: server.url('fail', 'fail.sim.test') });
    await n.run(16 * MIN);
    held.calls[0]!.ack();
    await n.run(1_000, 1_000);
    held.calls[1]!.fail(new Error('batch given up'));
    await n.run(1_000, 1_000);
    expect(held.calls).toHaveLength(2);
    expect((await n.status('fail')).lastError).toMatch(/^EMIT_FAILED/);
    await n.run(3 * MIN, 10_000);
    expect(f.requests).toBe(2);
    // the first step is stored and seen; the failed one and the one never sent come again
    expect(held.calls).toHaveLength(3);
    const first = held.calls[0]!.articles.map((a) => a.url);
    const retried = held.calls[2]!.articles.map((a) => a.url);
    expect(retried).toHaveLength(30);
    expect(retried.filter((u) => first.includes(u))).toEqual([]);
    held.calls[2]!.ack();
    await n.run(1_000, 1_000);
    held.calls[3]!.ack();
    await n.run(1_000, 1_000);
    const all = held.calls.filter((_, i) => i !== 1).flatMap((c) => c.articles.map((a) => a.url));
    expect(new Set(all).size).toBe(70);
    expect(all).toHaveLength(70);
  });

  it('skips entries older than retention, once, and counts them', async () => {
    const skipped: [string, number][] = [];
    const n = makeNode({ extra: { retentionMs: 24 * 60 * MIN, skipped: (reason, k) => skipped.push([reason, k]) } });
    nodes.push(n);
    const f = server.add('old');
    const t0 = n.clock.now();
    f.items = [
      { guid: 'o-new', title: 'A fresh item', link: 'https://example.test/old/new', description: 'new', pubDate: t0 - 60 * MIN },
      { guid: 'o-old1', title: 'An item of last month', link: 'https://example.test/old/1', description: 'old', pubDate: t0 - 30 * 24 * 60 * MIN },
      { guid: 'o-old2', title: 'An item of last year', link: 'https://example.test/old/2', description: 'old', pubDate: t0 - 365 * 24 * 60 * MIN },
    ];
    n.send('old', { type: 'configure', url: server.url('old', 'old.sim.test') });
    await n.run(16 * MIN);
    expect(n.emitted.map((a) => a.url)).toEqual(['https://example.test/old/new']);
    expect(skipped).toEqual([['retention', 2]]);
    expect((await n.status('old')).skipped).toBe(2);
    // the document changes: the old entries are not counted twice
    f.items.unshift({ guid: 'o-newer', title: 'A newer item', link: 'https://example.test/old/newer', description: 'newer', pubDate: n.clock.now() });
    await n.run(3 * 60 * MIN);
    expect(n.emitted.map((a) => a.url)).toEqual(['https://example.test/old/new', 'https://example.test/old/newer']);
    expect(skipped).toEqual([['retention', 2]]);
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
