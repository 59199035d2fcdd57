import { constants } from 'node:fs';
import { access, mkdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, NewsaggError } from './errors.js';

/**
 * Checks a node makes before it opens anything: a port another process holds, or a data
 * directory that cannot hold data, fail the start at once with one clear line instead of after
 * the database, the cache and every component have started (or, for a directory under /proc,
 * instead of hanging).
 */

/** Pseudo file systems (statfs magic numbers) that look like directories but cannot hold data. */
const PSEUDO_FS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x74726163, 'tracefs'],
  [0xcafe4a11, 'bpf'],
  [0x42494e4d, 'binfmt_misc'],
]);

/** Resolves when `host:port` can be listened on now; port 0 always can. Throws LISTEN_FAILED. */
export async function checkPortFree(host: string, port: number, what = '--port'): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((ok, fail) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'EADDRINUSE' ? 'the port is in use' : err.code === 'EACCES' ? 'not permitted' : err.code === 'EADDRNOTAVAIL' ? 'no such local address' : (err.code ?? err.message);
      fail(new NewsaggError('LISTEN_FAILED', `${what}: cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${why}`, { cause: err }));
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => ok()));
  });
}

/**
 * Makes sure `dir` exists (creating it) and can hold files: not on a pseudo file system such as
 * /proc, a directory, writable. Throws ConfigError naming `what` and the reason.
 */
export async function checkDataDir(dir: string, what = '--data-dir'): Promise<void> {
  const abs = resolve(dir);
  const bad = (why: string, cause?: unknown) => new ConfigError(`${what} ${dir}: ${why}`, cause);
  // the file system is judged at the nearest part of the path that exists
  let probe = abs;
  for (;;) {
    try {
      await stat(probe);
      break;
    } catch {
      const up = dirname(probe);
      if (up === probe) break;
      probe = up;
    }
  }
  try {
    const fs = PSEUDO_FS.get(Number((await statfs(probe)).type));
    if (fs) throw bad(`is on the ${fs} pseudo file system, which cannot hold data`);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
  }
  try {
    await mkdir(abs, { recursive: true });
  } catch (err) {
    throw bad(`cannot be created (${(err as NodeJS.ErrnoException).code ?? String(err)})`, err);
  }
  const st = await stat(abs);
  if (!st.isDirectory()) throw bad('is not a directory');
  try {
    await access(abs, constants.W_OK | constants.X_OK);
    const file = join(abs, `.newsagg-write-check-${process.pid}`);
    await writeFile(file, 'ok');
    await rm(file, { force: true });
  } catch (err) {
    throw bad(`is not writable (${(err as NodeJS.ErrnoException).code ?? String(err)})`, err);
  }
}
