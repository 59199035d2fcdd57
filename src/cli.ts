#!/usr/bin/env node
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NewsaggError } from './runtime/errors.js';

/**
 * `newsagg <command> [args]`. Each command is a module `./cli/<command>.js` exporting
 * `main(argv): Promise<number>` (the exit code), imported only when asked for, so `--help`
 * stays fast and a command's heavy dependencies load only for that command.
 */
const commands: Record<string, string> = {
  start: 'run a node: ingest, processing and the HTTP/WebSocket API (see start --help)',
  'parse-feed': 'parse an RSS/Atom/JSON feed file or URL and print it as JSON',
  process: 'run dedup, enrichment and clustering over raw-article JSON lines',
  'import-opml': 'import publishers from an OPML file',
  'export-opml': 'print the publishers as OPML',
  simulate: 'run the publisher simulator (feeds for demos, tests and benchmarks)',
};

// built code runs dist/cli.js next to dist/cli/*.js; under tsx the sources are .ts
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function usage(): string {
  const w = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'usage: newsagg <command> [options]',
    '',
    'commands:',
    ...Object.entries(commands).map(([c, d]) => `  ${c.padEnd(w)}  ${d}`),
    '',
    'newsagg <command> --help shows the options of a command; newsagg --version prints the version.',
  ].join('\n');
}

/** Dispatches argv to a command and returns the exit code. Never prints a stack trace. */
export async function run(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(usage() + '\n');
    return cmd === undefined ? 2 : 0;
  }
  if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
    process.stdout.write(`newsagg ${version()}\n`);
    return 0;
  }
  if (!Object.hasOwn(commands, cmd)) {
    process.stderr.write(`newsagg: unknown command "${cmd}" (see newsagg --help)\n`);
    return 2;
  }
  const url = new URL(`./cli/${cmd}${ext}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    process.stderr.write(`newsagg: command "${cmd}" is not available in this build\n`);
    return 2;
  }
  try {
    const mod = (await import(url.href)) as { main?: (argv: string[]) => Promise<number> };
    if (typeof mod.main !== 'function') {
      process.stderr.write(`newsagg: command "${cmd}" is not available in this build\n`);
      return 2;
    }
    return await mod.main(rest);
  } catch (err) {
    const code = err instanceof NewsaggError && (err.code === 'CONFIG_INVALID' || err.code === 'DEPENDENCY_UNAVAILABLE') ? 2 : 1;
    const msg = err instanceof NewsaggError ? err.userMessage : err instanceof Error ? err.message : String(err);
    process.stderr.write(`newsagg ${cmd}: ${msg.split('\n')[0]}\n`);
    return code;
  }
}

// run when executed (dist/cli.js or `node --import tsx src/cli.ts`), not when imported by tests
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  process.exitCode = await run(process.argv.slice(2));
}
