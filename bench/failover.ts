/**
 * Failover benchmark (`npm run bench -- failover`): how long ingest stops when the node owning the
 * story shard dies (kill -9) and when NATS restarts, on the default settings.
 *
 * Three node processes (`newsagg start --roles all`) share a scratch PostgreSQL database, a
 * private Redis and a nats-server of this benchmark's own (so it can be restarted), against the
 * publisher simulator in this process, behind a load balancer (their one --public-url); items are
 * published at a steady rate on publishers with a WebSub hub, so each is pushed at once to a node,
 * which forwards it to the publisher's owner. Besides, one probe article every 100 ms is appended
 * straight to the ingest log: when the first probe after a fault is stored says when ingest
 * resumed, whatever the hub does meanwhile (its 64 connections fill with pushes for the dead
 * owner's publishers, which wait for their new owner, and the other pushes queue behind them).
 * Faults, one after the other:
 *
 * - kill -9 of the node owning the story shard (it may own the dedup shard too). Seconds from the
 *   kill until a survivor owns the story shard, until it reported it ready (rebuilt: its window
 *   replayed), until the first probe and the first published article after the kill are stored,
 *   and until the first article of a publisher the killed node owned is stored (publisher shard
 *   movement included: its push is forwarded to the publisher's new owner).
 * - nats-server killed and started again 0.5 s later. Seconds from the restart until the first
 *   probe and the first published article after it are stored; leases that lapsed meanwhile (no
 *   confirmed renewal within TTL/2: their shards are released and rebuilt), and when the story
 *   shard was ready again.
 *
 * At the end every published article must be stored once (`not_stored_within_180s`, `stored_twice`).
 * Sizes: NEWSAGG_BENCH_FAILOVER_PUBLISHERS (60), _RATE (articles/s offered, 20: asks to the story
 * and dedup owners are nearly always in flight, and three nodes on this 2-core machine keep up;
 * `probe_lag_before_kill_s` says how far behind ingest ran before the first fault).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RawArticle } from '../src/actors/ingest/types.js';
import { newsMigrations } from '../src/actors/store/migrations.js';
import { openIngestLog } from '../src/roles/ingest-log.js';
import { silentLogger } from '../src/runtime/log.js';
import { connectNats, type NatsLink } from '../src/runtime/nats-connect.js';
import { migrate } from '../src/runtime/migrate.js';
import { openSql, type Sql } from '../src/runtime/sql.js';
import { startSimulator, type Simulator } from '../src/simulator/index.js';
import { freePort, scratch } from './fixtures/scratch-stores.js';

type Figures = Record<string, number | string | boolean>;
const env = process.env;
const PUBLISHERS = Number(env.NEWSAGG_BENCH_FAILOVER_PUBLISHERS ?? 60);
const RATE = Number(env.NEWSAGG_BENCH_FAILOVER_RATE ?? 20);
const TOKEN = 'bench-failover-admin-token';
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const NATS_SERVER = '/usr/sbin/nats-server';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface NodeProc {
  id: string;
  proc: ChildProcess;
  url: Promise<string>;
}

/** when each node reported a shard ready (its log line), by `<kind>/<shard>` */
const readyAt: { node: string; shard: string; at: number }[] = [];
/** when a node reported a lease lapsed (no confirmed renewal within TTL/2) */
const lapsedAt: number[] = [];

function startNodeProc(id: string, args: string[]): NodeProc {
  const proc = spawn(process.execPath, ['--import', 'tsx', CLI, 'start', '--node-id', id, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      const m = /^newsagg listening on (\S+)$/.exec(l);
      if (m) resolve(m[1]!);
    });
    // nodes log at info: shard readiness is read from it, warnings and errors are shown
    createInterface({ input: proc.stderr! }).on('line', (l) => {
      let o: { level?: number; msg?: string; kind?: string; shard?: number } = {};
      try {
        o = JSON.parse(l) as typeof o;
      } catch {
        // not a log line
      }
      if (o.msg === 'shard ready') readyAt.push({ node: id, shard: `${o.kind}/${o.shard}`, at: Date.now() });
      if (o.msg?.startsWith('lease lapsed')) lapsedAt.push(Date.now());
      if ((o.level ?? 40) >= 40) process.stderr.write(`  [${id}] ${l.slice(0, 400)}\n`);
    });
    proc.once('exit', (code) => reject(new Error(`${id} exited with ${code} before listening`)));
  });
  return { id, proc, url };
}

