import { describe, expect, it } from 'vitest';
import { MemoryWorkQueue, WorkNotDoneError } from '../../src/runtime/work-queue.js';

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('MemoryWorkQueue', () => {
  it('hands batches to the consumer in order, retries a failing batch, and resolves each append once its items are acknowledged', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 10, lingerMs: 1, retryMs: 1 });
    const handled = new Set<number>();
    const seen: number[] = [];
    let failures = 0;
    q.consume(async (batch) => {
      if (batch.includes(25) && failures < 2) {
        failures++;
        throw new Error('transient');
      }
      seen.push(...batch);
      for (const x of batch) handled.add(x);
    });
    const appends = range(0, 10).map((k) => {
      const items = range(5 * k, 5);
      // durable here means handled: every item is through the consumer when the append resolves
      return q.append(items).then(() => items.every((x) => handled.has(x)));
    });
    expect(await Promise.all(appends)).toEqual(Array(10).fill(true));
    await q.drain();
    // a failed batch comes again after a pause, behind newer ones: each item once, none lost
    expect([...seen].sort((x, y) => x - y)).toEqual(range(0, 50));
    expect(seen.slice(0, 20)).toEqual(range(0, 20));
    expect(failures).toBe(2);
    expect(q.pending).toBe(0);
    await q.close();
  });

  it('keeps up to `concurrency` batches in flight, delivered in order; a slow batch holds back only its own appends', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 2, lingerMs: 0, concurrency: 3 });
    const started: number[][] = [];
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.consume(async (batch) => {
      started.push(batch);
      most = Math.max(most, ++inFlight);
      if (batch[0] === 0) await gate;
      await new Promise((r) => setImmediate(r));
      inFlight--;
    });
    const first = q.append([0, 1]);
    let firstDone = false;
    void first.then(() => (firstDone = true));
    const rest = [q.append([2, 3]), q.append([4, 5]), q.append([6, 7])];
    await Promise.all(rest);
    expect(firstDone).toBe(false);
    release();
    await first;
    expect(started.map((b) => b[0])).toEqual([0, 2, 4, 6]);
    expect(most).toBe(3);
  });

  it('gives up a batch that keeps failing: its appends reject, the rest go on, nothing is left pending', async () => {
    const givenUp: number[] = [];
    const q = new MemoryWorkQueue<string>({ maxBatch: 2, lingerMs: 0, maxAttempts: 3, retryMs: 1, onGiveUp: (n) => givenUp.push(n) });
    let attempts = 0;
    const stored: string[] = [];
    q.consume(async (batch) => {
      if (batch.includes('poison')) {
        attempts++;
        throw new Error('refused');
      }
      stored.push(...batch);
    });
    const ok1 = q.append(['a', 'b']);
    const bad = q.append(['poison', 'c']);
    const ok2 = q.append(['d', 'e']);
    await expect(bad).rejects.toBeInstanceOf(WorkNotDoneError);
    await expect(bad).rejects.toMatchObject({ code: 'QUEUE_GAVE_UP' });
    await ok1;
    await ok2;
    await q.drain();
    expect(attempts).toBe(3);
    expect(givenUp).toEqual([2]);
    expect(stored.sort()).toEqual(['a', 'b', 'd', 'e']);
    expect(q.pending).toBe(0);
  });

  it('an append split over two batches resolves only when both are through, and rejects when either is given up', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 3, lingerMs: 0, maxAttempts: 1 });
    const handled: number[][] = [];
    q.consume(async (batch) => {
      if (batch.includes(104)) throw new Error('no');
      handled.push(batch);
    });
    await q.append([1, 2, 3, 4, 5]);
    expect(handled).toEqual([[1, 2, 3], [4, 5]]);
    await expect(q.append([101, 102, 103, 104])).rejects.toMatchObject({ code: 'QUEUE_GAVE_UP' });
    expect(handled).toContainEqual([101, 102, 103]);
  });

  it('makes producers wait at the high-water mark', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 5, lingerMs: 0, highWater: 5 });
    const a = q.append([1, 2, 3, 4, 5]);
    const b = q.append([6]);
    await new Promise((r) => setImmediate(r));
    // the sixth waits outside: five items are waiting, the high-water mark
    expect(q.waiting).toBe(5);
    const got: number[] = [];
    q.consume(async (batch) => void got.push(...batch));
    await Promise.all([a, b]);
    await q.drain();
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('close() stores what it can within its budget and gives up the rest; later appends are refused', async () => {
    const q = new MemoryWorkQueue<number>({ maxBatch: 2, lingerMs: 0 });
    const never = new Promise<void>(() => {});
    q.consume(async (batch) => {
      if (batch[0] === 3) await never;
    });
    const done = q.append([1, 2]);
    const stuck = q.append([3, 4]);
    await done;
    await q.close(50);
    await expect(stuck).rejects.toMatchObject({ code: 'QUEUE_CLOSED' });
    await expect(q.append([5])).rejects.toMatchObject({ code: 'QUEUE_CLOSED' });
    expect(q.pending).toBe(0);
  });
});
