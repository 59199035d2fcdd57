import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newsMigrations } from '../../src/actors/store/migrations.js';
import { migrate } from '../../src/runtime/migrate.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';

export const PG_ADMIN_URL = process.env.NEWSAGG_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDb {
  sql: Sql;
  url: string | null;
  cleanup(): Promise<void>;
}

/** A fresh, migrated PostgreSQL database on the local server, dropped by cleanup(). */
export async function scratchPostgres(): Promise<TestDb> {
  const name = `newsagg_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  const sql = await openSql({ databaseUrl: u.href, dataDir: tmpdir() });
  await migrate(sql, newsMigrations);
  return {
    sql,
    url: u.href,
    async cleanup() {
      await sql.close();
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** A fresh, migrated embedded PGlite database in a temp dir. */
export async function scratchEmbedded(): Promise<TestDb> {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-pglite-'));
  const sql = await openSql({ dataDir: dir });
  await migrate(sql, newsMigrations);
  return {
    sql,
    url: null,
    async cleanup() {
      await sql.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const databases: [string, () => Promise<TestDb>][] = [
  ['postgres', scratchPostgres],
  ['embedded', scratchEmbedded],
];
