import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureArticlePartitions, newsMigrations } from '../../src/actors/store/migrations.js';
import { MigrationError, migrate, type Migration } from '../../src/runtime/migrate.js';
import type { Sql } from '../../src/runtime/sql.js';
import { PGLITE_START_MS, embedded, scratchSchema, type Scratch } from './pg-fixtures.js';

const VERSIONS = newsMigrations.map((m) => m.version);
const LATEST = VERSIONS[VERSIONS.length - 1]!;
const TABLES = ['publishers', 'articles', 'articles_default', 'stories', 'clicks', 'dead_letters', 'schema_migrations'];

async function tables(sql: Sql): Promise<string[]> {
  const { rows } = await sql.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  return rows.map((r) => r.t);
}

/** The same checks on both engines. */
function schemaSuite(open: () => Promise<{ sql: Sql; done(): Promise<void> }>) {
  let sql: Sql;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ sql, done } = await open());
  }, PGLITE_START_MS);
  afterAll(async () => done());

  it('applies the news schema once; a second run is a no-op', async () => {
    const first = await migrate(sql, newsMigrations);
    expect(first).toEqual({ applied: VERSIONS, current: LATEST });
    expect(await tables(sql)).toEqual(expect.arrayContaining(TABLES));
    const second = await migrate(sql, newsMigrations);
    expect(second).toEqual({ applied: [], current: LATEST });
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows[0]!.n).toBe(VERSIONS.length);
    // exact dedup's lookup by url_hash rides the unique (url_hash, published_at) index; no second one
    const idx = await sql.query<{ name: string | null }>("SELECT to_regclass('articles_url_hash_idx')::text AS name");
    expect(idx.rows[0]!.name).toBeNull();
  });

  it('articles: month partitions, rows moved out of the default partition, weighted search vector', async () => {
    const insert = (id: string, at: string, title: string, snippet: string) =>
      sql.query(
        `INSERT INTO articles (id, url, url_hash, title, snippet, publisher_id, published_at) VALUES ($1, $2, $3, $4, $5, 'pub1', $6)`,
        [id, `https://news.example/${id}`, `h-${id}`, title, snippet, at],
      );
    await insert('a1', '2031-03-10T12:00:00Z', 'Harbour bridge reopens', 'Traffic returned to the harbour crossing');
    await insert('a2', '2031-04-02T08:00:00Z', 'Council budget vote', 'The bridge repairs were funded last year');
    const parts = await ensureArticlePartitions(sql, () => Date.parse('2031-03-20T00:00:00Z'), 1);
    expect(parts).toEqual(['articles_2031_03', 'articles_2031_04']);
    expect(await ensureArticlePartitions(sql, () => Date.parse('2031-03-20T00:00:00Z'), 1)).toEqual(parts);
    const { rows } = await sql.query<{ id: string; part: string }>(`SELECT id, tableoid::regclass::text AS part FROM articles ORDER BY id`);
    expect(rows.map((r) => [r.id, r.part.replace(/^.*\./, '')])).toEqual([['a1', 'articles_2031_03'], ['a2', 'articles_2031_04']]);

    // title hits (weight A) rank above snippet hits (weight B)
    const ranked = await sql.query<{ id: string }>(
      `SELECT id FROM articles, websearch_to_tsquery('english', 'bridge') q WHERE search @@ q ORDER BY ts_rank(search, q) DESC`,
    );
    expect(ranked.rows.map((r) => r.id)).toEqual(['a1', 'a2']);

    // the same URL hash at the same instant is one row
    await expect(insert('a3', '2031-03-10T12:00:00Z', 'x', 'y').then(() =>
      sql.query(`INSERT INTO articles (id, url, url_hash, title, publisher_id, published_at) VALUES ('a4', 'u', 'h-a3', 't', 'p', '2031-03-10T12:00:00Z')`),
    )).rejects.toThrow(/duplicate key/);
  });

  it('snippets are capped at 300 characters', async () => {
    await expect(
      sql.query(`INSERT INTO articles (id, url, url_hash, title, snippet, publisher_id, published_at) VALUES ('long', 'u', 'h-long', 't', $1, 'p', now())`, ['x'.repeat(301)]),
    ).rejects.toThrow(/too long/);
  });

  it('a failing migration rolls back entirely', async () => {
    const bad: Migration[] = [...newsMigrations, { version: LATEST + 1000, name: 'half broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_function();' }];
    await expect(migrate(sql, bad)).rejects.toBeInstanceOf(MigrationError);
    expect(await tables(sql)).not.toContain('half_done');
    expect(await migrate(sql, newsMigrations)).toEqual({ applied: [], current: LATEST });
  });

  it('refuses a build whose migration names disagree with the database', async () => {
    const renamed: Migration[] = [{ ...newsMigrations[0]!, name: 'something else' }];
    await expect(migrate(sql, renamed)).rejects.toThrow(/version 1 .* "something else"/);
  });
}

describe('migrations on embedded PGlite', () => {
  schemaSuite(async () => {
    const e = await embedded();
    return { sql: e.sql, done: e.cleanup };
  });
});

describe('migrations on PostgreSQL', () => {
  let scratch: Scratch;
  schemaSuite(async () => {
    scratch = await scratchSchema();
    const sql = await scratch.open();
    return { sql, async done() {
      await sql.close();
      await scratch.drop();
    } };
  });
});

describe('two nodes migrating at once (PostgreSQL)', () => {
  it('serialise on the advisory lock: the schema is applied exactly once', async () => {
    const scratch = await scratchSchema();
    const [a, b] = await Promise.all([scratch.open(), scratch.open()]);
    try {
      const results = await Promise.all([migrate(a, newsMigrations), migrate(b, newsMigrations)]);
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, VERSIONS.length]);
      const { rows } = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0]!.n).toBe(VERSIONS.length);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });

  it('rejects an unordered migration list before touching the database', async () => {
    const scratch = await scratchSchema();
    const sql = await scratch.open();
    try {
      await expect(migrate(sql, [{ version: 2, name: 'b', sql: '' }, { version: 1, name: 'a', sql: '' }])).rejects.toThrow(/ascending/);
    } finally {
      await sql.close();
      await scratch.drop();
    }
  });
});
