import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Private PostgreSQL and Redis instances for fault tests, on free ports of their own: the shared
 * services on 5432 and 6379 are never stopped, restarted or flushed.
 */

export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const hasPostgresBinaries = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root and there is no postgres user to own a private cluster');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(cmd: string, args: string[], opts: SpawnOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`))));
  });
}

export interface PrivatePostgres {
  readonly port: number;
  /** superuser URL of the `postgres` database (trust authentication) */
  readonly url: string;
  /** fast shutdown: sessions are terminated (57P01), new connections refused */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** stops it and removes its files */
  destroy(): Promise<void>;
}

/** A throwaway PostgreSQL 15 cluster (no fsync) on a free port, started. */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-pg-'));
  const data = join(dir, 'data');
  const owner = runAs();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as: SpawnOptions = owner ? { uid: owner.uid, gid: owner.gid, cwd: dir } : { cwd: dir };
  await run(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], as);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'], as);
  const stop = (mode: 'fast' | 'immediate') => run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], as);
  await start();
  let running = true;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop('fast');
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop('immediate').catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private Redis without persistence on `port` (a restart comes back empty), ready when this resolves. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const listening = await new Promise<boolean>((resolve) => {
      const c = createServer();
      c.once('error', () => resolve(true)); // port taken = redis is listening
      c.listen(port, '127.0.0.1', () => c.close(() => resolve(false)));
    });
    if (listening) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}
