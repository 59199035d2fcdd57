import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSql, type Sql } from '../../src/runtime/sql.js';

/** Real PostgreSQL for tests: database `test`, one scratch schema per run, dropped afterwards. */
export const TEST_DATABASE_URL = process.env['NEWSAGG_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Scratch {
  /** a URL whose connections use the scratch schema */
  url: string;
  open(): Promise<Sql>;
  drop(): Promise<void>;
}

export async function scratchSchema(): Promise<Scratch> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = await openSql({ databaseUrl: TEST_DATABASE_URL, dataDir: '' });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(TEST_DATABASE_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const url = u.toString();
  return {
    url,
    open: () => openSql({ databaseUrl: url, dataDir: '' }),
    async drop() {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** Embedded PGlite in a fresh temp dir. */
export async function embedded(): Promise<{ sql: Sql; dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'newsagg-pg-'));
  const sql = await openSql({ dataDir: dir });
  return {
    sql,
    dir,
    async cleanup() {
      await sql.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Hook budget for starting PGlite: its first start runs initdb in WASM, slow on a busy 2-core machine. */
export const PGLITE_START_MS = 180_000;
