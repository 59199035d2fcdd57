import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/runtime/clock.js';
import { LeaseKeeper, type LeaseStore } from '../../src/runtime/lease.js';
import { MemoryLeaseStore } from '../../src/runtime/lease-memory.js';
import { Membership } from '../../src/runtime/membership.js';
import { ShardOwnership, soleMember, type ReleaseReason, type ShardHost } from '../../src/runtime/ownership.js';
import { assignShards } from '../../src/runtime/rendezvous.js';
import { InProcessBus } from '../../src/runtime/transport-local.js';
import type { Transport } from '../../src/runtime/transport.js';

const KINDS = { publisher: { shards: 32 }, dedup: { shards: 16 }, story: { shards: 8 } };
const TTL = 6000;

/** Everything a node does to its shards, in order, across all nodes. */
const journal: string[] = [];

class RecordingHost implements ShardHost {
  readonly running = new Set<string>();
  constructor(private readonly node: string) {}
  async acquired(kind: string, shard: number) {
    journal.push(`${this.node} start ${kind}/${shard}`);
    this.running.add(`${kind}/${shard}`);
  }
  async released(kind: string, shard: number, reason: ReleaseReason) {
    journal.push(`${this.node} stop ${kind}/${shard} ${reason}`);
    this.running.delete(`${kind}/${shard}`);
  }
}

/** one "node": a transport and a store link that can die, membership, leases, ownership */
function makeNode(id: string, bus: InProcessBus, store: MemoryLeaseStore, clock: ManualClock, kinds?: string[]) {
  let dead = false;
  const t = bus.connect(id);
  const transport: Transport = {
    nodeId: id,
    send: (n, e) => (dead ? undefined : t.send(n, e)),
    request: (n, e, ms) => t.request(n, e, ms),
    serve: (h) => t.serve(h),
    publish: (topic, d) => (dead ? undefined : t.publish(topic, d)),
    subscribe: (topic, h) => t.subscribe(topic, (d) => (dead ? undefined : h(d))),
    close: () => t.close(),
  };
  const link: LeaseStore = {
    ttlMs: store.ttlMs,
    name: store.name,
    generation: store.generation,
    create: (k, h) => (dead ? Promise.reject(new Error('cut')) : store.create(k, h)),
    takeOver: (k, h, r) => (dead ? Promise.reject(new Error('cut')) : store.takeOver(k, h, r)),
    renew: (k, h, r) => (dead ? Promise.reject(new Error('cut')) : store.renew(k, h, r)),
    release: (k, r) => (dead ? Promise.reject(new Error('cut')) : store.release(k, r)),
    read: (k) => (dead ? Promise.reject(new Error('cut')) : store.read(k)),
  };
  const members = new Membership(transport, { intervalMs: 500, clock, ...(kinds ? { kinds } : {}) });
  const leases = new LeaseKeeper(link, { holder: `${id}#1`, clock });
  const host = new RecordingHost(id);
  const ownership = new ShardOwnership({ members, leases, kinds: KINDS, host, clock, settleMs: 600 });
  return {
    id, members, leases, host, ownership,
    start() {
      members.start();
      ownership.start();
    },
    async stop() {
      await ownership.stop();
      await members.stop();
    },
    /** crash: nothing leaves or arrives any more; its timers still run (like a node cut off) */
    cut() {
      dead = true;
    },
  };
}
type Node = ReturnType<typeof makeNode>;

function cluster() {
  const bus = new InProcessBus();
  const clock = new ManualClock(0);
  const store = new MemoryLeaseStore(TTL, clock);
  const nodes: Node[] = [];
  const add = (id: string, kinds?: string[]) => {
    const n = makeNode(id, bus, store, clock, kinds);
    nodes.push(n);
    n.start();
    return n;
  };
  /** advance time in steps; at every step no shard has two owners */
  const run = async (ms: number, step = 50) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(step);
      for (let i = 0; i < 6; i++) await new Promise((r) => setImmediate(r));
      for (const [kind, spec] of Object.entries(KINDS)) {
        for (let s = 0; s < spec.shards; s++) {
          const owners = nodes.filter((n) => n.ownership.owns(kind, s)).map((n) => n.id);
          if (owners.length > 1) throw new Error(`${kind}/${s} owned by ${owners.join(' and ')} at ${clock.now()}`);
        }
      }
    }
  };
  return { clock, nodes, add, run };
}

