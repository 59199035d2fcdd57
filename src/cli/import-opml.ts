import { readFile } from 'node:fs/promises';
import { OpmlInvalidError } from '../actors/publisher/errors.js';
import { importFeeds, isBroken, type ImportSummary } from '../actors/publisher/import.js';
import { parseOpml, type OpmlDocument, type OpmlProblem } from '../actors/publisher/opml.js';
import { newsMigrations } from '../actors/store/migrations.js';
import { migrate } from '../runtime/migrate.js';
import { openSql } from '../runtime/sql.js';
import { fileProblem } from './files.js';
import { readArgs, type FlagSpec, type ReadArgs } from './args.js';
import { resolveStorage } from '../config.js';
import { ConfigError } from '../runtime/errors.js';

/**
 * `newsagg import-opml FILE [--data-dir DIR] [--database-url URL] [--country CC] [--dry-run]
 * [--progress|--no-progress]`: adds the OPML's feeds as publishers. Duplicates (in the file or
 * already stored) and invalid URLs are reported, never fatal; exit 0 unless the file cannot be
 * read, is not OPML, or is broken (not well-formed) and nothing was imported from it (1), or the
 * arguments are wrong (2). A progress bar goes to stderr for large files when stderr is a
 * terminal (or with --progress).
 */

const USAGE = `usage: newsagg import-opml FILE|- [--data-dir DIR] [--database-url URL] [--country CC] [--dry-run] [--progress|--no-progress]`;

export const HELP = `${USAGE}

Adds the feeds of an OPML file (- reads standard input) as publishers, into the database a node
uses. Run it while the node is stopped (embedded storage is locked by a running node), or against
a running cluster's PostgreSQL: its nodes notice new publishers within 10 seconds. Feeds already
present, repeated in the file or with a bad URL are listed and skipped, never fatal. Nested
folders become the publishers' categories.

  --data-dir DIR        the node's data directory, for embedded storage (default ./data,
                        or NEWSAGG_DATA_DIR)
  --database-url URL    a PostgreSQL URL instead of embedded storage (or NEWSAGG_DATABASE_URL)
  --country CC          the ISO 3166-1 country (two letters, e.g. GB) of feeds whose outline
                        names none; it decides their edition (uk) and helps place their stories
  --dry-run             read and check the file, store nothing: how many feeds it holds and
                        which outlines would be skipped
  --progress            draw a progress bar on stderr (default: only when stderr is a terminal
                        and the file has 1,000 feeds or more); --no-progress never draws one

Exit status: 0 done; 1 the file cannot be read or is not OPML, or is not well-formed XML and
nothing could be imported from it; 2 wrong arguments.`;
/** files with fewer feeds import too fast for a bar to help */
const PROGRESS_MIN = 1000;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr is a terminal: progress bars may redraw a line */
  tty: boolean;
  readStdin: () => Promise<string>;
  env: Record<string, string | undefined>;
}

export const stdio: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  tty: process.stderr.isTTY === true,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  env: process.env,
};

interface Args {
  file: string;
  dataDir: string;
  databaseUrl: string | undefined;
  country: string | null;
  dryRun: boolean;
  progress: boolean | null;
}

/** Flags shared with export-opml: `--data-dir`, `--database-url` (else NEWSAGG_DATA_DIR, NEWSAGG_DATABASE_URL, as for `start`). */
export function storageArgs(argv: string[], env: Io['env'], extra: Record<string, FlagSpec>, maxPositionals: number): { dataDir: string; databaseUrl: string | undefined; values: ReadArgs['values']; positionals: string[] } | string {
  const args = readArgs(argv, { 'data-dir': { type: 'string', needs: 'a directory' }, 'database-url': { type: 'string', needs: 'a postgres:// URL' }, ...extra }, maxPositionals);
  if (typeof args === 'string') return args;
  try {
    const storage = resolveStorage({ dataDir: args.values['data-dir'] as string | undefined, databaseUrl: args.values['database-url'] as string | undefined }, env);
    return { dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, values: args.values, positionals: args.positionals };
  } catch (err) {
    return err instanceof ConfigError ? err.message : String(err);
  }
}

