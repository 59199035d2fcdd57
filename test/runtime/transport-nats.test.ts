import { decode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { connectNats, subjectToken, type NatsLink } from '../../src/runtime/nats-connect.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { NodeGoneError, RemoteRoute, serveSystem } from '../../src/runtime/transport.js';
import { NatsTransport } from '../../src/runtime/transport-nats.js';
import { OwnNatsServer, SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

const echo = defineBehaviour<{ n: number }, { type: 'hit' } | { type: 'bad' } | { type: 'slow'; ms: number }>({
  kind: 'echo',
  init: () => ({ n: 0 }),
  async receive(state, msg, ctx) {
    if (msg.type === 'bad') throw Object.assign(new Error('nope'), { code: 'ECHO_BAD' });
    if (msg.type === 'slow') await new Promise((r) => setTimeout(r, msg.ms));
    state.n++;
    return { key: ctx.key, n: state.n };
  },
  supervision: { maxAttempts: 1 },
});

let a: NatsLink;
let b: NatsLink;
const prefix = uniquePrefix('tr');

beforeAll(async () => {
  a = await connectNats({ url: SHARED_NATS_URL, name: 'a' });
  b = await connectNats({ url: SHARED_NATS_URL, name: 'b' });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** two nodes on their own connections; `node.b.example:8080` has dots and a colon in its id */
async function pair() {
  const ta = new NatsTransport(a.nc, 'node-a', { prefix });
  const tb = new NatsTransport(b.nc, 'node.b.example:8080', { prefix });
  const host = new ActorSystem();
  host.register(echo);
  serveSystem(host, tb);
  const sys = new ActorSystem({ askTimeoutMs: 2000 });
  sys.route('echo', new RemoteRoute(ta, () => tb.nodeId, null, 2000));
  await b.nc.flush(); // the inbox subscription is registered at the server before anyone asks
  return { ta, tb, sys, host, close: async () => Promise.all([ta.close(), tb.close(), sys.shutdown(), host.shutdown()]) };
}

describe('NatsTransport', () => {
  it('reaches an actor on another node by address, with replies and coded errors', async () => {
    const p = await pair();
    expect(await p.sys.ask('echo/x1', { type: 'hit' })).toEqual({ key: 'x1', n: 1 });
    expect(await p.sys.ask('echo/x1', { type: 'hit' })).toEqual({ key: 'x1', n: 2 });
    await expect(p.sys.ask('echo/x2', { type: 'bad' })).rejects.toMatchObject({ code: 'ECHO_BAD' });
    // fire-and-forget arrives too
    p.sys.send('echo/x3', { type: 'hit' });
    await until(async () => ((await p.sys.ask('echo/x3', { type: 'hit' })) as { n: number }).n === 2, 'the sent message to arrive');
    await p.close();
  });

  it('maps an unknown node to ACTOR_UNAVAILABLE at once and a slow answer to ASK_TIMEOUT', async () => {
    const p = await pair();
    await expect(p.ta.request('nobody', { to: 'echo/1', msg: { type: 'hit' } }, 10_000)).rejects.toMatchObject({ code: 'ACTOR_UNAVAILABLE' });
    await expect(p.ta.request(p.tb.nodeId, { to: 'echo/s', msg: { type: 'slow', ms: 1500 } as never }, 200)).rejects.toMatchObject({ code: 'ASK_TIMEOUT' });
    await p.close();
  });

  it('refuses messages that would not survive the wire, and payloads over the server limit', async () => {
    const p = await pair();
    expect(() => p.ta.send(p.tb.nodeId, { to: 'echo/1', msg: { type: 'hit', f: () => 1 } as never })).toThrow();
    const big = 'x'.repeat(2 * 1024 * 1024);
    expect(() => p.ta.send(p.tb.nodeId, { to: 'echo/1', msg: { type: 'hit', big } as never })).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }));
    await expect(p.ta.request(p.tb.nodeId, { to: 'echo/1', msg: { type: 'hit', big } as never }, 1000)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await p.close();
  });

  it('answers a malformed envelope with a coded error and keeps serving', async () => {
    const p = await pair();
    const reply = await a.nc.request(p.tb.inboxSubject(p.tb.nodeId), new Uint8Array([0xc1, 0x00]), { timeout: 2000 });
    expect(decode(reply.data)).toMatchObject({ ok: false, error: { code: expect.any(String) } });
    const reply2 = await a.nc.request(p.tb.inboxSubject(p.tb.nodeId), new Uint8Array([0x01]), { timeout: 2000 });
    expect(decode(reply2.data)).toMatchObject({ ok: false, error: { code: 'BAD_ENVELOPE' } });
    expect(await p.sys.ask('echo/ok', { type: 'hit' })).toEqual({ key: 'ok', n: 1 });
    await p.close();
  });

  it('fans published events out to every subscriber, this node included, until unsubscribed', async () => {
    const p = await pair();
    const got: string[] = [];
    const offA = p.ta.subscribe('feed.invalidate', (d) => got.push(`a:${(d as { key: string }).key}`));
    p.tb.subscribe('feed.invalidate', (d) => got.push(`b:${(d as { key: string }).key}`));
    p.tb.subscribe('other', () => got.push('wrong topic'));
    await Promise.all([a.nc.flush(), b.nc.flush()]);
    p.ta.publish('feed.invalidate', { key: 'feed:us:top' });
    await until(() => got.length === 2, 'both subscribers');
    expect(got.sort()).toEqual(['a:feed:us:top', 'b:feed:us:top']);
    offA();
    await a.nc.flush();
    p.tb.publish('feed.invalidate', { key: 'k2' });
    await until(() => got.includes('b:k2'), 'b to get the second event');
    expect(got.filter((g) => g.startsWith('a:'))).toHaveLength(1);
    expect(() => p.ta.publish('bad topic*', {})).toThrow(/bad event topic/);
    await p.close();
  });

  it.each([
    ['node-1', 'node-1'],
    ['news-1.example.org:8080', 'news-1%2eexample%2eorg:8080'],
    ['a b*c>d', 'a%20b%2ac%3ed'],
    ['50%', '50%25'],
  ])('escapes node id %j into one subject token', (id, token) => {
    expect(subjectToken(id)).toBe(token);
  });
});

describe('NatsTransport across a NATS server restart', () => {
  it('serves requests and delivers events again once the clients have reconnected', async () => {
    const server = await OwnNatsServer.start();
    const la = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    const lb = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    try {
      const ta = new NatsTransport(la.nc, 'a', { prefix });
      const tb = new NatsTransport(lb.nc, 'b', { prefix });
      const host = new ActorSystem();
      host.register(echo);
      serveSystem(host, tb);
      const events: unknown[] = [];
      tb.subscribe('members', (d) => events.push(d));
      await lb.nc.flush();
      expect(await ta.request('b', { to: 'echo/r', msg: { type: 'hit' } }, 2000)).toEqual({ key: 'r', n: 1 });

      await server.kill();
      await until(() => !la.connected && !lb.connected, 'both clients to notice', 20_000);
      await expect(la.ping()).rejects.toMatchObject({ code: 'NATS_UNAVAILABLE' });
      await server.up();
      await until(() => la.connected && lb.connected, 'both clients to reconnect', 30_000);

      // the inbox and the event subscription were renewed by the client
      await until(async () => {
        try {
          return ((await ta.request('b', { to: 'echo/r', msg: { type: 'hit' } }, 1000)) as { n: number }).n >= 2;
        } catch {
          return false;
        }
      }, 'a request to be served after the restart', 20_000, 200);
      await until(() => {
        ta.publish('members', { hello: 1 });
        return events.length > 0;
      }, 'an event after the restart', 20_000, 200);
      await la.ping();
      await Promise.all([ta.close(), tb.close(), host.shutdown()]);
    } finally {
      await la.close().catch(() => undefined);
      await lb.close().catch(() => undefined);
      await server.stop();
    }
  }, 90_000);

  it('fails a request waiting when the link drops at once (its reply is lost), and one made before it is back', async () => {
    const server = await OwnNatsServer.start();
    const la = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    const lb = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    try {
      const ta = new NatsTransport(la.nc, 'a', { prefix, onStatus: (fn) => la.onStatus(fn) });
      const tb = new NatsTransport(lb.nc, 'b', { prefix });
      let received = 0;
      tb.serve(() => {
        received++;
        return new Promise(() => undefined); // the owner got it and will never answer
      });
      await lb.nc.flush();
      // an hour's timeout: only the link drop can end this request in the test's time
      const waiting = ta.request('b', { to: 'echo/w', msg: { type: 'hit' } }, 3_600_000).then(() => null, (e: unknown) => e);
      await until(() => received === 1, 'the request to reach b');
      await server.kill();
      const err = await waiting;
      expect(err).toBeInstanceOf(NodeGoneError);
      expect(err).toMatchObject({ code: 'ACTOR_UNAVAILABLE', node: 'b' });
      await until(() => !la.connected, 'a to notice');
      await expect(ta.request('b', { to: 'echo/w', msg: { type: 'hit' } }, 3_600_000)).rejects.toBeInstanceOf(NodeGoneError);
      await Promise.all([ta.close(), tb.close()]);
    } finally {
      await la.close().catch(() => undefined);
      await lb.close().catch(() => undefined);
      await server.stop();
    }
  }, 90_000);
});
