import { afterAll, describe, expect, it } from 'vitest';
import { openCluster } from '../../src/runtime/cluster.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { assignShards } from '../../src/runtime/rendezvous.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

const KINDS = { publisher: { shards: 16 }, dedup: { shards: 8 }, story: { shards: 4 } };
const prefix = uniquePrefix('cf');
const links: NatsLink[] = [];

afterAll(async () => {
  const open = links.find((l) => !l.nc.isClosed());
  if (open) await (await open.nc.jetstreamManager()).streams.delete(`KV_${prefix}_leases`).catch(() => undefined);
  for (const l of links) await l.close().catch(() => undefined);
});

describe('openCluster', () => {
  it('embedded: one member owns every shard of the kinds it takes, at once', async () => {
    const started: string[] = [];
    const c = await openCluster({ nodeId: 'solo', kinds: KINDS, takes: ['publisher', 'story'] });
    c.ownership.attach('publisher', { acquired: (k, s) => void started.push(`${k}/${s}`), released: () => undefined });
    c.start();
    await until(() => c.ownership.count('publisher') === 16 && c.ownership.count('story') === 4, 'every shard owned');
    expect(c.ownership.count('dedup')).toBe(0);
    expect(started).toHaveLength(16);
    expect(c.ownership.ownerOfKey('publisher', 'any-id')).toBe('solo');
    await c.stop();
    expect(c.ownership.count('publisher')).toBe(0);
  });

  it('on NATS: nodes split the shards of the kinds their roles take, and a stopping node hands over', async () => {
    const open = async (id: string, takes?: string[]) => {
      const link = await connectNats({ url: SHARED_NATS_URL, name: id, prefix });
      links.push(link);
      const c = await openCluster({ nodeId: id, kinds: KINDS, nats: link, heartbeatMs: 200, leaseTtlMs: 3000, ...(takes ? { takes } : {}) });
      c.start();
      return c;
    };
    const [a, b, api] = await Promise.all([open('a'), open('b'), open('api', [])]);
    const all = [a!, b!, api!];
    const placed = (live: string[]) =>
      Object.entries(KINDS).every(([kind, spec]) => {
        const want = assignShards(kind, spec.shards, live);
        return want.every((owner, s) => all.filter((c) => c.ownership.ready(kind, s)).map((c) => c.nodeId).join() === owner);
      });
    await until(() => placed(['a', 'b']), 'a and b to own their shards', 30_000, 50);
    expect(api!.members.members()).toEqual(['a', 'api', 'b']);
    expect(api!.ownership.owner('dedup', 3)).toBe(assignShards('dedup', 8, ['a', 'b'])[3]);
    await b!.stop();
    await until(() => placed(['a']), 'a to take b\'s shards', 30_000, 50);
    await a!.stop();
    await api!.stop();
  }, 60_000);
});
