import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/runtime/clock.js';
import { LeaseKeeper, type LeaseEvent, type LeaseStore } from '../../src/runtime/lease.js';
import { MemoryLeaseStore } from '../../src/runtime/lease-memory.js';

/** A store as seen through a link that can fail: `down` = every call fails; `loseAnswers` = writes land, answers do not. */
class Link implements LeaseStore {
  down = false;
  loseAnswers = false;
  constructor(private readonly store: MemoryLeaseStore) {}
  get ttlMs() {
    return this.store.ttlMs;
  }
  readonly name = 'link';
  readonly generation = 1;
  private async via<T>(fn: () => Promise<T>): Promise<T> {
    if (this.down) throw new Error('link down');
    const v = await fn();
    if (this.loseAnswers) throw new Error('answer lost');
    return v;
  }
  create(k: string, h: string) {
    return this.via(() => this.store.create(k, h));
  }
  renew(k: string, h: string, r: number) {
    return this.via(() => this.store.renew(k, h, r));
  }
  takeOver(k: string, h: string, r: number) {
    return this.via(() => this.store.takeOver(k, h, r));
  }
  release(k: string, r: number) {
    return this.via(() => this.store.release(k, r));
  }
  read(k: string) {
    return this.via(() => this.store.read(k));
  }
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function setup(ttlMs = 6000, opts: { expires?: boolean; live?: Set<string> } = {}) {
  const clock = new ManualClock(1_000);
  const store = new MemoryLeaseStore(ttlMs, clock, { expires: opts.expires ?? true });
  const live = opts.live;
  const mk = (holder: string) => {
    const link = new Link(store);
    const keeper = new LeaseKeeper(link, { holder, clock, ...(live ? { holderLive: (h: string) => live.has(h) } : {}) });
    const events: string[] = [];
    keeper.on((e: LeaseEvent) => events.push(`${e.type}@${clock.now()}${e.type === 'lost' ? `:${e.reason}` : ''}`));
    return { link, keeper, events };
  };
  /** advance in steps, letting store calls settle, checking exclusivity at every step */
  const run = async (ms: number, keepers: LeaseKeeper[], key = 'k', step = 50) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(step);
      await flush();
      expect(keepers.filter((k) => k.holds(key)).length).toBeLessThanOrEqual(1);
    }
  };
  return { clock, store, mk, run };
}

