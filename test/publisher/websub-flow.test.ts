import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PublisherReply } from '../../src/actors/publisher/actor.js';
import { signBody } from '../../src/actors/publisher/websub.js';
import { FeedServer, renderRss } from './feed-server.js';
import { makeNode, until, type Node } from './harness.js';

/**
 * The WebSub flow end to end over real HTTP: a tiny hub and the callback routes (standing in for
 * `src/api/`, which hands requests to the actor exactly like this) on a local server.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;

interface Sub {
  topic: string;
  callback: string;
  secret: string;
  lease: number;
}

let server: FeedServer;
let n: Node;
let hub: { requests: URLSearchParams[]; verified: { status: number; body: string }[]; subs: Map<string, Sub>; fail: boolean; grantLease: number };

function readForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}

/** Hub: answer 202, then verify intent against the callback (as real hubs do, asynchronously). */
function hubRoute(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const form = readForm(body);
  hub.requests.push(form);
  if (hub.fail) {
    res.writeHead(500).end();
    return;
  }
  res.writeHead(202).end();
  const challenge = `ch-${hub.requests.length}`;
  const q = new URLSearchParams({ 'hub.mode': form.get('hub.mode')!, 'hub.topic': form.get('hub.topic')!, 'hub.challenge': challenge, 'hub.lease_seconds': String(hub.grantLease) });
  void fetch(`${form.get('hub.callback')}?${q}`).then(async (r) => {
    const text = await r.text();
    hub.verified.push({ status: r.status, body: text });
    if (r.status === 200 && text === challenge) {
      hub.subs.set(form.get('hub.topic')!, { topic: form.get('hub.topic')!, callback: form.get('hub.callback')!, secret: form.get('hub.secret')!, lease: hub.grantLease });
    }
  });
}

/** The callback routes: GET = verification of intent, POST = content distribution. */
function callbackRoute(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const url = new URL(req.url!, 'http://x');
  const id = url.pathname.split('/').pop()!;
  const reply = (r: PublisherReply) => {
    const out = r as { status: number; body?: string };
    res.writeHead(out.status, { 'content-type': 'text/plain' }).end(out.body ?? '');
  };
  if (req.method === 'GET') {
    const q = url.searchParams;
    void n.ask<PublisherReply>(id, {
      type: 'websub-verify',
      mode: q.get('hub.mode') ?? '',
      topic: q.get('hub.topic') ?? '',
      challenge: q.get('hub.challenge'),
      leaseSeconds: q.has('hub.lease_seconds') ? Number(q.get('hub.lease_seconds')) : null,
    }).then(reply);
    return;
  }
  const sig = req.headers['x-hub-signature'];
  void n.ask<PublisherReply>(id, { type: 'websub-push', body: new Uint8Array(body), signature: typeof sig === 'string' ? sig : null, contentType: req.headers['content-type'] ?? null }).then(reply);
}

/** The hub distributing content to a subscriber (optionally with a forged signature). */
async function distribute(topic: string, xml: string, signature?: string | null): Promise<number> {
  const sub = hub.subs.get(topic)!;
  const headers: Record<string, string> = { 'content-type': 'application/rss+xml' };
  const sig = signature === undefined ? signBody(xml, sub.secret, 'sha256') : signature;
  if (sig !== null) headers['x-hub-signature'] = sig;
  const r = await fetch(sub.callback, { method: 'POST', headers, body: xml });
  await r.arrayBuffer();
  return r.status;
}

beforeEach(async () => {
  server = await new FeedServer().start();
  hub = { requests: [], verified: [], subs: new Map(), fail: false, grantLease: 24 * 3600 };
  server.routes.set('/hub', hubRoute);
  server.routes.set('/websub/', callbackRoute);
  n = makeNode({
    extra: {
      websub: {
        callbackUrl: (id) => `http://127.0.0.1:${server.port}/websub/${id}`,
        post: async (req) => {
          const r = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body });
          return { status: r.status, body: await r.text() };
        },
      },
    },
  });
});
afterEach(async () => {
  await n.close();
  await server.close();
});

async function subscribed(id: string, feed: string): Promise<string> {
  server.add(feed, { hub: `http://127.0.0.1:${server.port}/hub`, self: `https://example.test/self/${feed}` });
  server.publish(feed, 2, n.clock.now());
  n.send(id, { type: 'configure', url: server.url(feed) });
  await n.run(16 * MIN);
  const topic = `https://example.test/self/${feed}`;
  await until(() => hub.subs.has(topic));
  await until(async () => (await n.status(id)).websub?.status === 'active');
  return topic;
}

