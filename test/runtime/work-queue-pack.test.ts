import { decode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { packItems } from '../../src/runtime/work-queue-pack.js';

const item = (i: number, pad = 0) => ({ id: `i${i}`, n: i, text: 'x'.repeat(pad) });
const idOf = (x: { id: string }) => x.id;

describe('packItems', () => {
  it.each([
    ['one item', 1, 64, 1 << 20, [1]],
    ['15 items: fixarray header', 15, 64, 1 << 20, [15]],
    ['16 items: array16 header', 16, 64, 1 << 20, [16]],
    ['by count', 130, 64, 1 << 20, [64, 64, 2]],
    ['by bytes (~120 B per item, 1,000 B per pack)', 20, 64, 1000, [8, 8, 4]],
    ['nothing', 0, 64, 1 << 20, []],
  ])('%s', (_name, n, maxItems, maxBytes, counts) => {
    const items = Array.from({ length: n }, (_, i) => item(i, 100));
    const packs = packItems(items, idOf, maxItems, maxBytes);
    expect(packs.map((p) => p.count)).toEqual(counts);
    // each pack is a msgpack array of exactly its items, in order
    expect(packs.flatMap((p) => decode(p.bytes) as unknown[])).toEqual(items);
    for (const p of packs) expect(decode(p.bytes)).toEqual(items.slice(p.from, p.from + p.count));
    for (const p of packs) if (p.count > 1) expect(p.bytes.length).toBeLessThanOrEqual(maxBytes);
  });

  it('puts an item larger than the byte limit in a pack of its own', () => {
    const packs = packItems([item(0), item(1, 5000), item(2)], idOf, 64, 1000);
    expect(packs.map((p) => p.count)).toEqual([1, 1, 1]);
    expect(packs[1]!.bytes.length).toBeGreaterThan(5000);
  });

  it('gives the same items the same id (a retried append is dropped) and other items another', () => {
    const a = packItems([item(1), item(2)], idOf, 64, 1 << 20)[0]!.id;
    expect(packItems([item(1), item(2)], idOf, 64, 1 << 20)[0]!.id).toBe(a);
    expect(packItems([item(2), item(1)], idOf, 64, 1 << 20)[0]!.id).not.toBe(a);
    expect(packItems([item(1), item(3)], idOf, 64, 1 << 20)[0]!.id).not.toBe(a);
    expect(packItems([item(1)], idOf, 64, 1 << 20)[0]!.id).not.toBe(a);
  });
});
