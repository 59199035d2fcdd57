import { writeFile } from 'node:fs/promises';
import { buildOpml, type OpmlEntry } from '../actors/publisher/opml.js';
import { listPublishers } from '../actors/store/publishers.js';
import { newsMigrations } from '../actors/store/migrations.js';
import { migrate } from '../runtime/migrate.js';
import { openSql, type Sql } from '../runtime/sql.js';
import { fileProblem } from './files.js';
import { stdio, storageArgs, type Io } from './import-opml.js';

/**
 * `newsagg export-opml [--data-dir DIR] [--database-url URL] [--output FILE]`: every publisher
 * as OPML 2.0 (one folder per category), on stdout unless --output is given.
 */

const USAGE = 'usage: newsagg export-opml [--data-dir DIR] [--database-url URL] [--output FILE]';

const HELP = `${USAGE}

Prints every publisher of a node's database as OPML 2.0, one folder per category (what
import-opml and the admin page read back).

  --data-dir DIR        the node's data directory, for embedded storage (default ./data,
                        or NEWSAGG_DATA_DIR); embedded storage is locked while its node runs
  --database-url URL    a PostgreSQL URL instead of embedded storage (or NEWSAGG_DATABASE_URL)
  --output FILE         write the OPML to FILE instead of standard output

Exit status: 0 done; 1 the database or the output file cannot be used; 2 wrong arguments.`;
const PAGE = 1000;

/** All publishers as OPML entries, read in keyset pages. */
export async function exportEntries(sql: Sql): Promise<OpmlEntry[]> {
  const out: OpmlEntry[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await listPublishers(sql, { after, limit: PAGE });
    for (const p of page) out.push({ name: p.name, feed_url: p.feed_url, site_url: p.site_url, category: p.category, country: p.country });
    if (page.length < PAGE) return out;
    after = page[page.length - 1]!.id;
  }
}

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(`${HELP}\n`);
    return 0;
  }
  const args = storageArgs(argv, io.env, { output: { type: 'string', needs: 'a file' } }, 0);
  if (typeof args === 'string') {
    io.err(`newsagg export-opml: ${args}\n${USAGE}\n`);
    return 2;
  }
  const output = (args.values['output'] as string | undefined) ?? null;
  const sql = await openSql({ databaseUrl: args.databaseUrl, dataDir: args.dataDir });
  let xml: string;
  try {
    await migrate(sql, newsMigrations);
    xml = buildOpml('newsagg publishers', await exportEntries(sql), Date.now());
  } finally {
    await sql.close();
  }
  if (output) {
    try {
      await writeFile(output, xml);
    } catch (err) {
      io.err(`newsagg export-opml: cannot write ${output}: ${fileProblem(err)}\n`);
      return 1;
    }
  } else io.out(xml);
  return 0;
}
