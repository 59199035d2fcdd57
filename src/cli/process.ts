import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ProcessPipeline, processLines } from '../actors/pipeline/process.js';
import { describeError } from '../runtime/errors.js';
import { readArgs } from './args.js';

/**
 * `newsagg process [--input FILE|-] [--output FILE|-]`: raw-article JSON lines in, one result
 * line per input line out, in input order (blank lines are skipped). A bad line gives
 * `line N: <reason>` on stderr and `{"line": N, "id": <id or null>, "error": {"code", "message"}}`
 * in the output, and the run goes on. Exit 0 when every line was processed, 1 when some lines
 * were rejected (or the input could not be read), 2 on a usage error.
 */

const USAGE = 'usage: newsagg process [--input FILE|-] [--output FILE|-]';

const HELP = `${USAGE}

Runs what a node does to new articles (text preparation, exact and near-duplicate dedup, topic,
region, entities, story clustering) over raw-article JSON lines, in one process with no database,
and writes one JSON line per input line, in input order. Input lines need url, title and
published_at; output lines are {id, url, duplicate_of, story_id, category, region, language,
entities, simhash}. A line that is not a valid article gives {"line", "id", "error"} in its
place and "line N: CODE: message" on stderr, and the run goes on. The README has both shapes.

  --input FILE|-        read the articles from FILE (default -, standard input)
  --output FILE|-       write the results to FILE (default -, standard output)

Exit status: 0 every line processed; 1 some lines rejected, or the input cannot be read;
2 wrong arguments.`;

export interface ProcessIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const defaultIo = (): ProcessIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

function parseArgs(argv: string[]): { input: string; output: string } | string {
  const args = readArgs(argv, {
    input: { type: 'string', needs: 'a file name or -' },
    output: { type: 'string', needs: 'a file name or -' },
    help: { type: 'boolean', short: 'h' },
  });
  if (typeof args === 'string') return args;
  if (args.values['help']) return '';
  return { input: (args.values['input'] as string | undefined) ?? '-', output: (args.values['output'] as string | undefined) ?? '-' };
}

async function write(out: Writable, s: string): Promise<void> {
  if (!out.write(s)) await once(out, 'drain');
}

export async function main(argv: string[], io: ProcessIo = defaultIo()): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    if (args === '') {
      io.stdout.write(`${HELP}\n`);
      return 0;
    }
    io.stderr.write(`newsagg process: ${args}\n${USAGE}\n`);
    return 2;
  }
  if (args.input !== '-' && !existsSync(args.input)) {
    io.stderr.write(`newsagg process: cannot read ${args.input}: no such file\n`);
    return 1;
  }
  const input = args.input === '-' ? io.stdin : createReadStream(args.input, 'utf8');
  const output = args.output === '-' ? io.stdout : createWriteStream(args.output, 'utf8');
  let failed = 0;
  try {
    const pipeline = await ProcessPipeline.create();
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const r of processLines(pipeline, lines)) {
      if ('error' in r) {
        failed++;
        io.stderr.write(`line ${r.line}: ${r.error.code}: ${r.error.message}\n`);
      }
      await write(output, `${JSON.stringify('error' in r ? { line: r.line, id: r.id, error: r.error } : r.output)}\n`);
    }
  } catch (err) {
    io.stderr.write(`newsagg process: ${describeError(err)}\n`);
    return 1;
  } finally {
    if (output !== io.stdout) {
      output.end();
      await once(output, 'finish').catch(() => undefined);
    }
  }
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
