/**
 * The NATS pieces of the runtime, against a nats-server of our own (so its CPU can be read from
 * /proc): transport send and request between two connections, event fan-out, the JetStream ingest
 * log (append with acks, consume with acks) and lease renewals. Each speed stands beside the bare
 * nats.js operation measured in the same run; CPU per 1,000 items is given for this process and
 * the server, since on this shared 2-core machine wall-clock rates drift with the load.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import { LeaseKeeper } from '../src/runtime/lease.js';
import { KvLeaseStore } from '../src/runtime/lease-kv.js';
import { connectNats, type NatsLink } from '../src/runtime/nats-connect.js';
import { assignShards } from '../src/runtime/rendezvous.js';
import { NatsTransport } from '../src/runtime/transport-nats.js';
import { JetStreamWorkQueue } from '../src/runtime/work-queue-nats.js';
import { processCpuMs } from './fixtures/cpu-meter.js';

interface Article {
  id: string;
  url: string;
  title: string;
  summary: string;
  publisher: string;
  published_at: string;
  feed_category: string;
}

/** a raw article of the usual size (~600 bytes msgpack), synthetic text */
function article(i: number): Article {
  return {
    id: `bench-${i}-${(i * 2654435761) >>> 0}`,
    url: `https://news-${i % 997}.example.org/2026/12/01/story-${i}-about-the-council-vote-on-the-harbour-plan`,
    title: `Council ${i % 50} votes on harbour plan as talks continue into the night (${i})`,
    summary: 'The council met on Tuesday to debate the harbour expansion plan, with members split over the cost of dredging and the number of berths. '.repeat(2).slice(0, 300),
    publisher: `pub-${i % 997}`,
    published_at: '2026-12-01T10:00:00.000Z',
    feed_category: 'business',
  };
}

