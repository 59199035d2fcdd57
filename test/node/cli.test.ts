import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_START_MS } from './pg-fixtures.js';

/** The real CLI as a user runs it, in a child process. */
const ROOT = new URL('../../', import.meta.url).pathname;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], opts: { onStdout?: (text: string, child: ReturnType<typeof spawn>) => void } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    // a clean environment: no NEWSAGG_* from the caller may change what is tested
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEWSAGG_')));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      // let the pipes flush
      setImmediate(() => resolve({ code, signal, stdout, stderr }));
    });
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

// each test starts `node --import tsx src/cli.ts` (compiling the CLI) once or twice: 11-13 s per
// test on a loaded machine, against the default 30 s timeout; what is tested is the outcome, not the speed
describe('newsagg CLI', { timeout: 120_000 }, () => {
  it('start on embedded storage serves /healthz and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsagg-cli-'));
    dirs.push(dir);
    let health: Promise<{ status: number; body: string }> | undefined;
    const run = await cli(['start', '--port', '0', '--host', '127.0.0.1', '--data-dir', dir], {
      onStdout(text, child) {
        const m = /listening on (http:\/\/\S+)/.exec(text);
        if (m && !health) {
          health = fetch(`${m[1]}/healthz`)
            .then(async (r) => ({ status: r.status, body: await r.text() }))
            .finally(() => child.kill('SIGTERM'));
        }
      },
    });
    expect(health, run.stderr).toBeDefined();
    expect(await health).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('"msg":"stopped"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // the log is JSON lines on stderr (as the README says); stdout holds the one result line
    expect(run.stdout).toMatch(/^newsagg listening on http:\/\/\S+\n$/);
    expect(run.stderr.split('\n').filter(Boolean).every((l) => l.startsWith('{"level":'))).toBe(true);
  }, PGLITE_START_MS);

  const oneLineFailures: [string, string[], RegExp][] = [
    ['an unknown flag', ['start', '--bogus'], /^newsagg start: unknown option --bogus \(see --help\)\n$/],
    ['a bad URL scheme', ['start', '--redis-url', 'http://cache'], /^newsagg start: --redis-url: URL scheme must be redis or rediss, got "http"\n$/],
    ['an unreachable database', ['start', '--port', '0', '--database-url', 'postgres://127.0.0.1:1/x'],
      /^newsagg start: PostgreSQL at 127\.0\.0\.1:1\/x unreachable: connect ECONNREFUSED 127\.0\.0\.1:1\n$/],
    ['an unknown command', ['frobnicate'], /^newsagg: unknown command "frobnicate" \(see newsagg --help\)\n$/],
  ];
  it.each(oneLineFailures)('%s exits 2 with one line and no stack', async (_name, args, want) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(want);
    expect(run.stdout).toBe('');
  });

  it('a port in use, or a data dir that cannot hold data, fail at once: one line, exit 2, nothing booted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsagg-cli-'));
    dirs.push(dir);
    const held: Server = createServer();
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
    const port = (held.address() as { port: number }).port;
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    try {
      const cases: [string[], RegExp][] = [
        [['--port', String(port), '--data-dir', dir], new RegExp(`^newsagg start: --port: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use\n$`)],
        [['--port', '0', '--metrics-listen', `127.0.0.1:${port}`, '--data-dir', dir], new RegExp(`^newsagg start: --metrics-listen: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use\n$`)],
        [['--port', '0', '--data-dir', '/proc/newsagg-data'], /^newsagg start: --data-dir \/proc\/newsagg-data: is on the proc pseudo file system, which cannot hold data\n$/],
        [['--port', '0', '--data-dir', file], /^newsagg start: --data-dir .*a-file: (cannot be created \(EEXIST\)|is not a directory)\n$/],
        [['--port', '0', '--data-dir', join(file, 'below')], /^newsagg start: --data-dir .*below: cannot be created \(ENOTDIR\)\n$/],
      ];
      for (const [args, want] of cases) {
        const run = await cli(['start', '--host', '127.0.0.1', ...args]);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(want);
        expect(run.stdout).toBe('');
      }
    } finally {
      held.close();
    }
  });

  it('--help lists the commands; start --help prints the config table', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    for (const c of ['start', 'parse-feed', 'process', 'import-opml', 'export-opml', 'simulate']) expect(top.stdout).toContain(`  ${c} `);
    const start = await cli(['start', '--help']);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('--database-url');
    expect(start.stdout).toContain('NEWSAGG_DATABASE_URL');
  });

  it('--version prints the package version', async () => {
    const run = await cli(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringMatching(/^newsagg \d+\.\d+\.\d+\n$/) });
  });
});
