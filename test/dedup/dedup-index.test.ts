import { describe, expect, it } from 'vitest';
import { DedupCoordinator, type DedupInput, type ShardTransport } from '../../src/actors/dedup/coordinator.js';
import { DedupIndex, localContext } from '../../src/actors/dedup/dedup-index.js';
import { dedupShardBehaviour, parseShardKey, shardKey, type DedupShardState } from '../../src/actors/dedup/dedup-shard.js';
import { fingerprint } from '../../src/actors/dedup/fingerprint.js';
import { MemoryFingerprintStore } from '../../src/actors/dedup/memory-store.js';
import { STORIES, syndicate } from './fixtures/stories.js';

const H = 3600_000;
const T0 = Date.UTC(2024, 5, 1);

function input(id: string, storyIndex: number, variant: number | null, publishedAt: number): DedupInput {
  const f = variant === null ? STORIES[storyIndex]! : syndicate(STORIES[storyIndex]!, variant);
  return { id, fp: fingerprint(f.title, f.text.slice(0, 300), f.text), publishedAt };
}

describe('DedupIndex', () => {
  it('marks syndicated copies as duplicates of the original and keeps look-alikes apart', async () => {
    const idx = await DedupIndex.create({ partitions: 3 });
    const batch = [
      input('a', 0, null, T0),
      input('b', 1, null, T0 + 1),
      input('n1', 3, null, T0 + 2),
      input('n2', 4, null, T0 + 3),
      ...[0, 1, 2, 3].map((v) => input(`a${v}`, 0, v, T0 + H + v)),
      ...[0, 1, 2, 3].map((v) => input(`b${v}`, 1, v, T0 + H + v)),
    ];
    const d = await idx.submit(batch);
    const dupOf = Object.fromEntries(d.map((x) => [x.id, x.duplicateOf]));
    expect(dupOf).toMatchObject({ a: null, b: null, n1: null, n2: null, a0: 'a', a1: 'a', a2: 'a', a3: 'a', b0: 'b', b1: 'b', b2: 'b', b3: 'b' });
    expect(d.map((x) => x.id)).toEqual(batch.map((x) => x.id));
  });

  it('gives many concurrent copies of one story exactly one original', async () => {
    const idx = await DedupIndex.create({ partitions: 4 });
    // 40 callers submit at once, each a copy of the same story, without awaiting each other
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => idx.submit([input(`c${i}`, 2, i % 5 === 4 ? null : i, T0)])));
    const decisions = all.flat();
    const originals = decisions.filter((x) => x.duplicateOf === null);
    expect(originals).toHaveLength(1);
    for (const x of decisions) if (x !== originals[0]) expect(x.duplicateOf).toBe(originals[0]!.id);
  });

  it('keeps exactly one original when shard replies come back in scrambled order', async () => {
    const P = 2;
    const b = dedupShardBehaviour({ partitions: P });
    const states: DedupShardState[] = [];
    for (let i = 0; i < 4; i++) for (let p = 0; p < P; p++) states.push(await b.init(shardKey(i, p), localContext(shardKey(i, p), () => T0)));
    let seed = 7;
    const transport: ShardTransport = {
      // each shard handles the message in arrival order (FIFO), but replies arrive late and shuffled
      ask(i, p, msg) {
        const reply = b.receive(states[i * P + p]!, msg, localContext(shardKey(i, p), () => T0));
        seed = (seed * 48271) % 2147483647;
        return new Promise((r) => setTimeout(() => r(reply as never), seed % 7));
      },
    };
    const coord = new DedupCoordinator(transport, P);
    const all = await Promise.all(
      Array.from({ length: 30 }, (_, i) => coord.submit([input(`x${i}`, 0, i, T0 + (30 - i) * 1000), input(`y${i}`, 1, i, T0)])),
    );
    const flat = all.flat();
    for (const prefix of ['x', 'y']) {
      const group = flat.filter((d) => d.id.startsWith(prefix));
      expect(group.filter((d) => d.duplicateOf === null)).toHaveLength(1);
    }
  });

  it('never re-labels an emitted original: a copy claiming an earlier time still points at it', async () => {
    const idx = await DedupIndex.create({ partitions: 2 });
    const [a] = await idx.submit([input('late', 0, null, T0 + 5 * H)]);
    const [b] = await idx.submit([input('early-copy', 0, 1, T0)]);
    expect(a!.duplicateOf).toBeNull();
    expect(b!.duplicateOf).toBe('late');
  });

  it('makes the earliest published of one batch the original, whatever the input order', async () => {
    const idx = await DedupIndex.create({ partitions: 2 });
    const d = await idx.submit([input('copy-late', 1, 0, T0 + 3 * H), input('orig-early', 1, null, T0), input('copy-mid', 1, 2, T0 + H)]);
    expect(d.map((x) => [x.id, x.duplicateOf])).toEqual([['copy-late', 'orig-early'], ['orig-early', null], ['copy-mid', 'orig-early']]);
  });

  it('never matches wordless articles with each other', async () => {
    const idx = await DedupIndex.create({ partitions: 2 });
    const empty = (id: string): DedupInput => ({ id, fp: fingerprint('', ''), publishedAt: T0 });
    const d = await idx.submit([empty('e1'), empty('e2'), input('a', 0, null, T0)]);
    expect(d.map((x) => x.duplicateOf)).toEqual([null, null, null]);
  });

  it('does not match across the window and expires old entries', async () => {
    const idx = await DedupIndex.create({ partitions: 2, windowMs: 24 * H });
    await idx.submit([input('old', 0, null, T0)]);
    const [late] = await idx.submit([input('late', 0, 1, T0 + 25 * H)]);
    expect(late!.duplicateOf).toBeNull();
    const sizeBefore = idx.size;
    expect(await idx.expire(T0 + 25 * H)).toBe(4); // 'old' leaves all four tables
    expect(idx.size).toBe(sizeBefore - 4);
  });

  it('frees its facts about articles once they left the window (memory does not grow with every article)', async () => {
    const idx = await DedupIndex.create({ partitions: 2, windowMs: 24 * H });
    const coord = idx.coordinatorRef;
    // 30,000 articles over a day, in batches: the coordinator holds their facts in blocks of 4,096
    for (let b = 0; b < 60; b++) {
      await idx.submit(Array.from({ length: 500 }, (_, i) => input(`d${b}-${i}`, (b + i) % STORIES.length, i % 4, T0 + b * 20 * 60_000)));
    }
    expect(coord.heldHandles).toBeGreaterThanOrEqual(30_000);
    // two days on, all of them are out of the window: only the block being filled stays
    await idx.expire(T0 + 3 * 24 * H);
    expect(coord.heldHandles).toBeLessThanOrEqual(4_096);
    // and it keeps deciding: a copy of a story seen long ago is an original now, a copy of a fresh one is not
    const d = await idx.submit([input('late', 0, null, T0 + 3 * 24 * H), input('late-copy', 0, 1, T0 + 3 * 24 * H + 1)]);
    expect(d.map((x) => x.duplicateOf)).toEqual([null, 'late']);
  });

  it('never makes an article its own duplicate when the same id comes again', async () => {
    const idx = await DedupIndex.create({ partitions: 2 });
    await idx.submit([input('x', 0, null, T0), input('x-copy', 0, 1, T0 + 1)]);
    // the batch was not stored and comes again with the same ids
    const again = await idx.submit([input('x', 0, null, T0), input('x-copy', 0, 1, T0 + 1)]);
    expect(again.map((d) => d.duplicateOf)).toEqual([null, 'x']);
  });

  it('rebuilds shards from stored fingerprints and keeps answering', async () => {
    const store = new MemoryFingerprintStore();
    const first = await DedupIndex.create({ partitions: 2, sink: store, now: () => T0 + H });
    await first.submit([input('a', 0, null, T0), input('b', 1, null, T0)]);
    expect(store.records).toHaveLength(2);
    // a new process: shards load their partitions from the store, the coordinator its handles
    const second = await DedupIndex.create({ partitions: 2, store, sink: store, now: () => T0 + 2 * H });
    second.coordinatorRef.restore(store.records);
    expect(second.size).toBe(8);
    const d = await second.submit([input('a-copy', 0, 2, T0 + H), input('c', 2, null, T0 + H)]);
    expect(d.map((x) => x.duplicateOf)).toEqual(['a', null]);
    expect(d[0]!.handle).toBeGreaterThanOrEqual(2);
  });
});

describe('shard keys', () => {
  it.each([
    ['0-0', 4, { blockIndex: 0, partition: 0 }],
    ['3-15', 16, { blockIndex: 3, partition: 15 }],
  ])('parses %s', (key, p, want) => {
    expect(parseShardKey(key, p)).toEqual(want);
  });
  it.each([['4-0'], ['1-4'], ['x'], ['1-']])('refuses %s', (key) => {
    expect(() => parseShardKey(key, 4)).toThrow(/bad dedup shard key/);
  });
});