async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 14300 + Math.floor(Math.random() * 100);
    const ok = await new Promise<boolean>((r) => {
      const s = createServer().once('error', () => r(false)).listen(port, '127.0.0.1', () => s.close(() => r(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port in 14300-14399');
}

const rate = (n: number, ms: number) => n / (ms / 1000);

/** wall ms, this process's CPU ms and the server's CPU ms around `fn` */
async function measure(serverPid: number, fn: () => Promise<void>): Promise<{ ms: number; nodeCpuMs: number; serverCpuMs: number }> {
  const c0 = process.cpuUsage();
  const s0 = processCpuMs(serverPid) ?? 0;
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, nodeCpuMs: (c.user + c.system) / 1000, serverCpuMs: (processCpuMs(serverPid) ?? 0) - s0 };
}

export async function run(): Promise<Record<string, number>> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-bench-nats-'));
  const server = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  const links: NatsLink[] = [];
  try {
    for (let i = 0; ; i++) {
      try {
        links.push(await connectNats({ url }), await connectNats({ url }));
        break;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const [a, b] = links as [NatsLink, NatsLink];
    const pid = server.pid!;
    const out: Record<string, number> = {};

    // --- pub/sub: bare nats.js vs transport.send (encode, inbox subject, decode, handler)
    const N = 200_000;
    const msg = { type: 'fetched', publisher: 'pub-1', status: 200, items: 3, etag: '"abc123"', at: 1733000000000, url: 'https://news.example.org/feed.xml' };
    const bytes = new TextEncoder().encode(JSON.stringify(msg).padEnd(200));
    const raw = await measure(pid, () => pubsub(a.nc, b.nc, N, bytes));
    const ta = new NatsTransport(a.nc, 'bench-a', { prefix: 'bench' });
    const tb = new NatsTransport(b.nc, 'bench-b', { prefix: 'bench' });
    let got = 0;
    let done: () => void = () => undefined;
    tb.serve(async () => {
      if (++got === N) done();
      return null;
    });
    await b.nc.flush();
    const sendM = await measure(pid, async () => {
      const finished = new Promise<void>((r) => (done = r));
      for (let i = 0; i < N; i++) {
        ta.send('bench-b', { to: 'publisher/1', msg: { ...msg, seq: i } as never });
        if ((i & 1023) === 0) await new Promise((r) => setImmediate(r));
      }
      await finished;
    });
    out.ref_raw_pubsub_msgs_per_s = rate(N, raw.ms);
    out.send_msgs_per_s = rate(N, sendM.ms);
    out.send_ratio_vs_raw_pubsub = out.send_msgs_per_s / out.ref_raw_pubsub_msgs_per_s;
    out.send_node_cpu_ms_per_1k = (sendM.nodeCpuMs / N) * 1000;

    // --- request/reply, 256 in flight: bare nc.request vs transport.request through serve()
    const R = 40_000;
    const sub = b.nc.subscribe('bench.rawreq', { callback: (_e, m) => m.respond(m.data) });
    await b.nc.flush();
    const rawReq = await measure(pid, () => windowed(R, 256, () => a.nc.request('bench.rawreq', bytes, { timeout: 10_000 }).then(() => undefined)));
    sub.unsubscribe();
    const req = await measure(pid, () => windowed(R, 256, () => ta.request('bench-b', { to: 'publisher/1', msg }, 10_000).then(() => undefined)));
    out.ref_raw_request_per_s = rate(R, rawReq.ms);
    out.request_per_s = rate(R, req.ms);
    out.request_ratio_vs_raw = out.request_per_s / out.ref_raw_request_per_s;

    // --- JetStream: bare js.publish (awaited, 1,024 in flight) vs WorkQueue.append (same window, msgpack, Nats-Msg-Id)
    const J = 50_000;
    const js = a.nc.jetstream();
    const jsm = await a.nc.jetstreamManager();
    await jsm.streams.add({ name: 'BENCH_RAW', subjects: ['bench.raw'] });
    const items = Array.from({ length: J }, (_, i) => article(i));
    const rawBytes = items.map((it) => new TextEncoder().encode(JSON.stringify(it)));
    const rawJs = await measure(pid, () => windowed(J, 1024, (i) => js.publish('bench.raw', rawBytes[i]!).then(() => undefined)));
    await jsm.streams.delete('BENCH_RAW');
    out.ref_raw_js_publish_per_s = rate(J, rawJs.ms);
    out.ref_raw_js_publish_node_cpu_ms_per_1k = (rawJs.nodeCpuMs / J) * 1000;
    out.ref_raw_js_publish_server_cpu_ms_per_1k = (rawJs.serverCpuMs / J) * 1000;

    const cfg = { stream: 'BENCH_INGEST', subject: 'bench.ingest', durable: 'process', idOf: (x: Article) => x.id, maxBatch: 256 };
    const producer = await JetStreamWorkQueue.open<Article>(a.nc, cfg);
    const append = await measure(pid, async () => {
      for (let i = 0; i < J; i += 256) await producer.append(items.slice(i, i + 256));
    });
    out.append_per_s = rate(J, append.ms);
    out.append_ratio_vs_raw_js_publish = out.append_per_s / out.ref_raw_js_publish_per_s;
    out.append_node_cpu_ms_per_1k = (append.nodeCpuMs / J) * 1000;
    out.append_server_cpu_ms_per_1k = (append.serverCpuMs / J) * 1000;

    // consume the backlog with acks (handler does nothing: the log's own cost)
    const consumer = await JetStreamWorkQueue.open<Article>(b.nc, cfg);
    let consumed = 0;
    const consume = await measure(pid, async () => {
      consumer.consume(async (batch) => void (consumed += batch.length));
      while (consumed < J) await new Promise((r) => setTimeout(r, 5));
    });
    out.consume_per_s = rate(J, consume.ms);
    out.consume_node_cpu_ms_per_1k = (consume.nodeCpuMs / J) * 1000;
    out.consume_server_cpu_ms_per_1k = (consume.serverCpuMs / J) * 1000;

    // both at once, as in a running cluster: append and consume concurrently, end to end
    consumed = 0;
    const more = Array.from({ length: J }, (_, i) => article(J + i));
    const both = await measure(pid, async () => {
      for (let i = 0; i < J; i += 256) await producer.append(more.slice(i, i + 256));
      while (consumed < J) await new Promise((r) => setTimeout(r, 5));
    });
    out.append_and_consume_per_s = rate(J, both.ms);
    out.append_and_consume_node_cpu_ms_per_1k = (both.nodeCpuMs / J) * 1000;
    out.append_and_consume_server_cpu_ms_per_1k = (both.serverCpuMs / J) * 1000;
    await consumer.drain();
    await consumer.close();
    await producer.close();
    await jsm.streams.delete('BENCH_INGEST');
    await jsm.streams.delete('BENCH_INGEST_DEAD');

    // --- leases: one renewal round of 200 shard keys (the default kinds: ~200 shards per cluster)
    const store = await KvLeaseStore.open(a.nc, { bucket: 'bench_leases', ttlMs: 9000 });
    const keeper = new LeaseKeeper(store, { holder: 'bench#1' });
    for (let s = 0; s < 200; s++) keeper.want(`publisher.${s}`);
    keeper.start();
    while (keeper.held().length < 200) await new Promise((r) => setTimeout(r, 10));
    const ROUNDS = 20;
    const lease = await measure(pid, async () => {
      for (let r = 0; r < ROUNDS; r++) await keeper.tick();
    });
    out.lease_round_200_keys_ms = lease.ms / ROUNDS;
    out.lease_renewals_server_cpu_ms_per_1k = (lease.serverCpuMs / (ROUNDS * 200)) * 1000;
    out.lease_renewals_node_cpu_ms_per_1k = (lease.nodeCpuMs / (ROUNDS * 200)) * 1000;
    await keeper.stop();

    Object.assign(out, await failover(url));
    return out;
  } finally {
    for (const l of links) await l.close().catch(() => undefined);
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Failover with the default settings, three member processes: kill -9 of one until the
 * survivors have started all its shards; a fourth joining until it has started its share; a
 * clean stop until its shards run elsewhere.
 */
async function failover(url: string): Promise<Record<string, number>> {
  const prefix = `benchfo${process.pid}`;
  const events: { node: string; t: number; ev: string; kind?: string; shard?: number }[] = [];
  const kids = new Map<string, ReturnType<typeof spawn>>();
  const start = async (id: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fixtures/cluster-member.ts', import.meta.url).pathname, url, id, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
    kids.set(id, child);
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        events.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
    });
    while (!events.some((e) => e.node === id && e.ev === 'ready')) await new Promise((r) => setTimeout(r, 20));
  };
  const owners = () => {
    const m = new Map<string, string>();
    for (const e of events) {
      if (!e.kind) continue;
      const k = `${e.kind}/${e.shard}`;
      if (e.ev === 'start') m.set(k, e.node);
      else if (m.get(k) === e.node) m.delete(k);
    }
    return m;
  };
  const waitFor = async (cond: () => boolean) => {
    const end = Date.now() + 120_000;
    while (!cond()) {
      if (Date.now() > end) throw new Error('failover bench: timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
    return performance.timeOrigin + performance.now();
  };
  const KINDS = { publisher: 128, dedup: 64, story: 16 };
  const TOTAL = 128 + 64 + 16;
  /** every shard runs where rendezvous over `live` puts it */
  const placed = (live: string[]) => {
    const m = owners();
    return Object.entries(KINDS).every(([kind, n]) => assignShards(kind, n, live).every((owner, s) => m.get(`${kind}/${s}`) === owner));
  };
  try {
    await Promise.all(['m1', 'm2', 'm3'].map(start));
    await waitFor(() => placed(['m1', 'm2', 'm3']));
    const killedAt = performance.timeOrigin + performance.now();
    kids.get('m3')!.kill('SIGKILL');
    for (const e of events) if (e.node === 'm3' && e.ev === 'start') e.ev = 'dead'; // a killed node runs nothing
    const takenAt = await waitFor(() => placed(['m1', 'm2']));
    const joinAt = performance.timeOrigin + performance.now();
    await start('m4');
    const sharedAt = await waitFor(() => placed(['m1', 'm2', 'm4']));
    const m4Share = [...owners().values()].filter((n) => n === 'm4').length;
    const stopAt = performance.timeOrigin + performance.now();
    kids.get('m1')!.kill('SIGTERM');
    const handedAt = await waitFor(() => placed(['m2', 'm4']));
    return {
      failover_s_after_kill9: (takenAt - killedAt) / 1000,
      join_s_until_share_started: (sharedAt - joinAt) / 1000,
      join_share_of_shards: m4Share / TOTAL,
      clean_stop_s_until_shards_moved: (handedAt - stopAt) / 1000,
    };
  } finally {
    for (const k of kids.values()) k.kill('SIGKILL');
    const link = await connectNats({ url });
    await (await link.nc.jetstreamManager()).streams.delete(`KV_${prefix}_leases`).catch(() => undefined);
    await link.close();
  }
}

async function pubsub(pub: NatsConnection, subConn: NatsConnection, n: number, bytes: Uint8Array): Promise<void> {
  let got = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const sub = subConn.subscribe('bench.raw.ps', { callback: () => ++got === n && done() });
  await subConn.flush();
  for (let i = 0; i < n; i++) {
    pub.publish('bench.raw.ps', bytes);
    if ((i & 1023) === 0) await new Promise((r) => setImmediate(r));
  }
  await finished;
  sub.unsubscribe();
}

/** run `n` operations with at most `window` in flight */
async function windowed(n: number, window: number, op: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await op(next++);
  };
  await Promise.all(Array.from({ length: Math.min(window, n) }, lane));
}