async function stopNodeProc(n: NodeProc): Promise<void> {
  if (n.proc.exitCode !== null || n.proc.signalCode !== null) return;
  const done = new Promise((r) => n.proc.once('exit', r));
  n.proc.kill('SIGTERM');
  await Promise.race([done, sleep(30_000)]);
  if (n.proc.exitCode === null) n.proc.kill('SIGKILL');
}

/** a nats-server with JetStream on a free port; `restart` keeps its store */
class NatsServer {
  proc: ChildProcess | null = null;
  readonly dir = mkdtempSync(join(tmpdir(), 'newsagg-bench-failover-nats-'));
  constructor(readonly port: number) {}
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }
  async up(): Promise<void> {
    this.proc = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir], { stdio: 'ignore' });
    const end = Date.now() + 10_000;
    while (!(await portOpen(this.port))) {
      if (Date.now() > end) throw new Error('nats-server did not start');
      await sleep(20);
    }
  }
  async kill(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await gone;
  }
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The load balancer in front of the nodes (README: hubs and clients reach any node with `api`):
 * each request goes to the next node in turn, and to the one after when a node refuses the
 * connection (it died). Every node's --public-url names it, so WebSub pushes for a publisher whose
 * owner died reach a survivor, which forwards them to the publisher's new owner.
 */
