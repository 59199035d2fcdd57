import { describe, expect, it } from 'vitest';
import { defineBehaviour, type Message } from '../../src/runtime/actor.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { AskTimeoutError, MailboxFullError } from '../../src/runtime/errors.js';
import { ActorSystem } from '../../src/runtime/system.js';

type CounterMsg = { type: 'add'; n: number; delay?: number } | { type: 'get' } | { type: 'boom'; times?: number };

function counterKind(log: string[] = [], store = new Map<string, number>()) {
  let active = 0;
  let maxActive = 0;
  const b = defineBehaviour<{ total: number; seen: number[] }, CounterMsg>({
    kind: 'counter',
    init: (key) => ({ total: store.get(key) ?? 0, seen: [] }),
    async receive(state, msg) {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        if (msg.type === 'add') {
          if (msg.delay) await new Promise((r) => setTimeout(r, msg.delay));
          state.total += msg.n;
          state.seen.push(msg.n);
          log.push(`add ${msg.n}`);
          return state.total;
        }
        if (msg.type === 'get') return { total: state.total, seen: state.seen };
        throw new Error('boom');
      } finally {
        active--;
      }
    },
    supervision: { maxAttempts: 3, backoffMinMs: 1, backoffMaxMs: 5 },
  });
  return { b, maxActive: () => maxActive };
}

describe('ActorSystem', () => {
  it('delivers in FIFO order, one message at a time per actor, even with async handlers', async () => {
    const sys = new ActorSystem();
    const { b, maxActive } = counterKind();
    sys.register(b);
    for (let i = 1; i <= 50; i++) sys.send('counter/a', { type: 'add', n: i, delay: i % 3 === 0 ? 2 : 0 });
    const got = await sys.ask<{ total: number; seen: number[] }>('counter/a', { type: 'get' });
    expect(got.seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(got.total).toBe(1275);
    expect(maxActive()).toBe(1);
    await sys.shutdown();
  });

  it('runs different actors concurrently but keeps each one sequential', async () => {
    const sys = new ActorSystem();
    const { b } = counterKind();
    sys.register(b);
    const asks = [];
    for (let i = 0; i < 20; i++) asks.push(sys.ask<number, CounterMsg>(`counter/k${i % 4}`, { type: 'add', n: 1, delay: 1 }));
    const results = await Promise.all(asks);
    expect(results.sort((x, y) => x - y)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]);
    expect(sys.count('counter')).toBe(4);
    await sys.shutdown();
  });

  it('rejects an ask with AskTimeoutError when no reply comes in time', async () => {
    const sys = new ActorSystem();
    sys.register(defineBehaviour<null, Message>({ kind: 'slow', init: () => null, receive: () => new Promise((r) => setTimeout(r, 200)) }));
    await expect(sys.ask('slow/1', { type: 'x' }, 20)).rejects.toBeInstanceOf(AskTimeoutError);
    await sys.shutdown();
  });

  it('restarts a throwing actor with backoff, reloads its state, and dead-letters a message that keeps failing', async () => {
    const store = new Map([['p', 100]]);
    const sys = new ActorSystem();
    let inits = 0;
    const { b } = counterKind([], store);
    sys.register({ ...b, init: (key, ctx) => { inits++; return b.init(key, ctx); } });
    expect(await sys.ask('counter/p', { type: 'add', n: 1 })).toBe(101);
    await expect(sys.ask('counter/p', { type: 'boom' })).rejects.toThrow('boom');
    expect(sys.deadLetters.total).toBe(1);
    expect(sys.deadLetters.recent()[0]).toMatchObject({ address: 'counter/p', type: 'boom', attempts: 3 });
    expect(await sys.ask('counter/p', { type: 'get' })).toMatchObject({ total: 100 });
    // three failed attempts, each followed by a restart that re-ran init (state reloaded from the store)
    expect(inits).toBe(4);
    const metrics = await sys.metrics.text();
    expect(metrics).toMatch(/newsagg_actor_failures_total\{kind="counter"\} 3/);
    expect(metrics).toMatch(/newsagg_actor_restarts_total\{kind="counter"\} 3/);
    expect(metrics).toMatch(/newsagg_actor_dead_letters_total\{kind="counter"\} 1/);
    await sys.shutdown();
  });

  it('retries a transient failure and succeeds without a dead letter', async () => {
    const sys = new ActorSystem();
    let calls = 0;
    sys.register(defineBehaviour<null, Message>({
      kind: 'flaky',
      init: () => null,
      receive: () => { if (++calls < 3) throw new Error('transient'); return 'ok'; },
      supervision: { maxAttempts: 5, backoffMinMs: 1, backoffMaxMs: 2 },
    }));
    expect(await sys.ask('flaky/1', { type: 'go' })).toBe('ok');
    expect(sys.deadLetters.total).toBe(0);
    await sys.shutdown();
  });

  it('never lets a throwing init crash the node', async () => {
    const sys = new ActorSystem({ supervision: { maxAttempts: 2, backoffMinMs: 1, backoffMaxMs: 2 } });
    sys.register(defineBehaviour<null, Message>({ kind: 'broken', init: () => { throw new Error('no state'); }, receive: () => 1 }));
    await expect(sys.ask('broken/1', { type: 'x' }, 2000)).rejects.toThrow('no state');
    expect(sys.deadLetters.total).toBe(1);
    await sys.shutdown();
  });

  it('sends to an unknown kind become dead letters, asks reject', async () => {
    const sys = new ActorSystem();
    sys.send('nobody/1', { type: 'x' });
    await expect(sys.ask('nobody/2', { type: 'x' })).rejects.toMatchObject({ code: 'ACTOR_UNAVAILABLE' });
    expect(sys.deadLetters.total).toBe(2);
    await sys.shutdown();
  });
});

