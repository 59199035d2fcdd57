import { afterAll, describe, expect, it } from 'vitest';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { LeaseKeeper } from '../../src/runtime/lease.js';
import { KvLeaseStore } from '../../src/runtime/lease-kv.js';
import { Membership } from '../../src/runtime/membership.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { ShardOwnership } from '../../src/runtime/ownership.js';
import { ShardRoute } from '../../src/runtime/shard-route.js';
import { ActorSystem, type Route } from '../../src/runtime/system.js';
import { serveSystem } from '../../src/runtime/transport.js';
import { NatsTransport } from '../../src/runtime/transport-nats.js';
import { OwnNatsServer, SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

const prefix = uniquePrefix('sr');
const links: NatsLink[] = [];
const buckets: string[] = [];

afterAll(async () => {
  const link = await connectNats({ url: SHARED_NATS_URL });
  const jsm = await link.nc.jetstreamManager();
  for (const b of [`${prefix}_leases`, ...buckets]) await jsm.streams.delete(`KV_${b}`).catch(() => undefined);
  await link.close();
  for (const l of links) await l.close().catch(() => undefined);
});

/** an hour: no ask in these tests can be answered by waiting its timeout out */
const HOUR = 3_600_000;

/**
 * a node: its own connection, membership, leases, ownership of `counter` shards, and a
 * ShardRoute; `swallow` makes its shards take asks without ever answering them (a node that got
 * the question and died, or whose answer is lost)
 */
async function node(id: string, o: { url?: string; prefix?: string; askTimeoutMs?: number } = {}) {
  const pfx = o.prefix ?? prefix;
  const link = await connectNats({ url: o.url ?? SHARED_NATS_URL, name: id, reconnectWaitMs: 100 });
  links.push(link);
  const transport = new NatsTransport(link.nc, id, { prefix: pfx, onStatus: (fn) => link.onStatus(fn) });
  const members = new Membership(transport, { intervalMs: 200 });
  const leases = new LeaseKeeper(await KvLeaseStore.open(link.nc, { bucket: `${pfx}_leases`, ttlMs: 3000 }), { holder: `${id}#${members.incarnation}` });
  const ownership = new ShardOwnership({ members, leases, kinds: { counter: { shards: 12 } }, settleMs: 500 });
  // the actors of owned shards live in their own system; they know which node they run on
  const host = new ActorSystem();
  host.register(defineBehaviour<{ n: number }, { type: 'inc' }>({
    kind: 'counter',
    init: () => ({ n: 0 }),
    receive: (s, _m, ctx) => ({ node: id, key: ctx.key, n: ++s.n }),
  }));
  const control = { swallow: 0, swallowed: 0 };
  const local: Route = {
    deliver: (to, msg, reply) => {
      if (reply && control.swallow > 0) {
        control.swallow--;
        control.swallowed++;
        return;
      }
      host.deliver(to, msg, reply);
    },
  };
  const route = new ShardRoute({ transport, ownership, local, readyWaitMs: 1500, askTimeoutMs: o.askTimeoutMs ?? 2000 });
  const system = new ActorSystem({ askTimeoutMs: 5000 });
  system.route('counter', route);
  serveSystem(system, transport, { here: new Map([['counter', route.here]]) });
  members.start();
  ownership.start();
  const stop = async () => {
    await ownership.stop();
    await members.stop();
    await system.shutdown();
    await host.shutdown();
  };
  return { id, link, transport, members, ownership, route, system, host, control, stop };
}

/** an ask that is retried while shards move (SHARD_NOT_OWNED, a node gone) */
async function askSettled(sys: ActorSystem, to: string): Promise<{ node: string; key: string; n: number }> {
  let last: unknown;
  for (let i = 0; i < 100; i++) {
    try {
      return await sys.ask(to, { type: 'inc' });
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw last;
}

describe('ShardRoute over NATS', () => {
  it('delivers each address on the node that owns its shard, from any node, and follows a failover', async () => {
    const nodes = await Promise.all(['r1', 'r2', 'r3'].map((id) => node(id)));
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    await until(() => [...Array(12).keys()].every((s) => nodes.some((n) => n.ownership.ready('counter', s))), 'every shard ready', 30_000, 50);
    await until(() => nodes.every((n) => n.members.members().length === 3), 'everyone to know everyone');

    for (const key of keys) {
      const owner = nodes[0]!.ownership.ownerOfKey('counter', key);
      for (const from of nodes) {
        const r = await askSettled(from.system, `counter/${key}`);
        expect(r.node).toBe(owner);
      }
      // one actor per address, wherever the ask came from
      expect((await askSettled(nodes[1]!.system, `counter/${key}`)).n).toBe(4);
    }

    // a node that does not own a shard refuses a message for it instead of forwarding it
    const key = keys.find((k) => nodes[0]!.ownership.ownerOfKey('counter', k) !== 'r1')!;
    await expect(nodes[0]!.transport.request('r1', { to: `counter/${key}`, msg: { type: 'inc' } }, 5000)).rejects.toMatchObject({ code: 'SHARD_NOT_OWNED' });

    // r3 dies (its connection drops, no goodbye): its keys answer from the survivors after the lease TTL
    const r3Keys = keys.filter((k) => nodes[0]!.ownership.ownerOfKey('counter', k) === 'r3');
    expect(r3Keys.length).toBeGreaterThan(0);
    await nodes[2]!.link.close();
    await until(() => nodes[0]!.members.members().length === 2, 'r3 to expire', 20_000);
    for (const k of r3Keys) {
      const r = await askSettled(nodes[0]!.system, `counter/${k}`);
      expect(['r1', 'r2']).toContain(r.node);
      expect(r.node).toBe(nodes[0]!.ownership.ownerOfKey('counter', k));
    }
    for (const n of nodes) await n.stop();
  }, 120_000);

  it('an ask in flight to an owner that dies is answered by the new owner, not after the ask timeout', async () => {
    const pfx = uniquePrefix('srk');
    buckets.push(`${pfx}_leases`);
    const nodes = await Promise.all(['k1', 'k2', 'k3'].map((id) => node(id, { prefix: pfx, askTimeoutMs: HOUR })));
    await until(() => [...Array(12).keys()].every((s) => nodes.some((n) => n.ownership.ready('counter', s))), 'every shard ready', 30_000, 50);
    await until(() => nodes.every((n) => n.members.members().length === 3), 'everyone to know everyone');
    const [k1, , k3] = nodes as [typeof nodes[0], typeof nodes[0], typeof nodes[0]];
    const key = Array.from({ length: 100 }, (_, i) => `d${i}`).find((k) => k1.ownership.ownerOfKey('counter', k) === 'k3')!;
    // k3 takes the question and dies before answering (no goodbye; its leases lapse)
    k3.control.swallow = 1;
    const asked = k1.system.ask<{ node: string }>(`counter/${key}`, { type: 'inc' }, HOUR);
    await until(() => k3.control.swallowed === 1, 'the ask to reach k3');
    expect(k1.route.inFlight).toBe(1);
    await k3.link.close();
    const r = await asked;
    expect(['k1', 'k2']).toContain(r.node);
    expect(r.node).toBe(k1.ownership.ownerOfKey('counter', key));
    expect(k1.route.inFlight).toBe(0);
    for (const n of nodes) await n.stop().catch(() => undefined);
  }, 120_000);

  it('an ask waiting when the NATS link drops is asked again once it is back, not after the ask timeout', async () => {
    const server = await OwnNatsServer.start();
    try {
      const nodes = await Promise.all(['s1', 's2'].map((id) => node(id, { url: server.url, askTimeoutMs: HOUR })));
      await until(() => [...Array(12).keys()].every((s) => nodes.some((n) => n.ownership.ready('counter', s))), 'every shard ready', 30_000, 50);
      await until(() => nodes.every((n) => n.members.members().length === 2), 'both to know each other');
      const [s1, s2] = nodes as [typeof nodes[0], typeof nodes[0]];
      const key = Array.from({ length: 100 }, (_, i) => `n${i}`).find((k) => s1.ownership.ownerOfKey('counter', k) === 's2')!;
      // s2 takes the question; its answer would be lost with the link
      s2.control.swallow = 1;
      const asked = s1.system.ask<{ node: string; n: number }>(`counter/${key}`, { type: 'inc' }, HOUR);
      await until(() => s2.control.swallowed === 1, 'the ask to reach s2');
      await server.kill();
      await server.up();
      const r = await asked;
      expect(r.n).toBe(1);
      expect(s1.route.inFlight).toBe(0);
      for (const n of nodes) await n.stop().catch(() => undefined);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
