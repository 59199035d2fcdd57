import { describeOptions, resolveConfig } from '../config.js';
import { startNode } from '../node.js';
import { componentsFor } from '../roles/index.js';
import { ConfigError, NewsaggError, describeError } from '../runtime/errors.js';
import { createLogger } from '../runtime/log.js';

const USAGE = `usage: newsagg start [options]

Runs a node. With no --database-url/--redis-url/--nats-url it is a complete single-machine
platform on embedded storage in --data-dir. Every option can also come from its environment
variable; a flag wins over the environment.

options:
`;

/** One line on stderr, never a stack. */
function fail(message: string): void {
  process.stderr.write(`newsagg start: ${message.split('\n')[0]}\n`);
}

/** `newsagg start`: resolve config, boot the node, stop gracefully on SIGTERM/SIGINT. */
export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + helpText() + '\n');
    return 0;
  }
  let config;
  try {
    config = resolveConfig(argv, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      fail(err.message);
      return 2;
    }
    throw err;
  }
  const log = createLogger({ level: config.logLevel });
  // a stray rejection is a bug to log, not a reason to take every actor down with the process
  process.on('unhandledRejection', (err) => log.error({ err: describeError(err) }, 'unhandled rejection'));
  process.on('uncaughtException', (err) => {
    log.fatal({ err: describeError(err), stack: err.stack }, 'uncaught exception, exiting');
    fail(`internal error: ${describeError(err)}`);
    process.exit(1);
  });

  let node;
  try {
    node = await startNode(config, { log, components: componentsFor(config) });
  } catch (err) {
    if (err instanceof NewsaggError) {
      fail(err.userMessage);
      return err.code === 'DEPENDENCY_UNAVAILABLE' || err.code === 'LISTEN_FAILED' || err.code === 'CONFIG_INVALID' ? 2 : 1;
    }
    fail(`cannot start: ${describeError(err)}`);
    return 1;
  }
  process.stdout.write(`newsagg listening on ${node.url}\n`);

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log.info({ signal }, 'shutting down');
  // a second signal means "now"
  const force = () => {
    fail('second signal: exiting without a clean shutdown');
    process.exit(1);
  };
  process.once('SIGTERM', force);
  process.once('SIGINT', force);

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs + 1000);
  });
  const outcome = await Promise.race([node.stop().then(() => 'ok' as const, (err: unknown) => err), timedOut]);
  clearTimeout(timer);
  if (outcome !== 'ok') {
    fail(outcome === 'timeout' ? 'shutdown did not finish in time' : `shutdown failed: ${describeError(outcome)}`);
    exitSoon(1);
    return 1;
  }
  exitSoon(0);
  return 0;
}

/** Lets logs flush and the loop empty; exits anyway if a stray handle would keep it alive. */
function exitSoon(code: number): void {
  setTimeout(() => process.exit(code), 1000).unref();
}

/** The help text listing every option. */
function helpText(): string {
  const rows = describeOptions();
  const w = Math.max(...rows.map((r) => r.flag.length));
  return rows.map((r) => `  ${r.flag.padEnd(w)}  ${r.doc} [${r.env}, default ${r.default}]`).join('\n');
}
