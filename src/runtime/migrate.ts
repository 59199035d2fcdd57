import { NewsaggError } from './errors.js';
import { silentLogger, type Logger } from './log.js';
import type { Sql } from './sql.js';

/** One schema step. Versions only grow; a shipped migration is never edited, only followed. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** one or more statements, run as a simple query inside the migration transaction */
  readonly sql: string;
}

/** The migration list itself is inconsistent, or a step failed. */
export class MigrationError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('MIGRATION_FAILED', message, { cause });
  }
}

/**
 * Advisory lock key shared by every node (an arbitrary constant: "newsagg" in ASCII, fits int8).
 * Taken with pg_advisory_xact_lock so it is released by commit or rollback, never leaked.
 */
export const MIGRATION_LOCK_KEY = 0x6e657773616767n;

export interface MigrateResult {
  /** versions applied by this call, ascending */
  applied: number[];
  /** highest version present afterwards */
  current: number;
}

/**
 * Applies the missing migrations in one transaction under an advisory lock, recording each in
 * `schema_migrations`. Two nodes starting together serialise on the lock: the second sees the
 * first's rows and applies nothing. Running it again is a no-op.
 */
export async function migrate(
  sql: Sql,
  migrations: readonly Migration[],
  opts: { log?: Logger; lockKey?: bigint } = {},
): Promise<MigrateResult> {
  const log = opts.log ?? silentLogger;
  checkList(migrations);
  return sql.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1::bigint)', [String(opts.lockKey ?? MIGRATION_LOCK_KEY)]);
    // created under the lock, so two first starts cannot race on it
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await q.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    const done = new Map(rows.map((r) => [r.version, r.name]));
    for (const m of migrations) {
      const name = done.get(m.version);
      if (name !== undefined && name !== m.name) {
        throw new MigrationError(`schema_migrations has version ${m.version} as "${name}", this build calls it "${m.name}"`);
      }
    }
    const known = new Set(migrations.map((m) => m.version));
    const newer = rows.filter((r) => !known.has(r.version)).map((r) => r.version);
    if (newer.length > 0) log.warn({ versions: newer }, 'database has migrations this build does not know (a newer node ran?)');

    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      try {
        await q.query(m.sql);
      } catch (err) {
        throw new MigrationError(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, err);
      }
      await q.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
      log.info({ version: m.version, migration: m.name }, 'migration applied');
    }
    const current = Math.max(0, ...rows.map((r) => r.version), ...applied);
    return { applied, current };
  });
}

function checkList(migrations: readonly Migration[]): void {
  let prev = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= prev) {
      throw new MigrationError(`migration versions must be positive integers in ascending order (got ${m.version} after ${prev})`);
    }
    prev = m.version;
  }
}
