import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from '../../src/runtime/errors.js';
import { openSql, type Sql } from '../../src/runtime/sql.js';
import { PGLITE_START_MS, embedded, scratchSchema, type Scratch } from './pg-fixtures.js';

/** The Sql contract, on both engines through the one pg code path. */
function sqlSuite(open: () => Promise<{ sql: Sql; done(): Promise<void> }>, mode: Sql['mode']) {
  let sql: Sql;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ sql, done } = await open());
    await sql.query('CREATE TABLE kv (k text PRIMARY KEY, v integer NOT NULL)');
  }, PGLITE_START_MS);
  afterAll(async () => done());

  it(`reports its mode (${mode}), pings, and passes parameters`, async () => {
    expect(sql.mode).toBe(mode);
    await sql.ping();
    const { rows, rowCount } = await sql.query<{ s: string; n: number }>('SELECT $1::text AS s, $2::int + 1 AS n', ['héllo', 41]);
    expect(rows).toEqual([{ s: 'héllo', n: 42 }]);
    expect(rowCount).toBe(1);
  });

  it('commits a transaction and rolls back a failed one', async () => {
    await sql.tx(async (q) => {
      await q.query(`INSERT INTO kv VALUES ('a', 1)`);
      await q.query(`INSERT INTO kv VALUES ('b', 2)`);
    });
    await expect(sql.tx(async (q) => {
      await q.query(`INSERT INTO kv VALUES ('c', 3)`);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    const { rows } = await sql.query<{ k: string }>('SELECT k FROM kv ORDER BY k');
    expect(rows.map((r) => r.k)).toEqual(['a', 'b']);
  });

  it('nested tx is a savepoint: the inner failure keeps the outer work', async () => {
    const r = await sql.tx(async (q) => {
      await q.query(`INSERT INTO kv VALUES ('outer', 1)`);
      await q.tx(async (q2) => {
        await q2.query(`INSERT INTO kv VALUES ('inner', 1)`);
        throw new Error('inner fails');
      }).catch(() => {});
      return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM kv')).rows[0]!.n;
    });
    expect(r).toBe(3);
    const { rows } = await sql.query<{ k: string }>(`SELECT k FROM kv WHERE k IN ('outer', 'inner')`);
    expect(rows.map((x) => x.k)).toEqual(['outer']);
  });

  it('concurrent transactions stay isolated from each other', async () => {
    await sql.query(`INSERT INTO kv VALUES ('counter', 0)`);
    // each tx reads then writes under a row lock; interleaving without isolation would lose updates
    await Promise.all(Array.from({ length: 12 }, () => sql.tx(async (q) => {
      const { rows } = await q.query<{ v: number }>(`SELECT v FROM kv WHERE k = 'counter' FOR UPDATE`);
      await q.query('SELECT pg_sleep(0.002)');
      await q.query(`UPDATE kv SET v = $1 WHERE k = 'counter'`, [rows[0]!.v + 1]);
    })));
    const { rows } = await sql.query<{ v: number }>(`SELECT v FROM kv WHERE k = 'counter'`);
    expect(rows[0]!.v).toBe(12);
  });
}

describe('sql: embedded PGlite', () => {
  sqlSuite(async () => {
    const e = await embedded();
    return { sql: e.sql, done: e.cleanup };
  }, 'embedded');
});

describe('sql: PostgreSQL', () => {
  let scratch: Scratch;
  sqlSuite(async () => {
    scratch = await scratchSchema();
    const sql = await scratch.open();
    return { sql, async done() {
      await sql.close();
      await scratch.drop();
    } };
  }, 'postgres');

  it('a session terminated inside a transaction fails that transaction (503-able), not the process; the pool goes on', async () => {
    const sql = await scratch.open();
    try {
      // 57P01, as a fast shutdown or pg_terminate_backend sends it, to a connection checked out
      // by tx() between two of its statements: unheard, the client's `error` event would crash
      // the process (vitest reports it as an unhandled error)
      const failed = await sql.tx(async (q) => {
        const pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await sql.query('SELECT pg_terminate_backend($1)', [pid]);
        for (let i = 0; i < 200; i++) {
          const { rowCount } = await sql.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
          if (rowCount === 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        await new Promise((r) => setTimeout(r, 50));
        await q.query('SELECT 1');
      }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(DependencyUnavailableError);
      expect((failed as DependencyUnavailableError).code).toBe('DEPENDENCY_UNAVAILABLE');
      // the broken connection is not handed out again
      for (let i = 0; i < 5; i++) expect(await sql.tx(async (q) => (await q.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n)).toBe(1);
    } finally {
      await sql.close();
    }
  });

  it('an unreachable server is one DependencyUnavailableError without the password', async () => {
    const err = await openSql({ databaseUrl: 'postgres://u:hunter2@127.0.0.1:1/x', dataDir: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailableError);
    expect((err as Error).message).toBe('PostgreSQL at 127.0.0.1:1/x unreachable: connect ECONNREFUSED 127.0.0.1:1');
  });
});

describe('sql: embedded data dir lock', () => {
  it('a second open of the same data dir fails clearly while the first is open, and works after close', async () => {
    const e = await embedded();
    try {
      const err = await openSql({ dataDir: e.dir }).catch((x: unknown) => x);
      expect(err).toBeInstanceOf(DependencyUnavailableError);
      expect((err as Error).message).toMatch(/data dir is in use by process \d+/);
    } finally {
      await e.sql.close();
    }
    const again = await openSql({ dataDir: e.dir });
    expect((await again.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    await again.close();
    await e.cleanup();
  }, PGLITE_START_MS);
});
