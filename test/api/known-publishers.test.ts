import { describe, expect, it } from 'vitest';
import { KnownPublishers } from '../../src/api/known-publishers.js';

/** The existence cache in front of WebSub callbacks: bounded, aged, told of changes; lookups counted against a table in memory. */
function setup(opts: { max?: number } = {}) {
  let t = 0;
  const table = new Set(['a', 'b', 'c']);
  const asked: string[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  const known = new KnownPublishers(
    async (id) => {
      asked.push(id);
      const found = table.has(id); // read now, answered later: what a slow query does
      if (hold) await new Promise<void>((r) => (release = r));
      return found;
    },
    { now: () => t, knownTtlMs: 60_000, unknownTtlMs: 10_000, ...opts },
  );
  return { known, table, asked, tick: (ms: number) => (t += ms), hold: (on: boolean) => (hold = on), release: () => release?.() };
}

describe('KnownPublishers', () => {
  it('looks an id up once, however many ask at once, and answers from memory after', async () => {
    const s = setup();
    expect(s.known.cached('a')).toBeUndefined();
    expect(await Promise.all([s.known.lookup('a'), s.known.lookup('a'), s.known.lookup('zz')])).toEqual([true, true, false]);
    expect(s.asked).toEqual(['a', 'zz']);
    expect([s.known.cached('a'), s.known.cached('zz')]).toEqual([true, false]);
  });

  it.each([
    ['an unknown id', 'zz', 10_000],
    ['a known id', 'a', 60_000],
  ])('forgets %s after its time to live (rows added or removed behind the node\'s back)', async (_what, id, ttl) => {
    const s = setup();
    await s.known.lookup(id);
    s.tick(ttl);
    expect(s.known.cached(id)).toBeDefined();
    s.tick(1);
    expect(s.known.cached(id)).toBeUndefined();
  });

  it('keeps at most `max` ids, dropping the least recently used', async () => {
    const s = setup({ max: 2 });
    await s.known.lookup('a');
    await s.known.lookup('b');
    s.known.cached('a'); // used: b is now the oldest
    await s.known.lookup('c');
    expect(s.known.size).toBe(2);
    expect([s.known.cached('a'), s.known.cached('b'), s.known.cached('c')]).toEqual([true, undefined, true]);
  });

  it('follows publishers added and removed, and a lookup answered across a change does not overwrite it', async () => {
    const s = setup();
    await s.known.lookup('new');
    expect(s.known.cached('new')).toBe(false);
    s.table.add('new');
    s.known.changed({ added: ['new'], removed: ['a'] });
    expect([s.known.cached('new'), s.known.cached('a')]).toEqual([true, false]);
    // a lookup in flight while 'b' is removed: its stale answer is returned but not remembered
    s.hold(true);
    const pending = s.known.lookup('b');
    await Promise.resolve();
    s.table.delete('b');
    s.known.changed({ removed: ['b'] });
    s.release();
    expect(await pending).toBe(true);
    expect(s.known.cached('b')).toBe(false);
  });
});
