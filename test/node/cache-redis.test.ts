import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { CacheUnavailableError, openCache } from '../../src/runtime/cache.js';
import { DependencyUnavailableError } from '../../src/runtime/errors.js';

/** Redis-specific behaviour: failing at start, failing fast while away, reconnecting. */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
}

async function until(cond: () => Promise<boolean>, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await cond().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
});

describe('redis cache adapter', () => {
  it('an unreachable Redis at start is one DependencyUnavailableError naming host and port', async () => {
    const err = await openCache({ redisUrl: 'redis://127.0.0.1:1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect((err as Error).message).toMatch(/^Redis at 127\.0\.0\.1:1 unreachable: .*ECONNREFUSED/);
    expect((err as Error).message).not.toContain('\n');
  });

  it('does not leak the password of the URL into the error', async () => {
    const err = await openCache({ redisUrl: 'redis://:sekret@127.0.0.1:1' }).catch((e: unknown) => e);
    expect((err as Error).message).not.toContain('sekret');
  });

  it.skipIf(!existsSync('/usr/bin/redis-server'))('fails fast while Redis is down and recovers when it returns', async () => {
    const port = await freePort();
    let proc = startRedis(port);
    procs.push(proc);
    const url = `redis://127.0.0.1:${port}`;
    expect(await until(async () => (await openCache({ redisUrl: url }).then((c) => c.close()), true))).toBe(true);
    const cache = await openCache({ redisUrl: url });
    try {
      await cache.set('k', 'v');
      expect(await cache.get('k')).toBe('v');

      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
      // the command is refused, not queued until Redis returns
      expect(await until(async () => (await cache.get('k').catch((e: unknown) => e)) instanceof CacheUnavailableError)).toBe(true);
      await expect(cache.ping()).rejects.toBeInstanceOf(CacheUnavailableError);

      proc = startRedis(port);
      procs.push(proc);
      expect(await until(async () => (await cache.set('k', 'back'), true))).toBe(true);
      expect(await cache.get('k')).toBe('back');
    } finally {
      await cache.close();
    }
  });
});
