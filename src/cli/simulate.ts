import { parseArgs } from 'node:util';
import { NewsaggError } from '../runtime/errors.js';
import { startSimulator } from '../simulator/index.js';

const USAGE = 'usage: newsagg simulate [--publishers N] [--port P] [--host H] [--seed S] [--speed X] [--no-websub]';

const HELP = `${USAGE}

Runs the publisher simulator until Ctrl-C: one local HTTP server playing synthetic news
publishers (RSS, Atom and JSON feeds with honest ETag and 304s, news sitemaps, wire copies,
misbehaving sites, a WebSub hub), for demos, tests and benchmarks. It prints its base URL and
the URL of an OPML file listing every publisher; the list itself is at /_sim/publishers.json.

  --publishers N        how many publishers (default 300)
  --port P              port to listen on (default 8090; 0 = any free port)
  --host H              address to bind (default 127.0.0.1)
  --seed S              the world's seed: the same seed, the same publishers and news (default 1)
  --speed X             simulated time runs X times faster than the clock (default 1)
  --no-websub           no WebSub hub: subscribers must poll

A node reaches it with --demo --demo-url URL (see the README on feeding a cluster off-line).
Exit status: 0 stopped; 1 it could not start (the port is in use); 2 wrong arguments.`;

export interface SimulateIo {
  /** stdout lines (default: process.stdout) */
  out?: (line: string) => void;
  /** stderr lines (default: process.stderr) */
  err?: (line: string) => void;
  /** stops the simulator like SIGINT does (tests); SIGINT/SIGTERM always do */
  signal?: AbortSignal;
  /** called once the server listens, with its base URL */
  onReady?: (url: string) => void;
}

function positive(name: string, raw: string | undefined, fallback: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) throw new RangeError(`--${name} must be a ${integer ? 'non-negative integer' : 'non-negative number'}, got ${raw}`);
  return n;
}

/**
 * `newsagg simulate`: runs the publisher simulator until SIGINT/SIGTERM and prints its base URL
 * and OPML URL. `--speed X` runs simulated time X times faster than the wall clock.
 */
export async function main(argv: string[], io: SimulateIo = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = io.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  let publishers: number;
  let port: number;
  let speed: number;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        publishers: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, seed: { type: 'string' },
        speed: { type: 'string' }, 'no-websub': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
    publishers = positive('publishers', values.publishers as string | undefined, 300, true);
    port = positive('port', values.port as string | undefined, 8090, true);
    speed = positive('speed', values.speed as string | undefined, 1, false);
    if (publishers < 1) throw new RangeError('--publishers must be at least 1');
    if (port > 65535) throw new RangeError('--port must be at most 65535');
  } catch (e) {
    err(`newsagg simulate: ${(e as Error).message}`);
    err(USAGE);
    return 2;
  }
  if (values.help) {
    out(HELP);
    return 0;
  }
  let sim;
  try {
    sim = await startSimulator({
      publishers, port, host: (values.host as string | undefined) ?? '127.0.0.1', seed: (values.seed as string | undefined) ?? '1',
      websub: !values['no-websub'], autoAdvanceMs: 1000,
    });
  } catch (e) {
    const msg = e instanceof NewsaggError ? e.userMessage : (e as Error).message;
    err(`newsagg simulate: cannot start: ${msg}`);
    return 1;
  }
  out(`simulator: ${sim.url}/ (${sim.publishers.length} publishers, speed ${speed}x)`);
  out(`opml: ${sim.url}/opml.xml`);
  io.onReady?.(sim.url);
  // the simulated clock runs with the wall clock; extra speed is added as ticks
  const ticker = speed > 1 ? setInterval(() => sim.tick(1000 * (speed - 1)), 1000) : null;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
  if (ticker) clearInterval(ticker);
  await sim.close();
  out('simulator: stopped');
  return 0;
}
