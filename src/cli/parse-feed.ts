import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { FeedParseError } from '../actors/feed/errors.js';
import { parseFeed } from '../actors/feed/parse.js';
import { Fetcher } from '../actors/fetch/index.js';
import { NewsaggError } from '../runtime/errors.js';
import { fileProblem } from './files.js';
import { readArgs } from './args.js';

/**
 * `newsagg parse-feed FILE|URL [--base-url URL]`: prints the normalised feed as JSON
 * (DESIGN §6). Exit 0 on success, 1 with one line `newsagg parse-feed: <code>: <message>` on
 * stderr when the input cannot be read or parsed, 2 on a usage error.
 */

const USAGE = 'usage: newsagg parse-feed FILE|URL [--base-url URL]';

const HELP = `${USAGE}

Parses one feed (RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed, CDF) from a file or an http(s) URL
and prints it as one JSON document: {"feed": {...}, "entries": [...]} (the README shows the
shape). Dates are ISO-8601 UTC or null, links absolute, titles plain text.

  --base-url URL        resolve relative links against URL (default: the document's own URL
                        for a URL, none for a file)

Exit status: 0 parsed; 1 the input cannot be read or is not a feed; 2 wrong arguments.`;
const USER_AGENT = 'newsagg/0.1 (+https://github.com/newsagg/newsagg; parse-feed)';

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const stdio: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
};

function parseArgs(argv: string[]): { input: string; baseUrl?: string } | string {
  const args = readArgs(argv, { 'base-url': { type: 'string', needs: 'a URL' }, help: { type: 'boolean', short: 'h' } }, 1);
  if (typeof args === 'string') return args;
  if (args.values['help']) return '';
  const input = args.positionals[0];
  const baseUrl = args.values['base-url'] as string | undefined;
  if (input === undefined) return 'missing FILE or URL';
  if (baseUrl !== undefined) {
    try {
      new URL(baseUrl);
    } catch {
      return `--base-url is not an absolute URL: ${baseUrl}`;
    }
  }
  return baseUrl === undefined ? { input } : { input, baseUrl };
}

async function load(input: string, baseUrl: string | undefined): Promise<{ body: Uint8Array; baseUrl?: string; contentType?: string }> {
  if (/^https?:\/\//i.test(input)) {
    // the operator names the URL on purpose, so loopback is allowed; everything else keeps the SSRF guard
    const fetcher = new Fetcher({ userAgent: USER_AGENT, allowlist: ['127.0.0.0/8', '::1/128', 'localhost'], crawlDelayMs: 0 });
    try {
      const res = await fetcher.fetch({ url: input });
      const contentType = res.contentType ? (res.charset ? `${res.contentType}; charset=${res.charset}` : res.contentType) : undefined;
      return { body: res.body, baseUrl: baseUrl ?? res.url, ...(contentType ? { contentType } : {}) };
    } finally {
      await fetcher.close();
    }
  }
  const path = input.startsWith('file:') ? new URL(input) : input;
  try {
    const body = await readFile(path);
    return baseUrl === undefined ? { body } : { body, baseUrl };
  } catch (err) {
    throw new NewsaggError('INPUT_UNREADABLE', `cannot read ${input}: ${fileProblem(err)}`, { cause: err });
  }
}

/** Entry point; returns the exit code. */
export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    if (args === '') {
      io.out(`${HELP}\n`);
      return 0;
    }
    io.err(`newsagg parse-feed: ${args}\n${USAGE}\n`);
    return 2;
  }
  try {
    const src = await load(args.input, args.baseUrl);
    const opts: { baseUrl?: string; contentType?: string } = {};
    if (src.baseUrl !== undefined) opts.baseUrl = src.baseUrl;
    if (src.contentType !== undefined) opts.contentType = src.contentType;
    const { feed, entries } = parseFeed(src.body, opts);
    // a refused link is for ingest's records, not part of the printed shape
    const printed = entries.map(({ refusedLink: _refused, ...e }) => e);
    io.out(`${JSON.stringify({ feed, entries: printed }, null, 2)}\n`);
    return 0;
  } catch (err) {
    const code = err instanceof NewsaggError ? err.code : 'INTERNAL';
    const message = err instanceof FeedParseError || err instanceof NewsaggError ? err.userMessage : String(err);
    io.err(`newsagg parse-feed: ${code}: ${message.replace(/\s+/g, ' ')}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
