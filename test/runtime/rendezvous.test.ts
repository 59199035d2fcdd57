import { describe, expect, it } from 'vitest';
import { assignShards, hash32, rendezvousOwner, rendezvousRank, shardKey, shardOfKey } from '../../src/runtime/rendezvous.js';

const count = (owners: readonly (string | null)[]) => {
  const c = new Map<string, number>();
  for (const o of owners) if (o) c.set(o, (c.get(o) ?? 0) + 1);
  return c;
};

describe('rendezvous hashing', () => {
  // Nodes of different versions must agree on owners: these values pin the hash.
  it.each([
    ['', 0],
    ['a', 1867108634],
    ['ab', 374890698],
    ['abc', 1118836419],
    ['node-1:8080', 1303544374],
    ['publisher/0', 2530151102],
    ['ünïcödé', 3309512384],
  ])('hash32(%j) = %i', (s, h) => {
    expect(hash32(s)).toBe(h);
  });

  it.each([
    ['publisher/0', ['a', 'b', 'c'], 'c'],
    ['publisher/1', ['a', 'b', 'c'], 'b'],
    ['story/7', ['n1:8080', 'n2:8080', 'n3:8080'], 'n3:8080'],
    ['story/7', [], null],
    ['x', ['only'], 'only'],
  ])('owner of %s among %j is %s', (key, nodes, owner) => {
    expect(rendezvousOwner(key, nodes)).toBe(owner);
  });

  it.each([
    ['8f3c', 128, 23],
    ['pub-42', 128, 83],
  ])('shardOfKey(%s, %i) = %i', (key, n, shard) => {
    expect(shardOfKey(key, n)).toBe(shard);
  });

  it('does not depend on the order of the member list', () => {
    const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'];
    const a = assignShards('dedup', 512, nodes);
    const b = assignShards('dedup', 512, [...nodes].reverse());
    expect(b).toEqual(a);
    for (let s = 0; s < 512; s += 37) expect(rendezvousOwner(shardKey('dedup', s), nodes)).toBe(a[s]);
    expect(rendezvousRank('k', nodes)).toEqual(rendezvousRank('k', [...nodes].reverse()));
    expect(rendezvousRank('k', nodes)[0]).toBe(rendezvousOwner('k', nodes));
  });

  it.each([2, 3, 4, 7, 10])('spreads 20,000 shards evenly over %i nodes (within 5 %% of a fair share)', (n) => {
    const nodes = Array.from({ length: n }, (_, i) => `host-${i}.example.org:8080`);
    const c = count(assignShards('publisher', 20_000, nodes));
    expect(c.size).toBe(n);
    for (const v of c.values()) expect(Math.abs(v - 20_000 / n) / (20_000 / n)).toBeLessThan(0.05);
  });

  it.each([
    ['a node leaves', ['n1', 'n2', 'n3', 'n4'], ['n1', 'n2', 'n4']],
    ['a node joins', ['n1', 'n2', 'n3'], ['n1', 'n2', 'n3', 'n4']],
  ])('moves only what it must when %s', (_what, before, after) => {
    const a = assignShards('story', 4096, before);
    const b = assignShards('story', 4096, after);
    const gone = before.filter((n) => !after.includes(n));
    const added = after.filter((n) => !before.includes(n));
    let moved = 0;
    for (let s = 0; s < a.length; s++) {
      if (a[s] === b[s]) continue;
      moved++;
      // a shard moves only off a leaving node, or onto a joining one
      expect(gone.includes(a[s]!) || added.includes(b[s]!)).toBe(true);
    }
    // about 1/n of the shards move (1/4 here), not a reshuffle
    expect(moved / a.length).toBeGreaterThan(0.2);
    expect(moved / a.length).toBeLessThan(0.3);
  });

  it('gives a joining node a fair share taken from every node', () => {
    const before = assignShards('dedup', 256, ['a', 'b', 'c']);
    const after = assignShards('dedup', 256, ['a', 'b', 'c', 'd']);
    const c = count(after);
    // 64 expected; binomial(256, 1/4) has sd 6.9, so 40..88 holds with overwhelming odds and pins the hash's quality
    expect(c.get('d')).toBeGreaterThan(40);
    expect(c.get('d')).toBeLessThan(88);
    const from = count(before.filter((_, s) => after[s] === 'd'));
    expect([...from.keys()].sort()).toEqual(['a', 'b', 'c']);
  });
});
