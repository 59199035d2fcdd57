import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseKeeper } from '../../src/runtime/lease.js';
import { KvLeaseStore } from '../../src/runtime/lease-kv.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { SHARED_NATS_URL, TcpProxy, uniquePrefix, until } from '../helpers/nats.js';

let link: NatsLink;
const buckets: string[] = [];

beforeAll(async () => {
  link = await connectNats({ url: SHARED_NATS_URL });
});

afterAll(async () => {
  const jsm = await link.nc.jetstreamManager();
  for (const b of buckets) await jsm.streams.delete(`KV_${b}`).catch(() => undefined);
  await link.close();
});

function bucket(tag: string): string {
  const b = uniquePrefix(tag);
  buckets.push(b);
  return b;
}

describe('KvLeaseStore (JetStream KV)', () => {
  it('creates, renews by compare-and-set, releases, and refuses everyone else', async () => {
    const store = await KvLeaseStore.open(link.nc, { bucket: bucket('kv'), ttlMs: 60_000 });
    expect(store.ttlMs).toBe(60_000);
    const r1 = await store.create('publisher.3', 'a#1');
    expect(r1).toBeGreaterThan(0);
    expect(await store.create('publisher.3', 'b#1')).toBeNull();
    const r2 = await store.renew('publisher.3', 'a#1', r1!);
    expect(r2).toBeGreaterThan(r1!);
    expect(await store.renew('publisher.3', 'a#1', r1!)).toBeNull(); // a stale revision
    expect(await store.read('publisher.3')).toEqual({ holder: 'a#1', revision: r2 });
    await store.release('publisher.3', r1!); // not ours any more at r1: no effect
    expect(await store.read('publisher.3')).toEqual({ holder: 'a#1', revision: r2 });
    await store.release('publisher.3', r2!);
    expect(await store.read('publisher.3')).toBeNull();
    expect(await store.create('publisher.3', 'b#1')).toBeGreaterThan(r2!);
    expect(await store.read('never.1')).toBeNull();
  });

  it('is idempotent to open, and an existing bucket keeps its TTL', async () => {
    const name = bucket('kv');
    const a = await KvLeaseStore.open(link.nc, { bucket: name, ttlMs: 4_000 });
    const b = await KvLeaseStore.open(link.nc, { bucket: name, ttlMs: 9_000 });
    expect(a.ttlMs).toBe(4_000);
    expect(b.ttlMs).toBe(4_000);
  });

  it('in a bucket without a max age, takes over a key whose holder is gone, by compare-and-set', async () => {
    const name = bucket('kv');
    await link.nc.jetstream().views.kv(name, { history: 1 }); // made by hand: keys never expire
    const store = await KvLeaseStore.open(link.nc, { bucket: name, ttlMs: 1_000 });
    expect(store.ttlMs).toBe(1_000);
    expect(store.name).toBe(name);
    expect(store.generation).toBeGreaterThan(Date.parse('2020-01-01'));
    const dead = await store.create('story.0', 'gone#1');
    const b = new LeaseKeeper(store, { holder: 'b#1', holderLive: (h) => h === 'b#1' });
    b.want('story.0');
    b.start();
    try {
      await until(() => b.holds('story.0'), 'b to take over the key of a gone holder', 30_000, 50);
      expect(await store.read('story.0')).toMatchObject({ holder: 'b#1' });
      expect(await store.renew('story.0', 'gone#1', dead!)).toBeNull();
      expect(b.fence('story.0')).toMatchObject({ key: `${name}/story.0`, gen: store.generation });
      expect(b.fence('story.0')!.rev).toBeGreaterThan(dead!);
    } finally {
      await b.stop();
    }
  });

  it('lets a key expire TTL after its last write, then another holder takes it', async () => {
    const store = await KvLeaseStore.open(link.nc, { bucket: bucket('kv'), ttlMs: 1_000 });
    const r = await store.create('story.1', 'a#1');
    expect(r).not.toBeNull();
    expect(await store.create('story.1', 'b#1')).toBeNull();
    await until(async () => (await store.create('story.1', 'b#1')) !== null, 'the lease to expire', 15_000, 100);
    expect(await store.read('story.1')).toMatchObject({ holder: 'b#1' });
  });
});

describe('leases across a partition (a TCP proxy between one node and NATS, cut silently)', () => {
  it('the cut-off holder stops holding before the other node acquires, for every key, and stays out after healing', async () => {
    const name = bucket('part');
    const proxy = await TcpProxy.start(new URL(SHARED_NATS_URL).port ? Number(new URL(SHARED_NATS_URL).port) : 4222);
    const viaProxy = await connectNats({ url: proxy.url, pingIntervalMs: 1000 });
    try {
      const ttlMs = 3_000;
      const keys = ['publisher.0', 'publisher.1', 'dedup.7', 'story.2'];
      const a = new LeaseKeeper(await KvLeaseStore.open(viaProxy.nc, { bucket: name, ttlMs }), { holder: 'a#1' });
      const b = new LeaseKeeper(await KvLeaseStore.open(link.nc, { bucket: name, ttlMs }), { holder: 'b#1' });
      const aLost = new Map<string, number>();
      const bGot = new Map<string, number>();
      const violations: string[] = [];
      a.on((e) => e.type === 'lost' && aLost.set(e.key, performance.now()));
      b.on((e) => {
        if (e.type !== 'acquired') return;
        bGot.set(e.key, performance.now());
        // the moment b owns the key, a must already consider itself out
        if (a.holds(e.key)) violations.push(e.key);
      });
      for (const k of keys) a.want(k);
      a.start();
      await until(() => keys.every((k) => a.holds(k)), 'a to hold every key');
      for (const k of keys) b.want(k);
      b.start();
      // a keeps renewing; b is refused for several TTLs
      const refusedUntil = Date.now() + 2 * ttlMs;
      await until(() => Date.now() > refusedUntil, 'two TTLs to pass', 3 * ttlMs);
      expect(keys.filter((k) => b.holds(k))).toEqual([]);
      expect(keys.every((k) => a.holds(k))).toBe(true);

      proxy.cut();
      await until(() => keys.every((k) => b.holds(k)), 'b to take every key', 30_000);
      expect(violations).toEqual([]);
      for (const k of keys) {
        expect(aLost.get(k)).toBeDefined();
        expect(aLost.get(k)!).toBeLessThan(bGot.get(k)!);
        expect(a.holds(k)).toBe(false);
      }

      // heal: a reconnects, its renewals are refused, b keeps the keys
      proxy.heal();
      await until(() => viaProxy.connected, 'a to reconnect', 30_000, 50);
      const watchUntil = Date.now() + ttlMs;
      await until(() => Date.now() > watchUntil, 'a TTL after healing', 2 * ttlMs);
      expect(keys.filter((k) => a.holds(k))).toEqual([]);
      expect(keys.every((k) => b.holds(k))).toBe(true);
      await b.stop();
      await a.stop();
    } finally {
      await viaProxy.close().catch(() => undefined);
      await proxy.close();
    }
  }, 90_000);
});
