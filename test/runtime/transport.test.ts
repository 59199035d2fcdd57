import { describe, expect, it } from 'vitest';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { RemoteRoute, serveSystem } from '../../src/runtime/transport.js';
import { InProcessBus } from '../../src/runtime/transport-local.js';

const echo = defineBehaviour<{ node: string; n: number }, { type: 'hit' } | { type: 'bad' }>({
  kind: 'echo',
  init: () => ({ node: '', n: 0 }),
  receive(state, msg, ctx) {
    if (msg.type === 'bad') throw Object.assign(new Error('nope'), { code: 'ECHO_BAD' });
    state.n++;
    return { key: ctx.key, n: state.n };
  },
  supervision: { maxAttempts: 1 },
});

describe('transport', () => {
  it('reaches actors owned by another node by address, with replies and coded errors', async () => {
    const bus = new InProcessBus();
    const nodes = ['a', 'b'].map((id) => {
      const sys = new ActorSystem();
      const t = bus.connect(id);
      serveSystem(sys, t);
      return { id, sys, t };
    });
    // placement: keys starting with 'x' live on b, everything else on a
    const ownerOf = (to: string) => (to.startsWith('echo/x') ? 'b' : 'a');
    for (const n of nodes) {
      // the node hosts the kind for its own keys and routes the rest
      const host = new ActorSystem();
      host.register(echo);
      n.sys.route('echo', new RemoteRoute(n.t, ownerOf, { deliver: (to, msg, reply) => host.deliver(to, msg, reply) }));
    }
    const [a, b] = nodes;
    expect(await a!.sys.ask('echo/x1', { type: 'hit' })).toEqual({ key: 'x1', n: 1 });
    expect(await b!.sys.ask('echo/x1', { type: 'hit' })).toEqual({ key: 'x1', n: 2 });
    expect(await b!.sys.ask('echo/y1', { type: 'hit' })).toEqual({ key: 'y1', n: 1 });
    await expect(a!.sys.ask('echo/x2', { type: 'bad' })).rejects.toMatchObject({ code: 'ECHO_BAD' });
  });

  it('refuses messages that would not survive the wire', async () => {
    const bus = new InProcessBus();
    const sys = new ActorSystem();
    sys.register(echo);
    serveSystem(sys, bus.connect('b'));
    const t = bus.connect('a');
    expect(() => t.send('b', { to: 'echo/1', msg: { type: 'hit', f: () => 1 } as never })).toThrow();
  });

  it('fans out published events to every subscriber', async () => {
    const bus = new InProcessBus();
    const [a, b, c] = ['a', 'b', 'c'].map((id) => bus.connect(id));
    const got: unknown[] = [];
    b!.subscribe('invalidate', (d) => got.push(['b', d]));
    c!.subscribe('invalidate', (d) => got.push(['c', d]));
    a!.publish('invalidate', { key: 'feed:us:top' });
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(2);
  });
});