function loadBalancer(targets: () => string[]): Promise<{ server: Server; url: string }> {
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const live = targets();
      const attempt = (tries: number): void => {
        if (tries >= live.length) {
          res.writeHead(502).end();
          return;
        }
        const u = new URL(live[next++ % live.length]!);
        const up = httpRequest({ host: u.hostname, port: u.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => attempt(tries + 1));
        up.end(body);
      };
      attempt(0);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

async function portOpen(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}

async function ownedShards(url: string, kind: string): Promise<number> {
  try {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(2_000) })).text();
    const m = new RegExp(`^newsagg_owned_shards\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs: number, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`failover bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

export async function run(): Promise<Figures> {
  const s = await scratch('server', 'failover');
  const nats = new NatsServer(await freePort());
  let sim: Simulator | null = null;
  let sql: Sql | null = null;
  const nodes: NodeProc[] = [];
  const urls = new Map<string, string>();
  let publishing = true;
  let loop: Promise<void> = Promise.resolve();
  let probeLoop: Promise<void> = Promise.resolve();
  let probeLink: NatsLink | null = null;
  const lb = await loadBalancer(() => [...urls.values()]);
  // a crash of this process must not leave node processes or the nats-server behind
  const orphans = () => {
    for (const n of nodes) n.proc.kill('SIGKILL');
    nats.proc?.kill('SIGKILL');
  };
  process.once('exit', orphans);
  try {
    await nats.up();
    sql = await openSql({ databaseUrl: s.databaseUrl!, dataDir: s.dataDir });
    await migrate(sql, newsMigrations);
    sim = await startSimulator({ publishers: PUBLISHERS, seed: 'bench-failover', host: '127.0.0.1', port: 0 });
    const opml = join(s.dataDir, 'feeds.opml');
    writeFileSync(opml, await (await fetch(`${sim.url}/opml.xml`)).text());
    const common = ['--host', '127.0.0.1', '--database-url', s.databaseUrl!, '--redis-url', s.redisUrl!, '--nats-url', nats.url,
      '--data-dir', s.dataDir, '--cursor-secret', 'bench-failover-secret-0123456789', '--fetch-allowlist', '127.0.0.1', '--workers', '1', '--log-level', 'info', '--admin-token', TOKEN];
    for (let i = 1; i <= 3; i++) {
      const port = await freePort();
      const n = startNodeProc(`fo-${i}`, [...common, '--port', String(port), '--public-url', lb.url, ...(i === 1 ? ['--opml', opml] : [])]);
      nodes.push(n);
      urls.set(n.id, await n.url);
    }
    const hubbed = sim.publishers.filter((p) => p.hub_url);
    await waitFor('WebSub subscriptions', () => (hubbed.filter((p) => (sim!.hub?.subscriptions(p.feed_url).length ?? 0) > 0).length >= Math.ceil(hubbed.length * 0.9) ? true : null), 180_000, 500);
    /** the node polling each feed (the admin list's owner) */
    const ownerOfFeed = async (): Promise<Map<string, string | null>> => {
      const res = await fetch(`${[...urls.values()][0]}/v1/publishers?limit=500`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const body = (await res.json()) as { items: { feed_url: string; owner: string | null }[] };
      return new Map(body.items.map((p) => [p.feed_url, p.owner]));
    };

    // a steady offered load on publishers with a hub
    const published = new Map<string, { at: number; publisher: string }>();
    const publishStart = Date.now();
    loop = (async () => {
      let i = 0;
      let owed = 0;
      let last = Date.now();
      while (publishing) {
        const now = Date.now();
        owed += ((now - last) / 1000) * RATE;
        last = now;
        for (; owed >= 1; owed--) {
          const p = hubbed[i++ % hubbed.length]!;
          const [item] = sim!.publish(1, p.id);
          if (item) published.set(item.url, { at: Date.now(), publisher: p.feed_url });
        }
        await sleep(100);
      }
    })();
    // probes: one article every 100 ms straight into the ingest log, so "ingest resumed" is read
    // without the hub in the way (its 64 connections fill up with pushes for the dead owner's
    // publishers, which wait for their new owner, and pushes for the others queue behind them)
    probeLink = await connectNats({ url: nats.url, reconnectWaitMs: 100 });
    const probeLog = await openIngestLog(probeLink, { log: silentLogger });
    const probePublisher = (await sql.query<{ id: string }>('SELECT id FROM publishers ORDER BY id LIMIT 1')).rows[0]!.id;
    const probes = new Map<string, number>();
    probeLoop = (async () => {
      for (let i = 0; publishing; i++) {
        const a: RawArticle = {
          id: `probe-${i}`, url: `https://probe.example/${process.pid}/${i}`, publisher: probePublisher, published_at: new Date().toISOString(),
          title: `Probe ${i}: harbour board meets on ferry timetable number ${i}`, summary: `Probe article ${i} of the failover benchmark.`,
        };
        const at = Date.now();
        await probeLog.append([a]).then(() => probes.set(a.url, at), () => undefined);
        await sleep(100);
      }
      await probeLog.close();
    })();
    /** when the first probe appended after `t` was stored (epoch ms), or null */
    const probeStoredSince = async (t: number): Promise<number | null> => {
      const want = [...probes].filter(([, at]) => at > t).map(([u]) => u);
      if (want.length === 0) return null;
      const r = await sql!.query<{ at: number | null }>('SELECT (extract(epoch FROM min(ingested_at)) * 1000)::float8 AS at FROM articles WHERE url = ANY($1)', [want]);
      return r.rows[0]!.at === null ? null : Number(r.rows[0]!.at);
    };
    const storedSince = async (t: number, only?: (url: string) => boolean): Promise<number | null> => {
      const want = [...published].filter(([u, p]) => p.at > t && (!only || only(u))).map(([u]) => u);
      if (want.length === 0) return null;
      const r = await sql!.query<{ at: number | null }>('SELECT (extract(epoch FROM min(ingested_at)) * 1000)::float8 AS at FROM articles WHERE url = ANY($1)', [want]);
      return r.rows[0]!.at === null ? null : Number(r.rows[0]!.at);
    };
    // warm: articles flowing
    const warm = Date.now();
    await waitFor('ingest under way', () => storedSince(warm), 120_000, 250);
    await sleep(10_000);

    // how far behind ingest runs before any fault (a backlog delays every later store as much)
    const lagOfProbes = async (from: number, to: number): Promise<number> => {
      const sent = [...probes].filter(([, at]) => at > from && at <= to);
      const r = await sql!.query<{ url: string; at: number }>('SELECT url, (extract(epoch FROM ingested_at) * 1000)::float8 AS at FROM articles WHERE url = ANY($1)', [sent.map(([u]) => u)]);
      const storedAt = new Map(r.rows.map((x) => [x.url, Number(x.at)]));
      // a probe not stored yet counts as stored now (a lower bound of its lag)
      const lags = sent.map(([u, at]) => (storedAt.get(u) ?? Date.now()) - at).sort((a, b) => a - b);
      return lags.length ? lags[Math.floor(lags.length / 2)]! / 1000 : NaN;
    };
    const lagBefore = await lagOfProbes(Date.now() - 15_000, Date.now() - 10_000);

    // fault 1: kill -9 of the story owner
    const owners = await Promise.all(nodes.map(async (n) => ({ n, story: await ownedShards(urls.get(n.id)!, 'story'), dedup: await ownedShards(urls.get(n.id)!, 'dedup') })));
    const victim = owners.find((o) => o.story > 0) ?? owners[0]!;
    const survivors = nodes.filter((n) => n !== victim.n);
    const feedOwners = await ownerOfFeed();
    const victimFeeds = new Set(hubbed.filter((p) => feedOwners.get(p.feed_url) === victim.n.id).map((p) => p.feed_url));
    const killedAt = Date.now();
    victim.n.proc.kill('SIGKILL');
    console.log(`  killed ${victim.n.id} (story owner) at ${new Date(killedAt).toISOString()}`);
    urls.delete(victim.n.id);
    const movedAt = waitFor('story shard on a survivor', async () => ((await Promise.all(survivors.map((n) => ownedShards(urls.get(n.id)!, 'story')))).some((c) => c > 0) ? Date.now() : null), 300_000, 100).catch(() => NaN);
    const probeAt = await waitFor('a probe stored after the kill', () => probeStoredSince(killedAt), 300_000, 100);
    const firstAt = await waitFor('a store after the kill', () => storedSince(killedAt), 300_000, 100);
    const victimFirstAt = await waitFor('a store of a publisher of the killed node', () => storedSince(killedAt, (u) => victimFeeds.has(published.get(u)!.publisher)), 120_000, 250).catch(() => null);
    const out: Figures = {
      publishers: PUBLISHERS,
      offered_articles_per_s: RATE,
      probe_lag_before_kill_s: lagBefore,
      kill9_victim_owned_dedup: victim.dedup > 0,
      kill9_story_shard_moved_s: ((await movedAt) - killedAt) / 1000,
      // the new owner has rebuilt the story shard (replayed its window): asks are answered from here
      kill9_story_shard_ready_s: (() => {
        const r = readyAt.find((e) => e.shard === 'story/0' && e.at > killedAt);
        return r ? (r.at - killedAt) / 1000 : 'never';
      })(),
      kill9_first_probe_stored_s: (probeAt - killedAt) / 1000,
      kill9_first_store_s: (firstAt - killedAt) / 1000,
      kill9_victim_publishers: victimFeeds.size,
      kill9_first_store_victim_publishers_s: victimFirstAt === null ? 'never' : (victimFirstAt - killedAt) / 1000,
    };
    console.log(`  kill -9: ${JSON.stringify(out)}`);
    await sleep(15_000);

    // fault 2: NATS away for half a second
    const downAt = Date.now();
    await nats.kill();
    await sleep(500);
    await nats.up();
    const upAt = Date.now();
    console.log(`  nats-server up again at ${new Date(upAt).toISOString()}`);
    const natsProbeAt = await waitFor('a probe stored after the NATS restart', () => probeStoredSince(upAt), 300_000, 100);
    const natsFirstAt = await waitFor('a store after the NATS restart', () => storedSince(upAt), 300_000, 100);
    out.nats_restart_first_probe_stored_s = (natsProbeAt - upAt) / 1000;
    out.nats_restart_first_store_s = (natsFirstAt - upAt) / 1000;
    await sleep(10_000);
    // leases that lapsed while NATS (and JetStream) came back: their shards are rebuilt
    out.nats_restart_leases_lapsed = lapsedAt.filter((t) => t > downAt).length;
    const storyReady = readyAt.find((e) => e.shard === 'story/0' && e.at > downAt);
    out.nats_restart_story_shard_ready_s = storyReady ? (storyReady.at - upAt) / 1000 : 'not moved';
    console.log(`  NATS restart: first store after ${out.nats_restart_first_store_s} s`);

    // everything published stored once
    publishing = false;
    await loop;
    await probeLoop;
    out.achieved_articles_per_s = published.size / ((Date.now() - publishStart) / 1000);
    const all = [...published.keys()];
    const end = Date.now() + 180_000;
    let rows = { n: 0, urls: 0 };
    for (;;) {
      rows = (await sql.query<{ n: number; urls: number }>('SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles WHERE url = ANY($1)', [all])).rows[0]!;
      if (rows.urls >= all.length || Date.now() > end) break;
      await sleep(1_000);
    }
    out.published = all.length;
    // publishers that only pushed to the killed node are polled again on their own schedule: what
    // they published after the kill may still be on its way after 180 s (not lost: it is in their feeds)
    out.not_stored_within_180s = all.length - rows.urls;
    out.stored_twice = rows.n - rows.urls;
    return out;
  } finally {
    publishing = false;
    await loop.catch(() => undefined);
    await probeLoop.catch(() => undefined);
    await probeLink?.close().catch(() => undefined);
    for (const n of nodes.reverse()) await stopNodeProc(n);
    await sim?.close();
    await sql?.close();
    await nats.stop();
    await s.cleanup();
    await new Promise((r) => lb.server.close(r));
    process.off('exit', orphans);
  }
}