describe('bounded mailboxes', () => {
  function gated(policy: 'backpressure' | 'drop-newest' | 'drop-oldest' | 'coalesce') {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const got: string[] = [];
    const b = defineBehaviour<null, { type: string; v: string }>({
      kind: 'q',
      init: () => null,
      async receive(_s, msg) {
        if (msg.v === 'first') await gate;
        got.push(msg.v);
      },
      mailbox: { capacity: 2, overflow: policy, coalesceKey: (m) => m.type },
    });
    return { b, got, release };
  }

  it('backpressure refuses the sender; offer waits for room', async () => {
    const sys = new ActorSystem();
    const { b, got, release } = gated('backpressure');
    sys.register(b);
    sys.send('q/1', { type: 'a', v: 'first' });
    await new Promise((r) => setTimeout(r, 5)); // 'first' is now being handled
    sys.send('q/1', { type: 'a', v: '2' });
    sys.send('q/1', { type: 'a', v: '3' });
    expect(() => sys.send('q/1', { type: 'a', v: '4' })).toThrow(MailboxFullError);
    const waiting = sys.offer('q/1', { type: 'a', v: '5' });
    release();
    await waiting;
    await sys.idle();
    expect(got).toEqual(['first', '2', '3', '5']);
    await sys.shutdown();
  });

  it.each([
    ['drop-newest', ['first', '2', '3']],
    ['drop-oldest', ['first', '3', '4']],
  ] as const)('%s keeps the mailbox bounded and counts drops', async (policy, expected) => {
    const sys = new ActorSystem();
    const { b, got, release } = gated(policy);
    sys.register(b);
    sys.send('q/1', { type: 'a', v: 'first' });
    await new Promise((r) => setTimeout(r, 5));
    for (const v of ['2', '3', '4']) sys.send('q/1', { type: 'a', v });
    release();
    await sys.idle();
    expect(got).toEqual(expected);
    expect(await sys.metrics.text()).toMatch(/newsagg_actor_dropped_total\{kind="q"\} 1/);
    await sys.shutdown();
  });

  it('coalesce replaces a queued message with the same key', async () => {
    const sys = new ActorSystem();
    const { b, got, release } = gated('coalesce');
    sys.register(b);
    sys.send('q/1', { type: 'first', v: 'first' });
    await new Promise((r) => setTimeout(r, 5));
    sys.send('q/1', { type: 'x', v: 'x1' });
    sys.send('q/1', { type: 'y', v: 'y1' });
    sys.send('q/1', { type: 'x', v: 'x2' });
    release();
    await sys.idle();
    expect(got).toEqual(['first', 'x2', 'y1']);
    await sys.shutdown();
  });
});

describe('timers', () => {
  it('delivers timers as messages to self, replaces by id, cancels on stop', async () => {
    const clock = new ManualClock(1_000);
    const sys = new ActorSystem({ clock });
    const ticks: number[] = [];
    sys.register(defineBehaviour<null, { type: 'start' } | { type: 'tick' } | { type: 'halt' }>({
      kind: 'ticker',
      init: () => null,
      receive(_s, msg, ctx) {
        if (msg.type === 'start') {
          ctx.schedule(100, { type: 'tick' }, 'poll');
          ctx.schedule(50, { type: 'tick' }, 'poll'); // replaces the first
        } else if (msg.type === 'tick') {
          ticks.push(ctx.now());
          ctx.schedule(50, { type: 'tick' }, 'poll');
        } else ctx.stop();
      },
    }));
    sys.send('ticker/1', { type: 'start' });
    await sys.idle();
    for (let i = 0; i < 4; i++) {
      clock.advance(50);
      await sys.idle();
    }
    expect(ticks).toEqual([1050, 1100, 1150, 1200]);
    sys.send('ticker/1', { type: 'halt' });
    await sys.idle();
    expect(sys.timers.size).toBe(0);
    clock.advance(1000);
    await sys.idle();
    expect(ticks.length).toBe(4);
    await sys.shutdown();
  });

  it('holds 50,000 pending timers in one heap', () => {
    const sys = new ActorSystem({ clock: new ManualClock() });
    for (let i = 0; i < 50_000; i++) sys.timers.schedule(`p/${i}#t:poll`, (i * 7919) % 100_000, () => {});
    expect(sys.timers.size).toBe(50_000);
    sys.timers.clear();
  });
});
