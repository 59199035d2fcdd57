import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { articleId, isoString } from '../../src/actors/ingest/prepare.js';

describe('prepare shortcuts', () => {
  it('isoString matches Date#toISOString over past, recent and far dates', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cases = [0, -1, 1, 86_399_999, 86_400_000, -86_400_001, Date.UTC(2026, 11, 31, 23, 59, 59, 999), 8.64e15, -8.64e15, 1.5, 253402300800000];
    for (let i = 0; i < 20_000; i++) cases.push(Math.floor((rnd() - 0.3) * 4e12));
    for (const ms of cases) expect(isoString(ms)).toBe(new Date(ms).toISOString());
  });

  it('articleId is the first 16 base64url characters of the SHA-256 of the URL hash', () => {
    for (const h of ['', 'abc', 'f'.repeat(64)]) expect(articleId(h)).toBe(createHash('sha256').update(h).digest('base64url').slice(0, 16));
  });
});