function parseArgs(argv: string[], env: Io['env']): Args | string {
  const base = storageArgs(argv, env, {
    country: { type: 'string', needs: 'an ISO 3166-1 alpha-2 code' },
    'dry-run': { type: 'boolean' },
    progress: { type: 'boolean' },
    'no-progress': { type: 'boolean' },
  }, 1);
  if (typeof base === 'string') return base;
  const country = base.values['country'] as string | undefined;
  if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) return '--country needs an ISO 3166-1 alpha-2 code';
  if (base.positionals.length === 0) return 'missing FILE';
  const progress = base.values['no-progress'] ? false : base.values['progress'] ? true : null;
  return { file: base.positionals[0]!, dataDir: base.dataDir, databaseUrl: base.databaseUrl, country: country?.toUpperCase() ?? null, dryRun: base.values['dry-run'] === true, progress };
}

/** A one-line bar, redrawn in place: `importing [######------] 52% 5,200/10,000`. */
export function progressLine(done: number, total: number, width = 30): string {
  const frac = total === 0 ? 1 : Math.min(1, done / total);
  const full = Math.round(frac * width);
  return `importing [${'#'.repeat(full)}${'-'.repeat(width - full)}] ${String(Math.floor(frac * 100)).padStart(3)}% ${done.toLocaleString('en')}/${total.toLocaleString('en')}`;
}

function describeProblem(p: OpmlProblem): string {
  const where = p.position === 0 ? 'document' : `outline ${p.position}`;
  const what = { 'no-url': 'no xmlUrl', 'invalid-url': 'not an http(s) URL', duplicate: 'duplicate of an earlier outline', 'too-deep': 'nested too deep', 'too-many': 'beyond the outline limit', 'malformed-xml': 'malformed XML, read leniently' }[p.reason];
  return `  ${where}: ${what}${p.url ? ` (${p.url})` : ''}${p.text && p.position !== 0 ? ` "${p.text.slice(0, 80)}"` : p.position === 0 ? `: ${p.text}` : ''}\n`;
}

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${HELP}\n`);
    return 0;
  }
  const args = parseArgs(argv, io.env);
  if (typeof args === 'string') {
    io.err(`newsagg import-opml: ${args}\n${USAGE}\n`);
    return 2;
  }
  let doc: OpmlDocument;
  try {
    const text = args.file === '-' ? await io.readStdin() : await readFile(args.file, 'utf8');
    doc = parseOpml(text);
  } catch (err) {
    const msg = err instanceof OpmlInvalidError ? err.message : `cannot read ${args.file}: ${fileProblem(err)}`;
    io.err(`newsagg import-opml: ${msg}\n`);
    return 1;
  }
  const showBar = (args.progress ?? io.tty) && doc.feeds.length >= PROGRESS_MIN;
  let summary: ImportSummary;
  if (args.dryRun) {
    summary = { feeds: doc.feeds.length, added: 0, existing: 0, problems: doc.problems, ids: [] };
  } else {
    const sql = await openSql({ databaseUrl: args.databaseUrl, dataDir: args.dataDir });
    try {
      await migrate(sql, newsMigrations);
      if (showBar) io.err(progressLine(0, doc.feeds.length));
      summary = await importFeeds(sql, doc, args.country, (done) => {
        if (showBar) io.err(`\r${progressLine(done, doc.feeds.length)}`);
      });
      if (showBar) io.err('\n');
    } finally {
      await sql.close();
    }
  }
  io.out(
    args.dryRun
      ? `${summary.feeds} feeds readable in ${args.file} (dry run: nothing stored)\n`
      : `imported ${summary.added} new publishers from ${args.file}; ${summary.existing} already present\n`,
  );
  if (summary.problems.length > 0) {
    io.out(`${summary.problems.length} outline(s) skipped:\n`);
    for (const p of summary.problems.slice(0, 100)) io.out(describeProblem(p));
    if (summary.problems.length > 100) io.out(`  ... and ${summary.problems.length - 100} more\n`);
  }
  // a broken document that gave nothing is a failed import, whatever could be salvaged from it
  if (isBroken(doc) && (args.dryRun ? summary.feeds === 0 : summary.added === 0)) {
    io.err(`newsagg import-opml: ${args.file} is not well-formed XML and nothing was imported from it\n`);
    return 1;
  }
  return 0;
}
