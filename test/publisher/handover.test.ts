import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PollHandedOverError } from '../../src/actors/publisher/errors.js';
import { PollsInFlight } from '../../src/actors/publisher/polls-in-flight.js';
import { MemoryPublisherStore } from '../../src/actors/publisher/state.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { FeedServer } from './feed-server.js';
import { makeNode, until, type Node } from './harness.js';

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

/**
 * A publisher handed to another node in the middle of a poll whose fetch does not end (a slow
 * server): the old node aborts the fetch and saves the poll's start, and the new node keeps the
 * minimum interval after it, instead of polling the feed while the old request is still open.
 */
describe('a publisher handed over during a poll', () => {
  it('the poll is aborted, not counted as a failure, and the next owner polls a minimum interval after its start', async () => {
    const store = new MemoryPublisherStore();
    const polls = new PollsInFlight();
    const n1 = makeNode({ store, extra: { polls } });
    nodes.push(n1);
    const f = server.add('slow', { mode: 'hang' });
    server.publish('slow', 3, n1.clock.now());
    n1.send('slow', { type: 'configure', url: server.url('slow', 'slow.sim.test') });
    await n1.status('slow');
    // the first poll comes within the tier-1 spread; step the clock until the request is open
    for (let t = 0; t < 16 && server.hangingCount === 0; t++) {
      (n1.clock as ManualClock).advance(MIN);
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(() => server.hangingCount === 1);
    expect(polls.running('slow')).toBe(true);
    const startedBy = n1.clock.now();

    // the shard moves: stop the actor and abort its poll; it ends with its state saved
    n1.system.stop('publisher/slow');
    expect(await polls.abort(['slow'], new PollHandedOverError(), 5_000)).toEqual([]);
    expect(polls.size).toBe(0);
    const saved = store.load('slow')!;
    expect(saved.polls).toBe(1);
    expect(saved.failures).toBe(0);
    expect(saved.errors).toBe(0);
    expect(saved.lastError).toBeNull();
    expect(saved.lastPollAt).toBeLessThanOrEqual(startedBy);
    expect(saved.nextPollAt).toBe(saved.lastPollAt! + MIN);

    // the next owner, 10 s after that poll started, with the feed answering again
    f.mode = 'ok';
    server.releaseHanging();
    const n2 = makeNode({ store, start: saved.lastPollAt! + 10_000 });
    nodes.push(n2);
    const st = await n2.status('slow');
    expect(st.nextPollAt).toBeGreaterThanOrEqual(saved.lastPollAt! + MIN);
    await n2.run(saved.lastPollAt! + MIN - n2.clock.now() - 1_000, 1_000);
    expect(f.requests).toBe(1);
    await n2.run(2_000, 1_000);
    expect(f.requests).toBe(2);
    expect(n2.emitted).toHaveLength(3);
  });

  it('a publisher loaded anywhere keeps the minimum interval after its last poll, also with articles owed', async () => {
    const store = new MemoryPublisherStore();
    const n1 = makeNode({ store, extra: { emit: () => new Promise<void>(() => undefined) } });
    nodes.push(n1);
    const f = server.add('owed');
    server.publish('owed', 2, n1.clock.now());
    n1.send('owed', { type: 'configure', url: server.url('owed', 'owed.sim.test') });
    await n1.run(16 * MIN);
    expect(f.requests).toBe(1);
    const last = store.load('owed')!.lastPollAt!;
    expect(store.load('owed')!.unackedSince).not.toBeNull();
    await n1.close();
    // taken over 5 s after that poll: articles are owed, but the feed was just polled
    const n2 = makeNode({ store, start: last + 5_000 });
    nodes.push(n2);
    expect((await n2.status('owed')).nextPollAt).toBeGreaterThanOrEqual(last + MIN);
    await n2.run(50_000, 5_000);
    expect(f.requests).toBe(1);
    await n2.run(45_000, 5_000);
    expect(f.requests).toBe(2);
  });
});

describe('PollsInFlight', () => {
  it('abort resolves once the aborted polls ended, and names those still running at the deadline', async () => {
    const polls = new PollsInFlight();
    const a = polls.begin('a');
    const b = polls.begin('b');
    a.signal.addEventListener('abort', () => setTimeout(a.end, 10));
    const left = await polls.abort(['a', 'b', 'c'], new PollHandedOverError(), 200);
    expect(a.signal.aborted && b.signal.aborted).toBe(true);
    expect(b.signal.reason).toBeInstanceOf(PollHandedOverError);
    expect(left).toEqual(['b']);
    b.end();
    expect(polls.size).toBe(0);
    expect(await polls.abort(['a', 'b'], new PollHandedOverError(), 200)).toEqual([]);
  });
});
