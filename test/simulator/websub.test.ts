import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type PublisherInfo, type Simulator } from '../../src/simulator/index.js';
import { get, T0 } from './helpers.js';

interface Received {
  body: Buffer;
  signature: string | undefined;
  contentType: string | undefined;
  link: string | undefined;
}

/** A real subscriber: echoes challenges (unless told not to) and records content POSTs. */
class Callback {
  server: Server;
  url = '';
  echo = true;
  verifications: URLSearchParams[] = [];
  received: Received[] = [];
  private waiters: (() => void)[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://cb');
      if (req.method === 'GET') {
        this.verifications.push(u.searchParams);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(this.echo ? u.searchParams.get('hub.challenge') ?? '' : 'nope');
        return;
      }
      void this.read(req).then((body) => {
        this.received.push({
          body, signature: req.headers['x-hub-signature'] as string | undefined,
          contentType: req.headers['content-type'], link: req.headers.link as string | undefined,
        });
        res.writeHead(204).end();
        for (const w of this.waiters.splice(0)) w();
      });
    });
  }

  private async read(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cb`;
  }

  async nextPost(count: number): Promise<void> {
    while (this.received.length < count) await new Promise<void>((r) => this.waiters.push(r));
  }
}

async function subscribe(hub: string, form: Record<string, string>): Promise<number> {
  const res = await request(hub, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(),
  });
  await res.body.text();
  return res.statusCode;
}

describe('WebSub hub', () => {
  let sim: Simulator;
  let cb: Callback;
  let pub: PublisherInfo;
  const secret = 'test-secret-123';
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 20, seed: 'websub', now: () => T0 });
    cb = new Callback();
    await cb.start();
    pub = sim.publishers.find((p) => p.format === 'rss' && p.behaviour === 'ok' && p.kind === 'outlet') as PublisherInfo;
  });
  afterAll(async () => {
    await sim.close();
    cb.server.close();
  });
  const hmac = (body: Buffer): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('feeds advertise the hub and themselves', async () => {
    const text = (await get(pub.feed_url)).text;
    expect(text).toContain(`<atom:link rel="hub" href="${sim.url}/hub"/>`);
    expect(text).toContain(`<atom:link rel="self" type="application/rss+xml" href="${pub.feed_url}"/>`);
    const atom = sim.publishers.find((p) => p.format === 'atom') as PublisherInfo;
    expect((await get(atom.feed_url)).text).toContain(`<link rel="hub" href="${sim.url}/hub"/>`);
    expect(pub.hub_url).toBe(`${sim.url}/hub`);
  });

  it('verifies intent with an echoed challenge, then pushes signed full feeds on new content', async () => {
    expect(await subscribe(`${sim.url}/hub`, {
      'hub.mode': 'subscribe', 'hub.callback': cb.url, 'hub.topic': pub.feed_url, 'hub.secret': secret, 'hub.lease_seconds': '3600',
    })).toBe(202);
    await sim.hub?.idle();
    const v = cb.verifications.at(-1) as URLSearchParams;
    expect(v.get('hub.mode')).toBe('subscribe');
    expect(v.get('hub.topic')).toBe(pub.feed_url);
    expect(v.get('hub.lease_seconds')).toBe('3600');
    expect(v.get('hub.challenge')?.length).toBeGreaterThan(8);
    expect(sim.hub?.subscriptions(pub.feed_url)).toHaveLength(1);

    const [item] = sim.publish(1, pub.id);
    await cb.nextPost(1);
    const got = cb.received[0] as Received;
    expect(got.body.toString('utf8')).toBe(sim.feedBody(pub.id));
    expect(got.body.toString('utf8')).toContain(item?.id);
    expect(got.signature).toBe(hmac(got.body));
    expect(got.contentType).toContain('application/rss+xml');
    expect(got.link).toContain(`<${pub.feed_url}>; rel="self"`);
  });

  it('the forge hook sends a signature that does not verify', async () => {
    sim.hub?.forgeNextSignatures(1);
    sim.publish(1, pub.id);
    await cb.nextPost(2);
    const forged = cb.received[1] as Received;
    expect(forged.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(forged.signature).not.toBe(hmac(forged.body));
    sim.publish(1, pub.id);
    await cb.nextPost(3);
    const honest = cb.received[2] as Received;
    expect(honest.signature).toBe(hmac(honest.body));
  });

  it('a callback that does not echo the challenge is not subscribed', async () => {
    const other = sim.publishers.find((p) => p.format === 'atom' && p.behaviour === 'ok') as PublisherInfo;
    cb.echo = false;
    const denied = new Promise((r) => sim.hub?.once('denied', r));
    expect(await subscribe(`${sim.url}/hub`, { 'hub.mode': 'subscribe', 'hub.callback': cb.url, 'hub.topic': other.feed_url })).toBe(202);
    await denied;
    cb.echo = true;
    expect(sim.hub?.subscriptions(other.feed_url)).toHaveLength(0);
  });

  it('leases expire on the simulated clock; unsubscribe is verified too', async () => {
    const other = sim.publishers.find((p) => p.format === 'jsonfeed' && p.behaviour === 'ok') as PublisherInfo;
    await subscribe(`${sim.url}/hub`, { 'hub.mode': 'subscribe', 'hub.callback': cb.url, 'hub.topic': other.feed_url, 'hub.lease_seconds': '60' });
    await sim.hub?.idle();
    expect(sim.hub?.subscriptions(other.feed_url)).toHaveLength(1);
    sim.tick(61_000);
    expect(sim.hub?.subscriptions(other.feed_url)).toHaveLength(0);
    await subscribe(`${sim.url}/hub`, { 'hub.mode': 'unsubscribe', 'hub.callback': cb.url, 'hub.topic': pub.feed_url });
    await sim.hub?.idle();
    expect(cb.verifications.at(-1)?.get('hub.mode')).toBe('unsubscribe');
    expect(sim.hub?.subscriptions(pub.feed_url)).toHaveLength(0);
  });

  it.each([
    [{ 'hub.mode': 'subscribe', 'hub.callback': 'http://127.0.0.1:1/cb', 'hub.topic': 'http://elsewhere.invalid/feed' }, 404],
    [{ 'hub.mode': 'subscribe', 'hub.callback': 'ftp://x/cb', 'hub.topic': 'x' }, 400],
    [{ 'hub.mode': 'publish', 'hub.callback': 'http://127.0.0.1:1/cb', 'hub.topic': 'x' }, 400],
    [{ 'hub.mode': 'subscribe', 'hub.topic': 'x' }, 400],
  ])('rejects bad requests %o with %i', async (form, status) => {
    expect(await subscribe(`${sim.url}/hub`, form as Record<string, string>)).toBe(status);
  });
});