describe('WebSub subscriber', () => {
  it('subscribes, verifies, and emits a signed push at once; a forged one changes nothing', async () => {
    const topic = await subscribed('w', 'w');
    expect(hub.requests[0]!.get('hub.callback')).toBe(`http://127.0.0.1:${server.port}/websub/w`);
    expect(hub.requests[0]!.get('hub.secret')).toMatch(/^[0-9a-f]{48}$/);
    expect(hub.verified).toEqual([{ status: 200, body: 'ch-1' }]);
    expect(n.emitted).toHaveLength(2);

    const f = server.feeds.get('w')!;
    const [fresh] = server.publish('w', 1, n.clock.now());
    const xml = renderRss('w', f);
    const pollsBefore = f.requests;
    const t = n.clock.now();
    expect(await distribute(topic, xml)).toBe(202);
    // emitted by the time the hub's POST is answered: no poll, no virtual time passed
    expect(n.emitted.map((a) => a.url)).toContain(fresh!.link);
    expect(n.emitted).toHaveLength(3);
    expect(n.clock.now()).toBe(t);
    expect(f.requests).toBe(pollsBefore);

    // the same content again (a hub retry) is not new
    expect(await distribute(topic, xml)).toBe(202);
    expect(n.emitted).toHaveLength(3);

    const [forged] = server.publish('w', 1, n.clock.now());
    const forgedXml = renderRss('w', f);
    for (const sig of [signBody(forgedXml, 'not-the-secret'), null, 'sha256=deadbeef', signBody(xml, hub.subs.get(topic)!.secret)]) {
      expect(await distribute(topic, forgedXml, sig)).toBe(202); // acknowledged, ignored (WebSub §8)
    }
    expect(n.emitted.map((a) => a.url)).not.toContain(forged!.link);
    expect((await n.status('w')).newEntries).toBe(3);
  });

  it('polls only as a safety net while pushed, and renews its lease before expiry', async () => {
    hub.grantLease = 4 * 3600;
    await subscribed('r', 'r');
    const first = await n.status('r');
    expect(first.intervalMs).toBeLessThan(3 * HOUR); // polled before the hub verified
    await n.run(first.nextPollAt - n.clock.now() + MIN);
    const st = await n.status('r');
    expect(st.polls).toBe(2);
    expect(st.intervalMs).toBeGreaterThanOrEqual(3 * HOUR);
    const lease1 = st.websub!.leaseExpiresAt;

    await n.run(lease1 - 4 * HOUR + 3.5 * HOUR - n.clock.now()); // past 85 % of 4 h: the renewal has fired
    await until(() => hub.verified.length >= 2);
    await until(async () => (await n.status('r')).websub!.leaseExpiresAt > lease1);
    expect(hub.requests).toHaveLength(2);
    expect(hub.requests[1]!.get('hub.secret')).toBe(hub.requests[0]!.get('hub.secret'));
    expect((await n.status('r')).websub!.status).toBe('active');
  });

  it('falls back to normal polling when the hub fails or the lease lapses', async () => {
    hub.grantLease = 2 * 3600;
    await subscribed('f', 'f');
    hub.fail = true; // renewals now fail
    await n.run(2 * HOUR + MIN);
    await until(async () => (await n.status('f')).websub!.status === 'failed');
    const st = await n.status('f');
    expect(st.websub!.lastError).toMatch(/^HUB_HTTP_ERROR/);
    await n.run(3 * HOUR); // at most one safety-net wait, then normal polling
    const after = await n.status('f');
    expect(after.intervalMs).toBeLessThanOrEqual(2 * HOUR);
    expect(after.lastError).toBeNull();
  });

  it('drops to polling when the hub misses entries that a poll finds', async () => {
    await subscribed('m', 'm');
    server.publish('m', 1, n.clock.now()); // never pushed
    await n.run(3.5 * HOUR);
    const st = await n.status('m');
    expect(st.websub!.status).toBe('failed');
    expect(st.websub!.lastError).toMatch(/^HUB_MISSED_ENTRIES/);
    expect(st.intervalMs).toBeLessThan(3 * HOUR);
    expect(n.emitted).toHaveLength(3);
  });

  it('answers 404 to a verification it did not ask for and 410 to a push without subscription', async () => {
    server.add('z');
    n.send('z', { type: 'configure', url: server.url('z') });
    const v = await n.ask<{ status: number; body: string }>('z', { type: 'websub-verify', mode: 'subscribe', topic: server.url('z'), challenge: 'c', leaseSeconds: 60 });
    expect(v).toEqual({ status: 404, body: '' });
    const p = await n.ask<{ status: number; accepted: boolean }>('z', { type: 'websub-push', body: '<rss/>', signature: 'sha1=00', contentType: null });
    expect(p).toMatchObject({ status: 410, accepted: false });
  });
});
