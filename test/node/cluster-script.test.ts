import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

const SCRIPT = new URL('../../scripts/cluster.ts', import.meta.url).pathname;

/** Runs `npm run cluster`'s script with its output gathered. */
function run(args: string[]): { child: ChildProcess; out: () => string; done: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, done };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run cluster', { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('starts three nodes on one NATS, prints their URLs, and stops them all on Ctrl-C with status 0', async () => {
    const db = await scratchPostgres();
    dbs.push(db);
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-cluster-'));
    dirs.push(dir);
    const prefix = uniquePrefix('cl');
    const c = run(['--base-port', '0', '--database-url', db.url!, '--nats-url', SHARED_NATS_URL, '--nats-prefix', prefix, '--redis-prefix', `${prefix}:`,
      '--data-dir', dir, '--node-prefix', prefix, '--', '--workers', '1', '--log-level', 'warn']);
    try {
      await until(() => c.out().includes('Ctrl-C stops every node.') || c.child.exitCode !== null, 'the cluster to be ready', 200_000, 100);
      const rows = [...c.out().matchAll(/^ {2}(\S+) +(http:\/\/\S+) +pid (\d+) +--roles all$/gm)].map((m) => ({ id: m[1]!, url: m[2]!, pid: Number(m[3]) }));
      expect(rows.map((r) => r.id), c.out()).toEqual([1, 2, 3].map((i) => `${prefix}-${i}`));
      expect(new Set(rows.map((r) => r.url)).size).toBe(3);
      for (const r of rows) {
        const ready = await fetch(`${r.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as { checks: Record<string, string> }).checks).toMatchObject({ sql: 'ok', cache: 'ok', nats: 'ok' });
      }
      const pids = rows.map((r) => r.pid);
      expect(pids.every(alive)).toBe(true);
      c.child.kill('SIGINT');
      expect(await c.done).toBe(0);
      expect(c.out()).toContain('cluster: all nodes stopped cleanly');
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      if (c.child.exitCode === null) c.child.kill('SIGKILL');
    }
  });

  it('-- --demo feeds the cluster from one shared simulator: each publisher once', async () => {
    const db = await scratchPostgres();
    dbs.push(db);
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-cluster-'));
    dirs.push(dir);
    const prefix = uniquePrefix('cd');
    // the form the issue tried: --demo meant for every node, after the script's own options
    const c = run(['--nodes', '2', '--base-port', '0', '--database-url', db.url!, '--nats-url', SHARED_NATS_URL, '--nats-prefix', prefix, '--redis-prefix', `${prefix}:`,
      '--data-dir', dir, '--node-prefix', prefix, '--', '--demo', '--workers', '1', '--log-level', 'warn']);
    try {
      await until(() => c.out().includes('Ctrl-C stops every node.') || c.child.exitCode !== null, 'the cluster to be ready', 200_000, 100);
      const sim = /one publisher simulator for every node at (http:\/\/\S+) \(300 publishers/.exec(c.out());
      expect(sim, c.out()).not.toBeNull();
      const { rows } = await db.sql.query<{ n: number; names: number; origins: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT name)::int AS names, count(DISTINCT substring(feed_url from '^https?://[^/]+'))::int AS origins FROM publishers`,
      );
      expect(rows[0]).toEqual({ n: 300, names: 300, origins: 1 });
      expect((await db.sql.query<{ u: string }>('SELECT feed_url AS u FROM publishers LIMIT 1')).rows[0]!.u.startsWith(sim![1]!)).toBe(true);
      c.child.kill('SIGINT');
      expect(await c.done).toBe(0);
    } finally {
      if (c.child.exitCode === null) c.child.kill('SIGKILL');
    }
  });

  it('stops and exits 1 when a node cannot start, with the node\'s one-line reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'newsagg-cluster-'));
    dirs.push(dir);
    const db = await scratchPostgres();
    dbs.push(db);
    const c = run(['--nodes', '2', '--base-port', '0', '--database-url', db.url!, '--nats-url', 'nats://127.0.0.1:1', '--data-dir', dir, '--', '--workers', '1']);
    expect(await c.done).toBe(1);
    expect(c.out()).toMatch(/\[node-\d\] newsagg start: NATS at 127\.0\.0\.1:1 unreachable/);
    expect(c.out()).toMatch(/cluster: node-\d exited during start \(status 2\)/);
    expect(c.out()).not.toMatch(/^\s+at /m);
  });
});
