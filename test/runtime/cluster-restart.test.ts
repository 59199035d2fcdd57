import { describe, expect, it } from 'vitest';
import { openCluster, type Cluster } from '../../src/runtime/cluster.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { assignShards } from '../../src/runtime/rendezvous.js';
import { OwnNatsServer, until } from '../helpers/nats.js';

const KINDS = { publisher: { shards: 16 }, dedup: { shards: 8 } };

describe('a cluster across a NATS server restart', () => {
  it('nodes reconnect and own their shards again; no shard ever has two owners', async () => {
    const server = await OwnNatsServer.start();
    const links: NatsLink[] = [];
    const nodes: Cluster[] = [];
    const violations: string[] = [];
    try {
      for (const id of ['a', 'b', 'c']) {
        const link = await connectNats({ url: server.url, name: id, reconnectWaitMs: 100, pingIntervalMs: 1000 });
        links.push(link);
        const c = await openCluster({ nodeId: id, kinds: KINDS, nats: link, heartbeatMs: 200, leaseTtlMs: 3000 });
        nodes.push(c);
      }
      for (const c of nodes) {
        // the moment a node takes a shard, no other node may hold it
        c.ownership.on((e) => {
          if (e.type !== 'acquired') return;
          const others = nodes.filter((o) => o !== c && o.ownership.owns(e.kind, e.shard)).map((o) => o.nodeId);
          if (others.length) violations.push(`${e.kind}/${e.shard}: ${c.nodeId} while ${others.join()}`);
        });
        c.start();
      }
      const placed = () =>
        Object.entries(KINDS).every(([kind, spec]) =>
          assignShards(kind, spec.shards, ['a', 'b', 'c']).every((owner, s) => nodes.filter((n) => n.ownership.ready(kind, s)).map((n) => n.nodeId).join() === owner));
      await until(placed, 'the shards to be placed', 30_000, 50);

      await server.kill();
      // cut off from NATS, every node gives its leases up (TTL/2 after its last renewal)
      await until(() => nodes.every((n) => n.ownership.count('publisher') + n.ownership.count('dedup') === 0), 'every node to stop owning', 20_000, 50);
      await server.up();
      await until(() => links.every((l) => l.connected), 'the nodes to reconnect', 30_000, 50);
      await until(placed, 'the shards to be placed again', 60_000, 50);
      expect(violations).toEqual([]);
      for (const c of nodes) await c.stop();
    } finally {
      for (const l of links) await l.close().catch(() => undefined);
      await server.stop();
    }
  }, 120_000);
});
