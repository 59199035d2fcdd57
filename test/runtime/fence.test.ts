import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFences, Fenced, SqlShardFences, unfence, type FenceToken } from '../../src/runtime/fence.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/** Shard fences in a real PostgreSQL: raised only upward, checked in a write's transaction. */
describe('shard fences', { timeout: 60_000 }, () => {
  let db: TestDb;
  let fences: SqlShardFences;
  beforeAll(async () => {
    db = await scratchPostgres();
    fences = new SqlShardFences(db.sql);
  }, 60_000);
  afterAll(async () => db?.cleanup());

  const token = (rev: number, gen = 1_000, key = 'b/story.0'): FenceToken => ({ key, gen, rev });
  const check = (...tokens: FenceToken[]) => db.sql.tx((q) => checkFences(q, tokens));

  it.each([
    // fence raised to, token carried, refused?
    [token(7), token(7), false],
    [token(7), token(9), false],
    [token(7), token(5), true],
    // a lease store made anew (a later generation) restarts its revisions: its tokens still count after
    [token(900, 1_000), token(3, 2_000), false],
    [token(3, 2_000), token(900, 1_000), true],
  ])('fence %j, a write carrying %j: refused %s', async (fence, carried, refused) => {
    const key = `b/story.${Math.random().toString(36).slice(2, 8)}`;
    await fences.raise({ ...fence, key });
    const outcome = check({ ...carried, key });
    if (refused) await expect(outcome).rejects.toMatchObject({ code: 'FENCED_OFF', transient: true });
    else await expect(outcome).resolves.toBeUndefined();
  });

  it('goes up, never down: a raise that arrives late changes nothing', async () => {
    await fences.raise(token(10, 1_000, 'b/dedup.0'));
    await fences.raise(token(4, 1_000, 'b/dedup.0'));
    await expect(check(token(9, 1_000, 'b/dedup.0'))).rejects.toMatchObject({ code: 'FENCED_OFF' });
    await expect(check(token(10, 1_000, 'b/dedup.0'))).resolves.toBeUndefined();
  });

  it('lets a token for a fence never raised pass, and checks every token a write carries', async () => {
    await expect(check(token(1, 1, 'b/never.0'))).resolves.toBeUndefined();
    await fences.raise(token(20, 1_000, 'b/story.9'));
    await expect(check(token(1, 1, 'b/never.0'), token(19, 1_000, 'b/story.9'))).rejects.toMatchObject({ code: 'FENCED_OFF' });
  });

  it('a raise waits for a write that checked the old fence to commit, so the new owner reads what it stored', async () => {
    const key = 'b/story.lock';
    await fences.raise(token(1, 1_000, key));
    const order: string[] = [];
    let raising: Promise<void> | null = null;
    await db.sql.tx(async (q) => {
      await checkFences(q, [token(1, 1_000, key)]);
      await q.query("INSERT INTO shard_fences (key, gen, rev) VALUES ('b/marker', 0, 0)");
      raising = fences.raise(token(2, 1_000, key)).then(() => void order.push('raised'));
      // the raise cannot finish while this transaction holds the fence row
      await Promise.race([raising, new Promise((r) => setTimeout(r, 500))]);
      order.push('committing');
    });
    await raising;
    expect(order).toEqual(['committing', 'raised']);
    // after the raise, a reader sees the write that came before it; a late write with the old token is refused
    expect((await db.sql.query("SELECT 1 FROM shard_fences WHERE key = 'b/marker'")).rowCount).toBe(1);
    await expect(check(token(1, 1_000, key))).rejects.toMatchObject({ code: 'FENCED_OFF' });
  });

  it('unfence takes the token off an owner\'s answer and passes a plain one through', () => {
    expect(unfence(new Fenced([1, 2], token(3)))).toEqual([[1, 2], token(3)]);
    expect(unfence({ results: [] })).toEqual([{ results: [] }, null]);
  });
});