describe('LeaseKeeper', () => {
  it('gives a key to one holder; the other takes it only after a release', async () => {
    const { mk, run } = setup();
    const a = mk('a#1');
    const b = mk('b#1');
    a.keeper.want('k');
    a.keeper.start();
    await flush();
    b.keeper.want('k');
    b.keeper.start();
    await run(30_000, [a.keeper, b.keeper]); // many renewals
    expect(a.keeper.holds('k')).toBe(true);
    expect(b.keeper.holds('k')).toBe(false);
    expect(a.keeper.revision('k')).toBeGreaterThan(1);
    await a.keeper.unwant('k');
    expect(a.keeper.holds('k')).toBe(false);
    await run(2_000, [a.keeper, b.keeper]); // b's next retry finds the key free
    expect(b.keeper.holds('k')).toBe(true);
    expect(a.events).toEqual(['acquired@1000', expect.stringMatching(/^released@/)]);
    expect(b.events).toHaveLength(1);
  });

  it('a holder cut off from the store stops holding before anyone else can take the key', async () => {
    const ttl = 6000;
    const { clock, mk, run } = setup(ttl);
    const a = mk('a#1');
    const b = mk('b#1');
    a.keeper.want('k');
    a.keeper.start();
    await flush();
    b.keeper.want('k');
    b.keeper.start();
    await run(5_000, [a.keeper, b.keeper]);
    const cutAt = clock.now();
    a.link.down = true;
    let aStoppedAt = -1;
    let bStartedAt = -1;
    a.keeper.on((e) => e.type === 'lost' && (aStoppedAt = clock.now()));
    b.keeper.on((e) => {
      if (e.type !== 'acquired') return;
      bStartedAt = clock.now();
      expect(a.keeper.holds('k')).toBe(false);
    });
    await run(20_000, [a.keeper, b.keeper]);
    expect(aStoppedAt).toBeGreaterThan(0);
    expect(bStartedAt).toBeGreaterThan(aStoppedAt);
    // a stops within TTL/2 of the cut, b starts no sooner than TTL after a's last write (>= cut - renew interval)
    expect(aStoppedAt - cutAt).toBeLessThanOrEqual(ttl / 2);
    expect(bStartedAt - cutAt).toBeGreaterThanOrEqual(ttl - ttl / 6);
    expect(a.events.at(-1)).toMatch(/^lost@\d+:expired$/);

    // the link comes back: a's renewal is refused (b holds it) and a stays out
    a.link.down = false;
    await run(5_000, [a.keeper, b.keeper]);
    expect(b.keeper.holds('k')).toBe(true);
    expect(a.keeper.holds('k')).toBe(false);
  });

  it('a holder whose link blips shorter than the hold time keeps the key', async () => {
    const { mk, run } = setup(6000);
    const a = mk('a#1');
    a.keeper.want('k');
    a.keeper.start();
    await run(2_000, [a.keeper]);
    a.link.down = true;
    await run(1_500, [a.keeper]);
    a.link.down = false;
    await run(5_000, [a.keeper]);
    expect(a.events).toEqual([expect.stringMatching(/^acquired@/)]);
    expect(a.keeper.holds('k')).toBe(true);
  });

  it('a write that landed though its answer was lost is adopted only after a confirmed renewal', async () => {
    const { store, mk, run } = setup();
    const a = mk('a#1');
    a.link.loseAnswers = true;
    a.keeper.want('k');
    a.keeper.start();
    await flush();
    expect(await store.read('k')).toMatchObject({ holder: 'a#1' });
    expect(a.keeper.holds('k')).toBe(false);
    a.link.loseAnswers = false;
    await run(3_000, [a.keeper]);
    expect(a.keeper.holds('k')).toBe(true);
    expect(a.events).toHaveLength(1);
  });

  it('a second process with the same node id (another incarnation) does not share the key', async () => {
    const { mk, run } = setup();
    const a = mk('n1#aaa');
    const a2 = mk('n1#bbb');
    a.keeper.want('k');
    a.keeper.start();
    await flush();
    a2.keeper.want('k');
    a2.keeper.start();
    await run(10_000, [a.keeper, a2.keeper]);
    expect(a2.keeper.holds('k')).toBe(false);
  });

  it('stop() releases everything so successors need not wait for expiry', async () => {
    const { store, mk, run } = setup();
    const a = mk('a#1');
    for (const k of ['x', 'y', 'z']) a.keeper.want(k);
    a.keeper.start();
    await run(1_000, [a.keeper]);
    expect(a.keeper.held().sort()).toEqual(['x', 'y', 'z']);
    await a.keeper.stop();
    expect(a.keeper.held()).toEqual([]);
    for (const k of ['x', 'y', 'z']) expect(await store.read(k)).toBeNull();
  });

  describe('a store that keeps a gone holder\'s key (no expiry)', () => {
    it('takes the key over once its holder has been gone, with the key unchanged, for a TTL', async () => {
      const ttl = 6000;
      const live = new Set(['b#1']);
      const { clock, store, mk, run } = setup(ttl, { expires: false, live });
      const dead = await store.create('k', 'dead#1'); // written by a node that then died
      const b = mk('b#1');
      b.keeper.want('k');
      b.keeper.start();
      const from = clock.now();
      await run(ttl - 500, [b.keeper]);
      expect(b.keeper.holds('k')).toBe(false); // not before a TTL
      await run(3 * (ttl / 6), [b.keeper]);
      expect(b.keeper.holds('k')).toBe(true);
      expect(b.events).toEqual([expect.stringMatching(/^acquired@/)]);
      const at = Number(b.events[0]!.slice('acquired@'.length));
      expect(at - from).toBeGreaterThanOrEqual(ttl);
      expect(await store.read('k')).toMatchObject({ holder: 'b#1' });
      // the taking write is a compare-and-set: the old revision can no longer renew
      expect(await store.renew('k', 'dead#1', dead!)).toBeNull();
      // its fencing token is the taking write's revision, the same across renewals
      const token = b.keeper.fence('k');
      expect(token).toEqual({ key: 'link/k', gen: 1, rev: expect.any(Number) });
      expect(token!.rev).toBeGreaterThan(dead!);
      await run(3_000, [b.keeper]);
      expect((await store.read('k'))!.revision).toBeGreaterThan(token!.rev);
      expect(b.keeper.fence('k')).toEqual(token);
    });

    it('leaves a live holder\'s key alone, and one whose holder keeps writing it', async () => {
      const live = new Set(['a#1', 'b#1']);
      const { store, mk, run } = setup(6000, { expires: false, live });
      // a is live (heard by b's membership) but its process stopped renewing
      await store.create('k', 'a#1');
      // c is not in b's view of the members but keeps renewing its key
      const c = mk('c#1');
      c.keeper.want('j');
      c.keeper.start();
      const b = mk('b#1');
      b.keeper.want('k');
      b.keeper.want('j');
      b.keeper.start();
      await run(30_000, [b.keeper, c.keeper], 'j');
      expect(b.keeper.holds('k')).toBe(false);
      expect(b.keeper.holds('j')).toBe(false);
      expect(c.keeper.holds('j')).toBe(true);
      // a leaves the members: its key goes to b after a TTL
      live.delete('a#1');
      await run(9_000, [b.keeper], 'k');
      expect(b.keeper.holds('k')).toBe(true);
      expect(c.keeper.holds('j')).toBe(true);
    });

    it('a holder that comes back after the take-over finds its key taken', async () => {
      const live = new Set(['b#1']);
      const { mk, run } = setup(6000, { expires: false, live });
      const a = mk('a#1');
      a.keeper.want('k');
      a.keeper.start();
      await run(1_000, [a.keeper]);
      a.link.down = true; // a is cut off (and gone from b's view of the members)
      const b = mk('b#1');
      b.keeper.want('k');
      b.keeper.start();
      await run(12_000, [a.keeper, b.keeper]);
      expect(b.keeper.holds('k')).toBe(true);
      a.link.down = false;
      await run(3_000, [a.keeper, b.keeper]);
      expect(a.keeper.holds('k')).toBe(false);
      expect(b.keeper.holds('k')).toBe(true);
      expect(a.events).toEqual([expect.stringMatching(/^acquired@/), expect.stringMatching(/^lost@\d+:expired$/)]);
    });
  });

  it.each([
    [{ safety: 0.9 }, /safety/],
    [{ safety: 0.5, renewEveryMs: 3000 }, /renew interval/],
  ])('refuses unsafe settings %j', (opts, msg) => {
    expect(() => new LeaseKeeper(new MemoryLeaseStore(6000), { holder: 'a', ...opts })).toThrow(msg);
  });
});
