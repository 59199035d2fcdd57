import { describe, expect, it } from 'vitest';
import {
  MAX_SEEN,
  MIN_SEEN,
  createSeen,
  ensureSeenCapacity,
  entryFingerprint,
  entryKeyHash,
  seenHash,
  seenAdd,
  seenCapacity,
  seenCount,
  seenFromBase64,
  seenHas,
  seenToBase64,
} from '../../src/actors/publisher/seen.js';

describe('entry identity', () => {
  it.each([
    [{ id: 'urn:a', link: 'https://x.test/1' }, { id: 'urn:a', link: 'https://x.test/other' }, true],
    [{ id: null, link: 'https://x.test/1' }, { id: '', link: 'https://x.test/1' }, true],
    [{ id: 'urn:a', link: null }, { id: 'urn:b', link: null }, false],
    [{ id: null, link: null }, { id: null, link: null }, true], // both 0: "no key"
  ])('key(%o) == key(%o): %s', (a, b, same) => {
    expect(entryKeyHash(a) === entryKeyHash(b)).toBe(same);
  });

  it.each([
    ['Storm hits coast', 'Winds of 120 km/h', 'STORM hits coast!', '<p>Winds of 120 km/h</p>', true],
    ['Storm hits coast', 'Winds of 120 km/h', 'Storm hits coast', 'Winds of 90 km/h', false],
    ['Storm hits coast', null, 'Storm misses coast', null, false],
  ])('fingerprint(%s|%s) vs (%s|%s) equal: %s', (t1, s1, t2, s2, same) => {
    const a = entryFingerprint({ title: t1, summary: s1, content: null });
    const b = entryFingerprint({ title: t2, summary: s2, content: null });
    expect(a === b).toBe(same);
  });

  it('has no fingerprint for an empty entry, and hashes are never 0', () => {
    expect(entryFingerprint({ title: ' ', summary: null, content: null })).toBe(0);
    expect(seenHash('')).not.toBe(0);
  });
});

describe('seen ring', () => {
  it('finds entries by key or by fingerprint', () => {
    const r = seenAdd(createSeen(), 11, 22);
    expect(seenHas(r, 11, 99)).toBe(true); // same guid, edited content
    expect(seenHas(r, 33, 22)).toBe(true); // republished with a new guid
    expect(seenHas(r, 33, 44)).toBe(false);
    expect(seenHas(r, 0, 0)).toBe(false);
  });

  it('evicts the oldest when full', () => {
    let r = createSeen(MIN_SEEN);
    for (let i = 1; i <= MIN_SEEN + 3; i++) r = seenAdd(r, i, 1000 + i);
    expect(seenCount(r)).toBe(MIN_SEEN);
    expect([1, 2, 3].map((k) => seenHas(r, k, 0))).toEqual([false, false, false]);
    expect([4, MIN_SEEN + 3].map((k) => seenHas(r, k, 0))).toEqual([true, true]);
  });

  it('grows to twice the document size, keeping order, up to the cap', () => {
    let r = createSeen();
    for (let i = 1; i <= 40; i++) r = seenAdd(r, i, 0); // wrapped: 1..8 evicted
    r = ensureSeenCapacity(r, 50);
    expect(seenCapacity(r)).toBe(100);
    expect(seenHas(r, 8, 0)).toBe(false);
    expect(seenHas(r, 9, 0)).toBe(true);
    for (let i = 41; i <= 108; i++) r = seenAdd(r, i, 0); // 32 + 68 = 100: nothing evicted yet
    expect(seenHas(r, 9, 0)).toBe(true);
    r = seenAdd(r, 109, 0); // evicts 9, the oldest
    expect(seenHas(r, 9, 0)).toBe(false);
    expect(seenCapacity(ensureSeenCapacity(r, 100_000))).toBe(MAX_SEEN);
  });

  it('is small: 64 entries fit in about 520 bytes', () => {
    expect(createSeen(64).byteLength).toBe(4 * (2 + 128));
  });

  it('round-trips through base64 and rejects garbage', () => {
    let r = createSeen();
    for (let i = 1; i <= 5; i++) r = seenAdd(r, i * 7, i * 13);
    const back = seenFromBase64(seenToBase64(r));
    expect(Array.from(back)).toEqual(Array.from(r));
    for (const bad of ['', 'not base64!', Buffer.from([1, 2, 3]).toString('base64'), null]) {
      expect(seenCount(seenFromBase64(bad))).toBe(0);
    }
    const corrupt = createSeen();
    corrupt[0] = 999; // head beyond capacity
    expect(seenCount(seenFromBase64(seenToBase64(corrupt)))).toBe(0);
  });
});
