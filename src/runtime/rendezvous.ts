/**
 * Rendezvous (highest random weight) hashing: a key belongs to the node with the highest
 * score(node, key). Every node computes the same answer from the same member list, with no
 * coordination; when a node leaves only its keys move (each to its runner-up), and when one joins
 * it takes from every other node about 1/n of their keys and nothing else moves.
 *
 * The hashes are fixed here (32-bit MurmurHash3 over UTF-16 code units, then its finaliser over
 * node ^ key): nodes of different versions must agree, so changing them is a protocol change —
 * the golden values in the tests pin them.
 */

import { fmix32 } from './hash.js';

/** MurmurHash3 (x86, 32-bit) over the string's UTF-16 code units, each as two bytes. */
export function hash32(s: string, seed = 0): number {
  let h = seed >>> 0;
  const n = s.length;
  let i = 0;
  // two code units = one 32-bit block
  for (; i + 1 < n; i += 2) {
    let k = (s.charCodeAt(i) & 0xffff) | ((s.charCodeAt(i + 1) & 0xffff) << 16);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < n) {
    let k = s.charCodeAt(i) & 0xffff;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= n * 2;
  return fmix32(h);
}


/** The weight of `node` for `key`, from their hashes (precompute them for many keys). */
export function score(nodeHash: number, keyHash: number): number {
  return fmix32((nodeHash ^ Math.imul(keyHash, 0x9e3779b1)) >>> 0);
}

/** Highest score wins; equal scores (rare) go to the smaller node id, so every node agrees. */
function better(sa: number, a: string, sb: number, b: string): boolean {
  return sa > sb || (sa === sb && a < b);
}

/** The owner of `key` among `nodes`, or null when there are none. */
export function rendezvousOwner(key: string, nodes: readonly string[]): string | null {
  const kh = hash32(key);
  let best: string | null = null;
  let bestScore = -1;
  for (const n of nodes) {
    const s = score(hash32(n), kh);
    if (best === null || better(s, n, bestScore, best)) {
      best = n;
      bestScore = s;
    }
  }
  return best;
}

/** The nodes ranked for `key`, best first (the first `n`, or all). */
export function rendezvousRank(key: string, nodes: readonly string[], n = nodes.length): string[] {
  const kh = hash32(key);
  return nodes
    .map((node) => ({ node, s: score(hash32(node), kh) }))
    .sort((a, b) => (better(a.s, a.node, b.s, b.node) ? -1 : better(b.s, b.node, a.s, a.node) ? 1 : 0))
    .slice(0, n)
    .map((x) => x.node);
}

/** The key a shard is placed by: `<kind>/<shard>`. */
export function shardKey(kind: string, shard: number): string {
  return `${kind}/${shard}`;
}

/** Owners of shards 0..count-1 of `kind` (null entries when there are no nodes). */
export function assignShards(kind: string, count: number, nodes: readonly string[]): (string | null)[] {
  const nh = nodes.map((n) => hash32(n));
  const out: (string | null)[] = new Array(count);
  for (let s = 0; s < count; s++) {
    const kh = hash32(shardKey(kind, s));
    let best = -1;
    let bestScore = -1;
    for (let i = 0; i < nodes.length; i++) {
      const sc = score(nh[i]!, kh);
      if (best < 0 || better(sc, nodes[i]!, bestScore, nodes[best]!)) {
        best = i;
        bestScore = sc;
      }
    }
    out[s] = best < 0 ? null : nodes[best]!;
  }
  return out;
}

/** The shard of an entity key (a publisher id, a story key) among `count` shards. */
export function shardOfKey(key: string, count: number): number {
  return hash32(key, 0x5bd1e995) % count;
}
