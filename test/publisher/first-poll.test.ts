import { afterEach, describe, expect, it } from 'vitest';
import { FirstPolls, originOf } from '../../src/actors/publisher/first-poll.js';
import { MemoryPublisherStore, newPublisher, toStored } from '../../src/actors/publisher/state.js';
import { makeNode, type Node } from './harness.js';

/** A random() that walks through the given values (then repeats the last). */
const seq = (...xs: number[]) => {
  let i = 0;
  return () => xs[Math.min(i++, xs.length - 1)]!;
};

describe('first polls of publishers never polled', () => {
  it.each([
    ['https://a.example/feed', 'https://a.example'],
    ['https://a.example:443/feed', 'https://a.example'],
    ['http://a.example:8080/x?y', 'http://a.example:8080'],
    ['HTTP://A.Example/feed', 'http://a.example'],
    ['not a url', 'not a url'],
  ])('origin of %s is %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it('feeds of distinct origins poll within the window, at random', () => {
    const f = new FirstPolls({ windowMs: 20_000, spacingMs: 1_000, random: seq(0, 0.5, 0.999) });
    expect(f.at('https://a.example/feed', 1_000)).toBe(1_000);
    expect(f.at('https://b.example/feed', 1_000)).toBe(11_000);
    expect(f.at('https://c.example/feed', 1_000)).toBe(20_980);
  });

  it.each([
    ['near the wanted moments', [0.5, 0.5, 0.5, 0.56], [10_000, 9_000, 11_000, 12_000]],
    ['ties go to the earlier moment', [0.9, 0.9, 0.9, 0.9], [18_000, 17_000, 19_000, 16_000]],
    ['a moment already in the past is never chosen', [0, 0, 0], [0, 1_000, 2_000]],
  ])('feeds sharing an origin take the free moment nearest their own: %s', (_what, randoms, want) => {
    const f = new FirstPolls({ windowMs: 20_000, spacingMs: 1_000, random: seq(...randoms) });
    expect(randoms.map((_, i) => f.at(`https://big.example/feed/${i}`, 0))).toEqual(want);
  });

  it('a site with more feeds than the window holds fills it, one spacing apart, and runs past it only by the overflow', () => {
    let x = 7;
    const random = () => ((x = (x * 16807) % 2147483647) / 2147483647);
    const f = new FirstPolls({ windowMs: 20_000, spacingMs: 1_000, random });
    const at = Array.from({ length: 30 }, (_, i) => f.at(`https://big.example/feed/${i}`, 0)).sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(1_000);
    expect(at[0]).toBeGreaterThanOrEqual(0);
    expect(at[at.length - 1]).toBeLessThanOrEqual(20_000 + 10 * 1_000);
  });

  it('later feeds of a site queue around what is planned; plans in the past stop counting', () => {
    const f = new FirstPolls({ windowMs: 0, spacingMs: 1_000, random: () => 0 });
    expect(f.at('https://a.example/1', 0)).toBe(0);
    expect(f.at('https://a.example/2', 0)).toBe(1_000);
    expect(f.at('https://a.example/3', 500)).toBe(2_000);
    expect(f.at('https://a.example/4', 10_000)).toBe(10_000);
    expect(f.at('http://a.example/1', 0)).toBe(0); // another scheme
    expect(f.at('https://a.example:8443/1', 0)).toBe(0); // another port
  });

  it('spacing 0 keeps no memory: every feed at random within the window', () => {
    const f = new FirstPolls({ windowMs: 20_000, spacingMs: 0, random: () => 0.25 });
    for (let i = 0; i < 5; i++) expect(f.at(`http://127.0.0.1:9000/feed/${i}`, 0)).toBe(5_000);
  });

  it('forgets origins beyond its bound', () => {
    const f = new FirstPolls({ windowMs: 0, spacingMs: 1_000, random: () => 0, maxOrigins: 3 });
    for (const h of ['a', 'b', 'c', 'd', 'e']) f.at(`https://${h}.example/`, 0);
    // a and b were dropped to make room: their next feed is not held behind them
    expect(f.at('https://a.example/2', 0)).toBe(0);
    expect(f.at('https://e.example/2', 0)).toBe(1_000);
  });
});

describe('a publisher actor with a first-poll plan', () => {
  let n: Node | null = null;
  afterEach(async () => {
    await n?.close();
    n = null;
  });

  it('a never-polled publisher polls within the plan, however late its stored state said; a polled one keeps its schedule', async () => {
    const store = new MemoryPublisherStore();
    const now = Date.UTC(2026, 5, 1);
    const fresh = newPublisher('fresh', { url: 'https://fresh.example/feed' }, now, () => 0.99); // 15 min out by the policy
    const polled = { ...newPublisher('polled', { url: 'https://polled.example/feed' }, now, () => 0.99), polls: 3, nextPollAt: now + 600_000 };
    store.save(toStored(fresh));
    store.save(toStored(polled));
    expect(fresh.nextPollAt - now).toBeGreaterThan(800_000);
    const plan = new FirstPolls({ windowMs: 20_000, spacingMs: 1_000, random: () => 0.5 });
    n = makeNode({ start: now, store, extra: { firstPollAt: (url, t) => plan.at(url, t) } });
    expect((await n.status('fresh')).nextPollAt).toBe(now + 10_000);
    expect((await n.status('polled')).nextPollAt).toBe(now + 600_000);
  });

  it('a publisher configured for the first time polls within the plan', async () => {
    const now = Date.UTC(2026, 5, 1);
    const plan = new FirstPolls({ windowMs: 20_000, spacingMs: 1_000, random: () => 0.25 });
    n = makeNode({ start: now, extra: { firstPollAt: (url, t) => plan.at(url, t) } });
    await n.ask('new', { type: 'configure', url: 'https://new.example/feed' });
    expect((await n.status('new')).nextPollAt).toBe(now + 5_000);
  });
});
