import { describe, expect, it } from 'vitest';
import { MemoryWorkQueue } from '../../src/runtime/work-queue.js';

describe('MemoryWorkQueue', () => {
  it('hands batches to the consumer in order, retries a failing batch, and drains', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 10, lingerMs: 1, retryMs: 1 });
    const seen: number[] = [];
    let failures = 0;
    q.consume(async (batch) => {
      if (batch.includes(25) && failures < 2) {
        failures++;
        throw new Error('transient');
      }
      seen.push(...batch);
    });
    for (let i = 0; i < 50; i += 5) await q.append([i, i + 1, i + 2, i + 3, i + 4]);
    await q.drain();
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(failures).toBe(2);
    expect(q.pending).toBe(0);
    await q.close();
  });

  it('makes producers wait at the high-water mark', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 5, lingerMs: 0, highWater: 5 });
    await q.append([1, 2, 3, 4, 5]);
    let appended = false;
    const p = q.append([6]).then(() => (appended = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(appended).toBe(false);
    const got: number[] = [];
    q.consume(async (b) => void got.push(...b));
    await p;
    await q.drain();
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
