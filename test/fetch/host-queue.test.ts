import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostQueue, MAX_CRAWL_DELAY_MS } from '../../src/actors/fetch/host-queue.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function queue(concurrency: number, delayMs: number): HostQueue {
  return new HostQueue({ concurrency, delayMs, now: () => Date.now() });
}

/** Starts an acquire and records when it was granted. */
function track(q: HostQueue, host: string, signal?: AbortSignal) {
  const t = { granted: false, failed: null as unknown, release: (() => undefined) as () => void };
  q.acquire(host, signal).then(
    (release) => { t.granted = true; t.release = release; },
    (err: unknown) => { t.failed = err; },
  );
  return t;
}

describe('HostQueue', () => {
  it('limits concurrency per host, FIFO', async () => {
    const q = queue(2, 0);
    const [a, b, c, d] = [track(q, 'h'), track(q, 'h'), track(q, 'h'), track(q, 'h')];
    await vi.advanceTimersByTimeAsync(0);
    expect([a.granted, b.granted, c.granted, d.granted]).toEqual([true, true, false, false]);
    b.release();
    await vi.advanceTimersByTimeAsync(0);
    expect([c.granted, d.granted]).toEqual([true, false]);
    b.release(); // a second release of the same slot is ignored
    await vi.advanceTimersByTimeAsync(0);
    expect(d.granted).toBe(false);
  });

  it('hosts do not wait on each other', async () => {
    const q = queue(1, 5_000);
    const a = track(q, 'a.example');
    const b = track(q, 'b.example');
    await vi.advanceTimersByTimeAsync(0);
    expect([a.granted, b.granted]).toEqual([true, true]);
  });

  it('spaces starts by the crawl delay, even after the host went idle', async () => {
    const q = queue(4, 1_000);
    const a = track(q, 'h');
    await vi.advanceTimersByTimeAsync(0);
    a.release();
    const b = track(q, 'h');
    await vi.advanceTimersByTimeAsync(999);
    expect(b.granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(b.granted).toBe(true);
  });

  it('robots Crawl-delay raises the spacing for that host only, capped', async () => {
    const q = queue(4, 100);
    q.setCrawlDelay('slow.example', 3_000);
    expect(q.delayFor('slow.example')).toBe(3_000);
    expect(q.delayFor('other.example')).toBe(100);
    q.setCrawlDelay('huge.example', 3_600_000);
    expect(q.delayFor('huge.example')).toBe(MAX_CRAWL_DELAY_MS);
    q.setCrawlDelay('slow.example', 10); // lower than the configured floor
    expect(q.delayFor('slow.example')).toBe(100);

    q.setCrawlDelay('slow.example', 3_000);
    const a = track(q, 'slow.example');
    const b = track(q, 'slow.example');
    await vi.advanceTimersByTimeAsync(2_999);
    expect([a.granted, b.granted]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(b.granted).toBe(true);
  });

  it('an aborted waiter leaves the queue and the next one is served', async () => {
    const q = queue(1, 0);
    const a = track(q, 'h');
    const ctl = new AbortController();
    const b = track(q, 'h', ctl.signal);
    const c = track(q, 'h');
    await vi.advanceTimersByTimeAsync(0);
    ctl.abort(new Error('stop'));
    a.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.granted).toBe(false);
    expect(b.failed).toBeInstanceOf(Error);
    expect(c.granted).toBe(true);
  });

  it('forgets idle hosts once their spacing has passed', async () => {
    const q = queue(1, 500);
    const a = track(q, 'h');
    await vi.advanceTimersByTimeAsync(0);
    expect(q.busyHosts).toBe(1);
    a.release();
    await vi.advanceTimersByTimeAsync(499);
    expect(q.busyHosts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.busyHosts).toBe(0);
  });

  it('close rejects everything still waiting', async () => {
    const q = queue(1, 0);
    track(q, 'h');
    const b = track(q, 'h');
    await vi.advanceTimersByTimeAsync(0);
    q.close(new Error('closed'));
    await vi.advanceTimersByTimeAsync(0);
    expect((b.failed as Error).message).toBe('closed');
  });
});
