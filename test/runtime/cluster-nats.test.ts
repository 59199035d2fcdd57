import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectNats } from '../../src/runtime/nats-connect.js';
import { assignShards } from '../../src/runtime/rendezvous.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';
import { CLUSTER_KINDS } from './fixtures/cluster-kinds.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./fixtures/cluster-node.ts', import.meta.url));
const TTL = 3000;
const prefix = uniquePrefix('cl');

interface Ev {
  node: string;
  t: number;
  ev: 'ready' | 'start' | 'stop' | 'released' | 'exit';
  kind?: string;
  shard?: number;
  reason?: string;
}

const events: Ev[] = [];
const children = new Map<string, ChildProcess>();
const killedAt = new Map<string, number>();

function startNode(id: string, pfx: string = prefix): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, SHARED_NATS_URL, id, pfx, String(TTL)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.set(id, child);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as Ev);
    } catch {
      // not ours
    }
  });
  return until(() => events.some((e) => e.node === id && e.ev === 'ready'), `node ${id} to start`, 60_000, 50);
}

/** who owns each shard now, from the events: started and not stopped or released since */
function owners(): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const e of events) {
    if (!e.kind) continue;
    const key = `${e.kind}/${e.shard}`;
    const set = m.get(key) ?? new Set<string>();
    m.set(key, set);
    if (e.ev === 'start') set.add(e.node);
    else if (e.ev === 'stop' || e.ev === 'released') set.delete(e.node);
  }
  for (const node of killedAt.keys()) for (const set of m.values()) set.delete(node);
  return m;
}

function placedAsRendezvous(live: string[]): boolean {
  const now = owners();
  for (const [kind, spec] of Object.entries(CLUSTER_KINDS)) {
    const want = assignShards(kind, spec.shards, live);
    for (let s = 0; s < spec.shards; s++) {
      const got = [...(now.get(`${kind}/${s}`) ?? [])];
      if (got.length !== 1 || got[0] !== want[s]) return false;
    }
  }
  return true;
}

/** every shard's ownership intervals, per node, never overlap (killed nodes end at the kill) */
function overlaps(): string[] {
  const bad: string[] = [];
  const open = new Map<string, Map<string, number>>();
  const intervals = new Map<string, [string, number, number][]>();
  const close = (key: string, node: string, t: number) => {
    const from = open.get(key)?.get(node);
    if (from === undefined) return;
    open.get(key)!.delete(node);
    intervals.set(key, [...(intervals.get(key) ?? []), [node, from, t]]);
  };
  for (const e of [...events].sort((a, b) => a.t - b.t)) {
    if (!e.kind) continue;
    const key = `${e.kind}/${e.shard}`;
    if (!open.has(key)) open.set(key, new Map());
    if (e.ev === 'start') open.get(key)!.set(e.node, e.t);
    else close(key, e.node, e.t);
  }
  for (const [key, m] of open) for (const node of [...m.keys()]) close(key, node, killedAt.get(node) ?? Infinity);
  for (const [key, list] of intervals) {
    list.sort((a, b) => a[1] - b[1]);
    for (let i = 1; i < list.length; i++) if (list[i]![1] < list[i - 1]![2]) bad.push(`${key}: ${list[i - 1]![0]} until ${list[i - 1]![2]}, ${list[i]![0]} from ${list[i]![1]}`);
  }
  return bad;
}

const keptPrefix = uniquePrefix('ck');

afterAll(async () => {
  for (const c of children.values()) c.kill('SIGKILL');
  const link = await connectNats({ url: SHARED_NATS_URL });
  const jsm = await link.nc.jetstreamManager();
  for (const p of [prefix, keptPrefix]) await jsm.streams.delete(`KV_${p}_leases`).catch(() => undefined);
  await link.close();
});

describe('a cluster of node processes on NATS', () => {
  it('places shards by rendezvous, survives kill -9, shares with a joining node, hands over on a clean stop', async () => {
    await Promise.all(['n1', 'n2', 'n3'].map((id) => startNode(id)));
    await until(() => placedAsRendezvous(['n1', 'n2', 'n3']), 'three nodes to own their shards', 60_000, 100);

    // kill -9 one: its shards go to the survivors once its leases expire
    const n3 = children.get('n3')!;
    killedAt.set('n3', performance.timeOrigin + performance.now());
    n3.kill('SIGKILL');
    await until(() => placedAsRendezvous(['n1', 'n2']), 'the survivors to take the dead node\'s shards', 60_000, 100);

    // a fourth node joins and takes its rendezvous share (about a third of each kind)
    await startNode('n4');
    await until(() => placedAsRendezvous(['n1', 'n2', 'n4']), 'the new node to take its share', 60_000, 100);
    const n4Publishers = [...owners()].filter(([k, s]) => k.startsWith('publisher/') && s.has('n4')).length;
    expect(n4Publishers).toBeGreaterThan(0);
    expect(events.some((e) => e.node !== 'n4' && e.ev === 'stop' && e.reason === 'moved')).toBe(true);

    // a clean stop hands over without waiting for lease expiry
    children.get('n1')!.kill('SIGTERM');
    await until(() => events.some((e) => e.node === 'n1' && e.ev === 'exit'), 'n1 to exit', 30_000, 50);
    await until(() => placedAsRendezvous(['n2', 'n4']), 'n2 and n4 to take n1\'s shards', 60_000, 100);
    expect(events.some((e) => e.node === 'n1' && e.ev === 'stop' && e.reason === 'stopping')).toBe(true);

    expect(overlaps()).toEqual([]);
  }, 240_000);

  it('takes over a killed node\'s shards though the store never expires its leases', async () => {
    for (const c of children.values()) c.kill('SIGKILL');
    events.length = 0;
    killedAt.clear();
    // a lease bucket with no max age: the server keeps every key until it is deleted, as the
    // nats-server 2.9.10 of issue 20 kept a dead node's keys for minutes
    const link = await connectNats({ url: SHARED_NATS_URL });
    const kv = await link.nc.jetstream().views.kv(`${keptPrefix}_leases`, { history: 1 });
    expect((await kv.status()).ttl).toBe(0);
    await link.close();

    await Promise.all(['k1', 'k2'].map((id) => startNode(id, keptPrefix)));
    await until(() => placedAsRendezvous(['k1', 'k2']), 'two nodes to own their shards', 60_000, 100);
    const k2 = children.get('k2')!;
    killedAt.set('k2', performance.timeOrigin + performance.now());
    k2.kill('SIGKILL');
    // k1 takes every shard of k2 once k2 has been gone from the members for a lease TTL
    await until(() => placedAsRendezvous(['k1']), 'the survivor to take over the dead node\'s shards', 60_000, 100);
    expect(overlaps()).toEqual([]);
  }, 120_000);
});
