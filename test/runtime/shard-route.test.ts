import { afterAll, describe, expect, it } from 'vitest';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { LeaseKeeper } from '../../src/runtime/lease.js';
import { KvLeaseStore } from '../../src/runtime/lease-kv.js';
import { Membership } from '../../src/runtime/membership.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { ShardOwnership } from '../../src/runtime/ownership.js';
import { ShardRoute } from '../../src/runtime/shard-route.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { serveSystem } from '../../src/runtime/transport.js';
import { NatsTransport } from '../../src/runtime/transport-nats.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

const prefix = uniquePrefix('sr');
const links: NatsLink[] = [];

afterAll(async () => {
  const jsm = await links.find((l) => !l.nc.isClosed())!.nc.jetstreamManager();
  await jsm.streams.delete(`KV_${prefix}_leases`).catch(() => undefined);
  for (const l of links) await l.close().catch(() => undefined);
});

/** a node: its own connection, membership, leases, ownership of `counter` shards, and a ShardRoute */
async function node(id: string) {
  const link = await connectNats({ url: SHARED_NATS_URL, name: id });
  links.push(link);
  const transport = new NatsTransport(link.nc, id, { prefix });
  const members = new Membership(transport, { intervalMs: 200 });
  const leases = new LeaseKeeper(await KvLeaseStore.open(link.nc, { bucket: `${prefix}_leases`, ttlMs: 3000 }), { holder: `${id}#${members.incarnation}` });
  const ownership = new ShardOwnership({ members, leases, kinds: { counter: { shards: 12 } }, settleMs: 500 });
  // the actors of owned shards live in their own system; they know which node they run on
  const host = new ActorSystem();
  host.register(defineBehaviour<{ n: number }, { type: 'inc' }>({
    kind: 'counter',
    init: () => ({ n: 0 }),
    receive: (s, _m, ctx) => ({ node: id, key: ctx.key, n: ++s.n }),
  }));
  const route = new ShardRoute({ transport, ownership, local: host, readyWaitMs: 1500, askTimeoutMs: 2000 });
  const system = new ActorSystem({ askTimeoutMs: 5000 });
  system.route('counter', route);
  serveSystem(system, transport, { here: new Map([['counter', route.here]]) });
  members.start();
  ownership.start();
  return { id, link, transport, members, ownership, route, system, host };
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
    const nodes = await Promise.all(['r1', 'r2', 'r3'].map(node));
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
    for (const n of nodes) {
      await n.ownership.stop();
      await n.members.stop();
      await n.system.shutdown();
      await n.host.shutdown();
    }
  }, 120_000);
});
