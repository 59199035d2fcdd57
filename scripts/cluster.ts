/**
 * `npm run cluster`: a local cluster of newsagg nodes on this machine, against the local
 * PostgreSQL, Redis and NATS (with JetStream). Each node is its own process (`newsagg start`)
 * with its own port and `--node-id`, and the same database, Redis, NATS, data dir and cursor
 * secret. Prints each node's URL once it listens; Ctrl-C (or SIGTERM) stops every node
 * gracefully and exits 0 when they all stopped cleanly; a second Ctrl-C kills them.
 *
 *   npm run cluster                                  # three nodes, --roles all, ports 8081-8083
 *   npm run cluster -- --node ingest,process --node process --node api
 *   npm run cluster -- --demo                        # off-line: one simulator feeds the whole cluster
 *   npm run cluster -- --base-port 0 -- --log-level warn   # any free ports; after `--`: flags for every node
 *
 * Options (all optional):
 *   --nodes N             N nodes with --roles all (default 3; ignored when --node is given)
 *   --node ROLES          one node with these roles (repeat: one per node)
 *   --base-port P         node i listens on P+i-1 (default 8081; 0 = any free port each)
 *   --host H              bind address of every node (default 127.0.0.1)
 *   --database-url URL    default $NEWSAGG_DATABASE_URL or postgres://postgres@127.0.0.1:5432/newsagg
 *                         (the database is created when missing)
 *   --redis-url URL       default $NEWSAGG_REDIS_URL or redis://127.0.0.1:6379
 *   --nats-url URL        default $NEWSAGG_NATS_URL or nats://127.0.0.1:4222
 *   --nats-prefix P       passed on (default: the nodes' default, newsagg)
 *   --redis-prefix P      passed on (default: none)
 *   --data-dir DIR        shared by the nodes (thumbnails; default ./data/cluster)
 *   --cursor-secret S     shared by the nodes (default: random for this run)
 *   --node-prefix NAME    node ids are NAME-1, NAME-2, ... (default node)
 *   --demo                one publisher simulator in this script's process, shared by every node
 *                         (each gets --demo --demo-url URL); `-- --demo` means the same
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startDemoSimulator } from '../src/roles/demo.js';

interface Plan {
  nodes: string[];
  basePort: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  natsPrefix: string | null;
  redisPrefix: string | null;
  dataDir: string;
  cursorSecret: string;
  nodePrefix: string;
  /** flags after `--`, for every node */
  extra: string[];
  /** one shared simulator for the cluster's demo sources */
  demo: boolean;
}

