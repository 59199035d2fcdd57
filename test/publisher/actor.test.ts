import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryPublisherStore } from '../../src/actors/publisher/state.js';
import { FeedServer } from './feed-server.js';
import { makeNode, type Node } from './harness.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

let server: FeedServer;
const nodes: Node[] = [];
function node(opts: Parameters<typeof makeNode>[0] = {}): Node {
  const n = makeNode(opts);
  nodes.push(n);
  return n;
}

beforeEach(async () => {
  server = await new FeedServer().start();
});
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
  await server.close();
});

function urlsOf(n: Node): string[] {
  return n.emitted.map((a) => a.url);
}

describe('PublisherActor against a local feed server', () => {
  it('cycles 200 → 304 and emits each entry exactly once', async () => {
    const n = node();
    server.add('a');
    const first = server.publish('a', 5, n.clock.now());
    n.send('a', { type: 'configure', url: server.url('a', 'a.sim.test'), name: 'Paper A', category: 'world', country: 'GB' });
    await n.run(2 * HOUR);
    const f = server.feeds.get('a')!;
    expect(f.requests).toBeGreaterThanOrEqual(4);
    expect(f.notModified).toBe(f.requests - 1); // only the first poll got a body
    expect(urlsOf(n).sort()).toEqual(first.map((i) => i.link).sort());
    expect(n.emitted[0]).toMatchObject({ publisher: 'a', feed_category: 'world', publisher_country: 'GB' });
    expect(n.emitted[0]!.title).toMatch(/^Item /);

    const later = server.publish('a', 2, n.clock.now());
    await n.run(2 * HOUR);
    expect(urlsOf(n).sort()).toEqual([...first, ...later].map((i) => i.link).sort());
    const st = await n.status('a');
    expect(st).toMatchObject({ failures: 0, circuit: 'closed', lastError: null, newEntries: 7 });
    expect(st.notModified).toBe(f.notModified);
  });

  it('does not emit a republished entry with a changed guid, nor an edited one', async () => {
    const n = node();
    server.add('r');
    const [item] = server.publish('r', 1, n.clock.now());
    n.send('r', { type: 'configure', url: server.url('r', 'r.sim.test') });
    await n.run(30 * MIN);
    expect(n.emitted).toHaveLength(1);
    const f = server.feeds.get('r')!;
    f.items.unshift({ ...item!, guid: 'brand-new-guid', link: `${item!.link}?utm_source=x` }); // same text, new identity
    f.items.push({ ...item!, title: `${item!.title} (updated)` }); // same guid, edited
    await n.run(5 * HOUR);
    expect(f.requests).toBeGreaterThan(1);
    expect(n.emitted).toHaveLength(1);
  });

  it('backs off while failing, says why, and recovers', async () => {
    const n = node();
    const f = server.add('b');
    server.publish('b', 3, n.clock.now());
    n.send('b', { type: 'configure', url: server.url('b', 'b.sim.test') });
    await n.run(20 * MIN);
    expect(n.emitted).toHaveLength(3);
    f.mode = 'error';
    const gaps: number[] = [];
    let last = (await n.status('b')).nextPollAt;
    for (let i = 0; i < 6; i++) {
      await n.run(last - n.clock.now() + 1000);
      const st = await n.status('b');
      gaps.push(st.nextPollAt - last);
      last = st.nextPollAt;
    }
    const st = await n.status('b');
    expect(st.failures).toBe(6);
    expect(st.circuit).toBe('open');
    expect(st.lastError).toMatch(/^FETCH_HTTP_ERROR/);
    // every wait at least as long as the one before (slowed, never faster), and never abandoned
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]! * 0.9);
    expect(st.nextPollAt).toBeGreaterThan(n.clock.now());

    f.mode = 'ok';
    const fresh = server.publish('b', 2, n.clock.now());
    await n.run(st.nextPollAt - n.clock.now() + 1000);
    expect(await n.status('b')).toMatchObject({ failures: 0, circuit: 'closed', lastError: null });
    expect(urlsOf(n).slice(-2).sort()).toEqual(fresh.map((i) => i.link).sort());
  });

  it('honours Retry-After on 429 and <ttl> as a lower bound', async () => {
    const n = node();
    server.add('t', { ttlMinutes: 90 });
    server.publish('t', 1, n.clock.now());
    const rl = server.add('l', { mode: 'rate-limit', retryAfterS: 4 * 3600 });
    n.send('t', { type: 'configure', url: server.url('t', 't.sim.test') });
    n.send('l', { type: 'configure', url: server.url('l', 'l.sim.test') });
    await n.run(16 * MIN);
    const t = await n.status('t');
    expect(t.intervalMs).toBeGreaterThanOrEqual(90 * MIN);
    const l = await n.status('l');
    expect(l.lastError).toMatch(/^FETCH_RATE_LIMITED/);
    expect(l.nextPollAt - n.clock.now()).toBeGreaterThan(3.7 * HOUR); // polled within the first 16 min, told to wait 4 h
    await n.run(3 * HOUR);
    expect(rl.requests).toBe(1);
  });

  it('unparseable feeds count as failures and are retried', async () => {
    const n = node();
    const f = server.add('m', { mode: 'malformed' });
    n.send('m', { type: 'configure', url: server.url('m', 'm.sim.test') });
    await n.run(HOUR);
    const st = await n.status('m');
    expect(st.lastError).toMatch(/^FEED_UNPARSEABLE/);
    expect(st.failures).toBeGreaterThanOrEqual(2);
    expect(f.requests).toBe(st.failures);
  });

  it('keeps entries for later when the ingest log is down', async () => {
    const n = node();
    const f = server.add('d');
    const items = server.publish('d', 2, n.clock.now());
    n.emitDown.value = true;
    n.send('d', { type: 'configure', url: server.url('d', 'd.sim.test') });
    await n.run(16 * MIN);
    expect(n.emitted).toHaveLength(0);
    expect((await n.status('d')).lastError).toMatch(/^EMIT_FAILED/);
    n.emitDown.value = false;
    await n.run(5 * MIN);
    expect(urlsOf(n).sort()).toEqual(items.map((i) => i.link).sort());
    expect(f.notModified).toBe(0); // the ETag was not stored while emitting failed
    expect((await n.status('d')).failures).toBe(0);
  });

  it('restarts from persisted state without re-emitting', async () => {
    const store = new MemoryPublisherStore();
    const n1 = node({ store });
    server.add('p');
    server.publish('p', 4, n1.clock.now());
    n1.send('p', { type: 'configure', url: server.url('p', 'p.sim.test') });
    await n1.run(HOUR);
    expect(n1.emitted).toHaveLength(4);
    const before = await n1.status('p');
    await n1.close();

    // a new node (same store) loads the actor on first contact; the first poll must be a 304
    const n2 = node({ store, start: n1.clock.now() + 10 * MIN });
    const after = await n2.status('p');
    expect(after).toMatchObject({ polls: before.polls, tier: before.tier, newEntries: 4 });
    const f = server.feeds.get('p')!;
    const nm = f.notModified;
    f.mode = 'no-conditional'; // full body every time: only the seen ring can stop re-emission
    await n2.run(HOUR);
    expect(f.notModified).toBe(nm);
    expect(n2.emitted).toHaveLength(0);
    const fresh = server.publish('p', 1, n2.clock.now());
    await n2.run(HOUR);
    expect(urlsOf(n2)).toEqual([fresh[0]!.link]);
  });

  it('accelerate polls faster until the deadline, then returns to normal', async () => {
    const n = node();
    const f = server.add('x');
    server.publish('x', 1, n.clock.now());
    n.send('x', { type: 'configure', url: server.url('x', 'x.sim.test') });
    await n.run(16 * MIN);
    const base = f.requests;
    expect((await n.status('x')).intervalMs).toBeGreaterThanOrEqual(15 * MIN);
    n.send('x', { type: 'accelerate', intervalMs: 2 * MIN, until: n.clock.now() + 30 * MIN });
    await n.run(30 * MIN, 15_000);
    expect(f.requests - base).toBeGreaterThanOrEqual(12);
    const mid = f.requests;
    await n.run(2 * HOUR);
    expect(f.requests - mid).toBeLessThanOrEqual(9); // back to ≥ 15 min
    expect((await n.status('x')).accelUntil).toBe(0);
  });

  it('follows a feed URL change from configure', async () => {
    const n = node();
    server.add('old');
    server.add('new');
    server.publish('new', 1, n.clock.now());
    n.send('c', { type: 'configure', url: server.url('old', 'c.sim.test') });
    await n.run(HOUR); // an empty feed drops to the slowest tier
    expect((await n.status('c')).tier).toBe(3);
    n.send('c', { type: 'configure', url: server.url('new', 'c.sim.test') });
    await n.run(16 * MIN); // a new URL starts afresh: polled within the tier-1 interval
    expect(server.feeds.get('new')!.requests).toBeGreaterThan(0);
    expect(n.emitted).toHaveLength(1);
  });
});