/** each shard owned by the node rendezvous names among `live` (per kind if a function), with its host running it */
function expectPlaced(nodes: Node[], live: string[] | ((kind: string) => string[])) {
  for (const [kind, spec] of Object.entries(KINDS)) {
    const want = assignShards(kind, spec.shards, typeof live === 'function' ? live(kind) : live);
    for (let s = 0; s < spec.shards; s++) {
      const owners = nodes.filter((n) => n.ownership.owns(kind, s)).map((n) => n.id);
      expect({ shard: `${kind}/${s}`, owners }).toEqual({ shard: `${kind}/${s}`, owners: [want[s]] });
      const owner = nodes.find((n) => n.id === want[s])!;
      expect(owner.host.running.has(`${kind}/${s}`)).toBe(true);
      expect(owner.ownership.ready(kind, s)).toBe(true);
    }
  }
}

describe('ShardOwnership', () => {
  it('places every shard on its rendezvous owner, moves them on a crash and a join, never two owners at once', async () => {
    journal.length = 0;
    const c = cluster();
    const [n1, n2, n3] = ['n1', 'n2', 'n3'].map((id) => c.add(id));
    await c.run(3_000);
    expectPlaced(c.nodes, ['n1', 'n2', 'n3']);
    expect(n1!.ownership.count('publisher') + n2!.ownership.count('publisher') + n3!.ownership.count('publisher')).toBe(32);
    // at a cold start nodes waited to hear each other: no shard started on one node and moved
    expect(journal.filter((j) => j.includes(' stop '))).toEqual([]);

    // n3 is cut off (crash or partition): it stops owning before anyone else starts its shards
    const n3Shards = ['publisher', 'dedup', 'story'].flatMap((k) => n3!.ownership.owned(k).map((s) => `${k}/${s}`));
    expect(n3Shards.length).toBeGreaterThan(0);
    journal.length = 0;
    n3!.cut();
    await c.run(TTL * 2);
    const survivors = c.nodes.filter((n) => n !== n3);
    expectPlaced(survivors, ['n1', 'n2']);
    for (const shard of n3Shards) {
      const stop = journal.indexOf(`n3 stop ${shard} lost`);
      const start = journal.findIndex((j) => j.endsWith(`start ${shard}`));
      expect(stop).toBeGreaterThanOrEqual(0);
      expect(start).toBeGreaterThan(stop);
    }

    // n4 joins: it takes a share from each survivor; the old owner stops a shard before n4 starts it
    journal.length = 0;
    const n4 = c.add('n4');
    await c.run(3_000);
    expectPlaced([...survivors, n4], ['n1', 'n2', 'n4']);
    const moved = journal.filter((j) => j.startsWith('n4 start'));
    expect(moved.length).toBeGreaterThan(0);
    for (const m of moved) {
      const shard = m.slice('n4 start '.length);
      const stop = journal.findIndex((j) => j.endsWith(`stop ${shard} moved`));
      expect(stop).toBeGreaterThanOrEqual(0);
      expect(stop).toBeLessThan(journal.indexOf(m));
    }
    // a planned move takes one handover, not a lease expiry: well under the TTL
    expect(n4.ownership.count('publisher')).toBeGreaterThan(0);

    // n1 stops cleanly: its shards are released at once and taken without waiting for expiry
    journal.length = 0;
    const t0 = c.clock.now();
    await n1!.stop();
    await c.run(2_000);
    expectPlaced([n2!, n4], ['n2', 'n4']);
    expect(journal.some((j) => j.startsWith('n1 stop') && j.endsWith('stopping'))).toBe(true);
    expect(c.clock.now() - t0).toBeLessThan(TTL);
    await n2!.stop();
    await n4.stop();
  });

  it('places each kind only on the nodes whose roles take it', async () => {
    const c = cluster();
    c.add('ingest-1', ['publisher']);
    c.add('process-1', ['dedup', 'story']);
    c.add('all-1');
    const api = c.add('api-1', []);
    await c.run(3_000);
    expectPlaced(c.nodes, (kind) => (kind === 'publisher' ? ['all-1', 'ingest-1'] : ['all-1', 'process-1']));
    expect(['publisher', 'dedup', 'story'].map((k) => api.ownership.count(k))).toEqual([0, 0, 0]);
    // every node, the api one included, knows where each shard lives
    expect(api.ownership.owner('publisher', 3)).toBe(c.nodes[0]!.ownership.owner('publisher', 3));
    for (const n of c.nodes) await n.stop();
  });

  it('retries a failed rebuild while the shard is still owned, and reports ready only after it', async () => {
    const clock = new ManualClock(0);
    let failures = 2;
    const ready: string[] = [];
    const host: ShardHost = {
      acquired: async () => {
        if (failures-- > 0) throw new Error('database away');
      },
      released: () => undefined,
    };
    const leases = new LeaseKeeper(new MemoryLeaseStore(TTL, clock), { holder: 'solo#1', clock });
    const o = new ShardOwnership({ members: soleMember('solo'), leases, kinds: { story: { shards: 1 } }, host, clock, settleMs: 0 });
    o.on((e) => e.type === 'ready' && ready.push(`${e.kind}/${e.shard}`));
    o.start();
    const waiting = o.whenReady('story', 0, 60_000);
    for (let t = 0; t < 5_000; t += 50) {
      clock.advance(50);
      for (let i = 0; i < 6; i++) await Promise.resolve();
    }
    expect(o.owns('story', 0)).toBe(true);
    expect(failures).toBeLessThan(0);
    expect(ready).toEqual(['story/0']);
    expect(await waiting).toBe(true);
    expect(o.owner('story', 0)).toBe('solo');
    expect(o.shardOf('story', 'anything')).toBe(0);
    await o.stop();
    expect(o.owns('story', 0)).toBe(false);
  });

  it('raises the shard\'s fence to its lease\'s token before the host rebuilds it, retrying until the raise succeeds', async () => {
    const clock = new ManualClock(0);
    const order: string[] = [];
    let failRaises = 2;
    const fences = {
      raise: async (t: { key: string; rev: number }) => {
        if (failRaises-- > 0) throw Object.assign(new Error('database away'), { code: 'DEPENDENCY_UNAVAILABLE' });
        order.push(`raise ${t.key}@${t.rev}`);
      },
    };
    const host: ShardHost = { acquired: (k, s) => void order.push(`acquired ${k}/${s}`), released: () => undefined };
    const store = new MemoryLeaseStore(TTL, clock);
    const leases = new LeaseKeeper(store, { holder: 'solo#1', clock });
    const o = new ShardOwnership({ members: soleMember('solo'), leases, kinds: { story: { shards: 1 } }, host, clock, settleMs: 0, fences });
    o.start();
    for (let t = 0; t < 5_000; t += 50) {
      clock.advance(50);
      for (let i = 0; i < 6; i++) await Promise.resolve();
    }
    const token = o.fence('story', 0)!;
    expect(token).toEqual({ key: 'memory/story.0', gen: store.generation, rev: expect.any(Number) });
    expect(order).toEqual([`raise memory/story.0@${token.rev}`, 'acquired story/0']);
    expect(o.ready('story', 0)).toBe(true);
    await o.stop();
    expect(o.fence('story', 0)).toBeNull();
  });

  it('tells where a shard is placed when a member leaves', async () => {
    const c = cluster();
    const [n1, , n3] = ['n1', 'n2', 'n3'].map((id) => c.add(id));
    await c.run(3_000);
    const placed: string[] = [];
    n1!.ownership.on((e) => e.type === 'placed' && placed.push(`${e.kind}/${e.shard}>${e.node}`));
    const n3Shards = Object.entries(KINDS).flatMap(([k, spec]) => [...Array(spec.shards).keys()].filter((s) => n1!.ownership.owner(k, s) === 'n3').map((s) => `${k}/${s}`));
    n3!.cut();
    await c.run(TTL);
    expect(placed.map((p) => p.split('>')[0]).sort()).toEqual(n3Shards.sort());
    for (const p of placed) expect(['n1', 'n2']).toContain(p.split('>')[1]);
    for (const n of c.nodes) await n.stop();
  });

  it.each([
    [{ publisher: { shards: 0 } }, /positive integer/],
    [{ 'a.b': { shards: 2 } }, /bad shard kind/],
  ])('refuses bad shard kinds %j', (kinds, msg) => {
    const leases = new LeaseKeeper(new MemoryLeaseStore(TTL), { holder: 'x' });
    expect(() => new ShardOwnership({ members: soleMember('x'), leases, kinds })).toThrow(msg);
  });
});