const HELP = `usage: npm run cluster -- [options] [-- flags for every node]

Starts a local cluster of newsagg nodes (separate processes) against one PostgreSQL, Redis and
NATS; prints their URLs; Ctrl-C stops them all.

  --nodes N             N nodes with --roles all (default 3; ignored when --node is given)
  --node ROLES          one node with these roles (repeat: one per node)
  --base-port P         node i listens on P+i-1 (default 8081; 0 = any free port each)
  --host H              bind address of every node (default 127.0.0.1)
  --database-url URL    default $NEWSAGG_DATABASE_URL or postgres://postgres@127.0.0.1:5432/newsagg (created when missing)
  --redis-url URL       default $NEWSAGG_REDIS_URL or redis://127.0.0.1:6379
  --nats-url URL        default $NEWSAGG_NATS_URL or nats://127.0.0.1:4222
  --nats-prefix P       passed to every node
  --redis-prefix P      passed to every node
  --data-dir DIR        shared by the nodes (default ./data/cluster)
  --cursor-secret S     shared by the nodes (default $NEWSAGG_CURSOR_SECRET or random per run)
  --node-prefix NAME    node ids are NAME-1, NAME-2, ... (default node)
  --demo                feed the cluster off-line: one publisher simulator (300 publishers, staged
                        breaking news) runs in this script and every node takes its publishers from
                        it (--demo --demo-url URL); "-- --demo" is taken the same way, so no node
                        starts a simulator of its own (which would name every publisher twice)
`;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function usage(msg: string): never {
  process.stderr.write(`npm run cluster: ${msg}\n(see scripts/cluster.ts or the README, "Running a cluster")\n`);
  process.exit(2);
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Plan {
  const cut = argv.indexOf('--');
  const own = cut < 0 ? argv : argv.slice(0, cut);
  const after = cut < 0 ? [] : argv.slice(cut + 1);
  // --demo for every node means one shared simulator, never one per node
  const demoFlag = (a: string) => a === '--demo' || a === '--demo=true';
  const extra = after.filter((a) => !demoFlag(a) && a !== '--demo=false' && a !== '--no-demo');
  const plan: Plan = {
    nodes: [],
    basePort: 8081,
    host: '127.0.0.1',
    databaseUrl: env.NEWSAGG_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/newsagg',
    redisUrl: env.NEWSAGG_REDIS_URL ?? 'redis://127.0.0.1:6379',
    natsUrl: env.NEWSAGG_NATS_URL ?? 'nats://127.0.0.1:4222',
    natsPrefix: null,
    redisPrefix: null,
    dataDir: './data/cluster',
    cursorSecret: env.NEWSAGG_CURSOR_SECRET ?? randomBytes(24).toString('base64url'),
    nodePrefix: 'node',
    extra,
    demo: after.some(demoFlag),
  };
  let count = 3;
  for (let i = 0; i < own.length; i++) {
    const flag = own[i]!;
    const value = (): string => {
      const v = own[++i];
      if (v === undefined || v.startsWith('--')) usage(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        process.exit(0);
        break;
      case '--nodes': {
        const v = value();
        count = Number(v);
        if (!Number.isInteger(count) || count < 1 || count > 16) usage(`--nodes: expected 1 to 16, got "${v}"`);
        break;
      }
      case '--node':
        plan.nodes.push(value());
        break;
      case '--base-port': {
        const v = value();
        plan.basePort = Number(v);
        if (!Number.isInteger(plan.basePort) || plan.basePort < 0 || plan.basePort > 65_000) usage(`--base-port: expected 0 to 65000, got "${v}"`);
        break;
      }
      case '--host':
        plan.host = value();
        break;
      case '--database-url':
        plan.databaseUrl = value();
        break;
      case '--redis-url':
        plan.redisUrl = value();
        break;
      case '--nats-url':
        plan.natsUrl = value();
        break;
      case '--nats-prefix':
        plan.natsPrefix = value();
        break;
      case '--redis-prefix':
        plan.redisPrefix = value();
        break;
      case '--data-dir':
        plan.dataDir = value();
        break;
      case '--cursor-secret':
        plan.cursorSecret = value();
        break;
      case '--node-prefix':
        plan.nodePrefix = value();
        break;
      case '--demo':
        plan.demo = true;
        break;
      default:
        usage(`unknown option ${flag} (flags for the nodes go after --)`);
    }
  }
  if (plan.nodes.length === 0) plan.nodes = Array.from({ length: count }, () => 'all');
  return plan;
}

/** The `newsagg start` arguments of node i (0-based); `demoUrl`: the shared simulator's. */
export function nodeArgs(plan: Plan, i: number, demoUrl: string | null = null): string[] {
  return [
    'start',
    '--node-id', `${plan.nodePrefix}-${i + 1}`,
    '--host', plan.host,
    '--port', String(plan.basePort === 0 ? 0 : plan.basePort + i),
    '--roles', plan.nodes[i]!,
    '--database-url', plan.databaseUrl,
    '--redis-url', plan.redisUrl,
    '--nats-url', plan.natsUrl,
    ...(plan.natsPrefix !== null ? ['--nats-prefix', plan.natsPrefix] : []),
    ...(plan.redisPrefix !== null ? ['--redis-prefix', plan.redisPrefix] : []),
    '--data-dir', plan.dataDir,
    '--cursor-secret', plan.cursorSecret,
    ...(demoUrl !== null ? ['--demo', '--demo-url', demoUrl] : []),
    ...plan.extra,
  ];
}

/** Creates the database when the server says it does not exist; any other failure is left to the nodes to report. */
async function ensureDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') return;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.href });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    process.stdout.write(`cluster: created database ${name}\n`);
  } catch (err) {
    process.stderr.write(`cluster: database ${name} is missing and could not be created: ${(err as Error).message}\n`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

interface Running {
  id: string;
  roles: string;
  child: ChildProcess;
  url: string | null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function main(): Promise<number> {
  const plan = parseArgs(process.argv.slice(2), process.env);
  mkdirSync(plan.dataDir, { recursive: true });
  await ensureDatabase(plan.databaseUrl);
  // one simulator for the whole cluster: every node registers its publishers (the same rows, kept once)
  const demo = plan.demo ? await startDemoSimulator({ host: '127.0.0.1' }) : null;
  if (demo) process.stdout.write(`cluster: one publisher simulator for every node at ${demo.sim.url} (${demo.sim.publishers.length} publishers; a breaking story in about 40 s)\n`);
  const cli = resolve(ROOT, 'src/cli.ts');
  let stopping = false;
  const nodes: Running[] = plan.nodes.map((roles, i) => {
    const id = `${plan.nodePrefix}-${i + 1}`;
    // its own process group: a Ctrl-C in the terminal reaches this script only, which forwards it once
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...nodeArgs(plan, i, demo?.sim.url ?? null)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const r: Running = {
      id,
      roles,
      child,
      url: null,
      exited: new Promise((res) => child.once('exit', (code, signal) => res({ code, signal }))),
    };
    for (const [stream, out] of [[child.stdout!, process.stdout], [child.stderr!, process.stderr]] as const) {
      createInterface({ input: stream }).on('line', (line) => {
        const m = /^newsagg listening on (\S+)$/.exec(line);
        if (m) r.url = m[1]!;
        out.write(`[${id}] ${line}\n`);
      });
    }
    return r;
  });
  const killAll = () => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
  };
  process.on('exit', killAll);
  let stoppedAt = 0;
  const stop = (why: string) => {
    // one Ctrl-C may arrive twice (from the terminal and forwarded by npm): a second one counts after a second
    if (stopping && Date.now() - stoppedAt < 1_000) return;
    if (stopping) {
      process.stderr.write('cluster: second signal: killing the nodes\n');
      killAll();
      return;
    }
    stopping = true;
    stoppedAt = Date.now();
    process.stdout.write(`cluster: ${why}: stopping ${nodes.length} nodes\n`);
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  // up: every node listening, or one gave up (then the others are stopped)
  const failed = await Promise.race([
    Promise.all(nodes.map((n) => new Promise<void>((res) => {
      const t = setInterval(() => {
        if (n.url !== null) {
          clearInterval(t);
          res();
        }
      }, 50);
      void n.exited.then(() => clearInterval(t));
    }))).then(() => null),
    ...nodes.map((n) => n.exited.then((e) => (n.url === null ? { n, e } : new Promise<never>(() => undefined)))),
  ]);
  if (failed) {
    process.stderr.write(`cluster: ${failed.n.id} exited during start (${failed.e.signal ?? `status ${failed.e.code}`})\n`);
    stop('a node failed to start');
  } else if (!stopping) {
    const lines = nodes.map((n) => `  ${n.id.padEnd(12)} ${n.url!.padEnd(26)} pid ${String(n.child.pid).padEnd(8)} --roles ${n.roles}`);
    process.stdout.write(`\ncluster ready (NATS ${new URL(plan.natsUrl).host}, Redis ${new URL(plan.redisUrl).host}, data dir ${plan.dataDir}):\n${lines.join('\n')}\nCtrl-C stops every node.\n\n`);
    for (const n of nodes) {
      void n.exited.then((e) => {
        if (!stopping) process.stderr.write(`cluster: ${n.id} exited (${e.signal ?? `status ${e.code}`}); the others keep running\n`);
      });
    }
  }
  const results = await Promise.all(nodes.map((n) => n.exited));
  await demo?.close();
  const clean = !failed && results.every((e) => e.code === 0);
  process.stdout.write(`cluster: ${clean ? 'all nodes stopped cleanly' : 'stopped; not every node exited with status 0'}\n`);
  return clean ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`npm run cluster: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
