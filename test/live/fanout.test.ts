import { describe, expect, it } from 'vitest';
import { Fanout, newConnState, SLOW_CLOSE, type ConnState, type Sock } from '../../src/api/live/fanout.js';

/** A socket whose unsent bytes the test sets: what the fan-out decides from them is the behaviour under test. */
class TestSock implements Sock {
  readonly state: ConnState = newConnState();
  sent: string[] = [];
  buffered = 0;
  hardLimit = Infinity;
  ended: number | null = null;
  hardClosed = false;
  send(frame: string): number {
    if (this.buffered > this.hardLimit) return 2;
    this.sent.push(frame);
    return 1;
  }
  getBufferedAmount(): number {
    return this.buffered;
  }
  end(code: number): void {
    this.ended = code;
  }
  close(): void {
    this.hardClosed = true;
  }
}

function setup(opts: { maxPending?: number; stallMs?: number; closeWaitMs?: number } = {}) {
  let now = 0;
  const events: string[] = [];
  const f = new Fanout<TestSock>((s) => s.state, { maxBufferBytes: 1000, now: () => now, onEvent: (e) => events.push(e), ...opts });
  return { f, events, tick: (ms: number) => (now += ms) };
}

describe('Fanout', () => {
  it('sends a frame once to each connection subscribed to any of its topics', () => {
    const { f } = setup();
    const a = new TestSock();
    const b = new TestSock();
    const c = new TestSock();
    f.subscribe(a, ['t1', 't2']);
    f.subscribe(b, ['t2']);
    f.subscribe(c, ['t3']);
    expect(f.deliver(['t1', 't2'], 'k', 'F')).toBe(2);
    expect([a.sent, b.sent, c.sent]).toEqual([['F'], ['F'], []]);
  });

  it('coalesces updates for a connection that is behind, keeping the latest per key in order, and sends them when it drains', () => {
    const { f, events } = setup();
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    f.deliver(['t'], 'a', 'a1');
    f.deliver(['t'], 'b', 'b1');
    f.deliver(['t'], 'a', 'a2');
    expect(s.sent).toEqual([]);
    expect(f.behindCount).toBe(1);
    s.buffered = 0;
    f.drain(s);
    expect(s.sent).toEqual(['b1', 'a2']);
    expect(f.behindCount).toBe(0);
    expect(events.filter((e) => e === 'coalesced')).toHaveLength(3);
    f.deliver(['t'], 'c', 'c1');
    expect(s.sent.at(-1)).toBe('c1');
  });

  it('drains only while the buffer stays under the limit', () => {
    const { f } = setup();
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    for (const k of ['a', 'b', 'c']) f.deliver(['t'], k, k);
    const real = s.send.bind(s);
    s.send = (frame) => ((s.buffered = 2000), real(frame));
    s.buffered = 0;
    f.drain(s);
    expect(s.sent).toEqual(['a']);
    expect(s.state.pending?.size).toBe(2);
  });

  it('closes a connection with too many distinct updates waiting, its close frame once what it was sent has drained', () => {
    const { f, events } = setup({ maxPending: 3 });
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    for (const k of ['a', 'b', 'c']) f.deliver(['t'], k, k);
    expect(s.ended).toBeNull();
    f.deliver(['t'], 'd', 'd');
    // given up at once: nothing more for it, nothing kept for it
    expect(events).toContain('closed_slow');
    expect(f.subscribers('t')).toBe(0);
    expect(s.state.pending).toBeNull();
    expect(f.deliver(['t'], 'e', 'e')).toBe(0);
    // but a close frame now would wait behind 5,000 unread bytes: it goes when they are read
    expect(s.ended).toBeNull();
    expect(f.closingCount).toBe(1);
    s.buffered = 100;
    f.drain(s);
    expect(s.ended).toBeNull();
    s.buffered = 0;
    f.drain(s);
    expect(s.ended).toBe(SLOW_CLOSE);
    expect(s.sent).toEqual([]);
    expect(f.closingCount).toBe(0);
  });

  it('sends the close frame at once to a slow connection whose buffer is already empty', () => {
    const { f } = setup({ maxPending: 1 });
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    f.deliver(['t'], 'a', 'a');
    s.buffered = 0; // read meanwhile, but no drain event yet
    f.deliver(['t'], 'b', 'b');
    expect(s.ended).toBe(SLOW_CLOSE);
  });

  it('closes hard a connection given up whose buffer never drains', () => {
    const { f, tick } = setup({ maxPending: 1, closeWaitMs: 10_000 });
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    f.deliver(['t'], 'a', 'a');
    f.deliver(['t'], 'b', 'b');
    tick(9_999);
    f.sweep();
    expect(s.hardClosed).toBe(false);
    tick(1);
    f.sweep();
    expect(s.hardClosed).toBe(true);
    expect(s.ended).toBeNull();
    expect(f.closingCount).toBe(0);
  });

  it('forgets a connection given up that the socket layer closed meanwhile', () => {
    const { f, tick } = setup({ maxPending: 1 });
    const s = new TestSock();
    f.subscribe(s, ['t']);
    s.buffered = 5000;
    f.deliver(['t'], 'a', 'a');
    f.deliver(['t'], 'b', 'b');
    f.remove(s); // the hub's close handler
    tick(60_000);
    f.sweep();
    expect(s.hardClosed).toBe(false);
    expect(f.closingCount).toBe(0);
  });

  it('closes a connection that stays behind for stallMs', () => {
    const { f, tick } = setup({ stallMs: 30_000 });
    const s = new TestSock();
    const ok = new TestSock();
    f.subscribe(s, ['t']);
    f.subscribe(ok, ['t']);
    s.buffered = 5000;
    f.deliver(['t'], 'a', 'a');
    tick(29_000);
    expect(f.sweep()).toBe(0);
    tick(1_000);
    expect(f.sweep()).toBe(1);
    s.buffered = 0;
    f.drain(s);
    expect(s.ended).toBe(SLOW_CLOSE);
    expect(ok.ended).toBeNull();
  });

  it('closes a connection whose send is dropped at the hard limit', () => {
    const { f } = setup();
    const s = new TestSock();
    s.hardLimit = 10;
    s.buffered = 500; // under the fan-out's limit, over the socket's
    f.subscribe(s, ['t']);
    expect(f.deliver(['t'], 'a', 'a')).toBe(0);
    expect(f.closingCount).toBe(1);
    s.buffered = 0;
    f.drain(s);
    expect(s.ended).toBe(SLOW_CLOSE);
  });
});
