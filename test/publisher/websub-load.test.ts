import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublisherStatus } from '../../src/actors/publisher/state.js';
import { publisherIdFor } from '../../src/actors/publisher/opml.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { silentLogger } from '../../src/runtime/log.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { signBody } from '../../src/actors/publisher/websub.js';
import { FeedServer, renderRss } from './feed-server.js';

/**
 * WebSub verification while every publisher actor is busy (its poll waits on a full ingest log,
 * as at demo start): verifications of subscriptions the node asked for are answered at once, not
 * after the actor's poll; the actor records the lease afterwards. A verification the node has no
 * record of waits for the actor a bounded time, then answers 503 with Retry-After.
 */
const FEEDS = 30;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('WebSub verification under load', { timeout: 180_000 }, () => {
  let db: TestDb;
  let server: FeedServer;
  let node: Node;
  let dir: string;
  const subscriptions = new Map<string, URLSearchParams>(); // topic → the hub request
  const names = Array.from({ length: FEEDS }, (_, i) => `f${i}`);
  const emitted: string[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    server = await new FeedServer().start();
    // the hub takes subscription requests and verifies only when the test says
    server.routes.set('/hub', (_req: IncomingMessage, res: ServerResponse, body: Buffer) => {
      const form = new URLSearchParams(body.toString('utf8'));
      subscriptions.set(form.get('hub.topic')!, form);
      res.writeHead(202).end();
    });
    const hub = `http://127.0.0.1:${server.port}/hub`;
    for (const n of names) {
      server.add(n, { hub });
      server.publish(n, 2, Date.now());
    }
    server.add('plain'); // no hub
    server.publish('plain', 2, Date.now());
    await addPublishers(db.sql, [...names, 'plain'].map((n) => ({ id: publisherIdFor(server.url(n)), name: n, feed_url: server.url(n) })));
    dir = mkdtempSync(join(tmpdir(), 'newsagg-websub-load-'));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.1', '--rate-limit-burst', '5', '--rate-limit-rps', '0.01', '--websub-rate-limit-rps', '0.01'], {});
    const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
    const emit = async (articles: { url: string }[]) => {
      for (const a of articles) emitted.push(a.url);
    };
    node = await startNode(config, { log: silentLogger, components: [fetcher, publishersComponent({ emit, fetcher, publicUrl: 'self', firstPollSpreadMs: 500 })] });
  }, 120_000);

  afterAll(async () => {
    server?.releaseHanging();
    await node?.stop();
    await server?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const id = (n: string) => publisherIdFor(server.url(n));
  const verify = async (n: string, q: Record<string, string>) => {
    const r = await fetch(`${node.url}/websub/${encodeURIComponent(id(n))}?${new URLSearchParams(q)}`);
    return { status: r.status, body: await r.text(), retryAfter: r.headers.get('retry-after') };
  };

  it('answers every verification at once while the actors are stuck in a poll, then records the leases', async () => {
    // first polls (within the first-poll window): each feed advertises the hub, so each subscribes
    await until('a subscription request per feed', () => subscriptions.size === FEEDS);
    // now every actor gets stuck in a poll: the feeds hold their requests without answering (two
    // at a time: the origin's limit; the other polls wait for the origin inside the fetcher)
    for (const n of [...names, 'plain']) {
      server.feeds.get(n)!.mode = 'hang';
      node.system.send(`publisher/${id(n)}`, { type: 'poll' });
    }
    const busy = (n: string) => node.system.ask(`publisher/${id(n)}`, { type: 'status' }, 300).then(() => false, () => true);
    await until('every actor busy in its poll', async () => (await Promise.all([...names, 'plain'].map(busy))).every(Boolean));

    const answers = await Promise.all(
      names.map((n) => {
        const form = subscriptions.get(server.url(n))!;
        return verify(n, { 'hub.mode': 'subscribe', 'hub.topic': form.get('hub.topic')!, 'hub.challenge': `c-${n}`, 'hub.lease_seconds': '86400' });
      }),
    );
    expect(server.hangingCount).toBeGreaterThan(0);
    expect((await Promise.all([...names, 'plain'].map(busy))).every(Boolean)).toBe(true); // all answered while every actor was still busy
    expect(answers.map((a) => `${a.status} ${a.body}`)).toEqual(names.map((n) => `200 c-${n}`));
    // what was not asked for is refused at once as well
    expect(await verify('f0', { 'hub.mode': 'subscribe', 'hub.topic': 'http://elsewhere.example/feed', 'hub.challenge': 'x' })).toMatchObject({ status: 404 });

    // a verification with nothing on record waits for the busy actor, then: 503, retry later
    const plain = await verify('plain', { 'hub.mode': 'unsubscribe', 'hub.topic': server.url('plain'), 'hub.challenge': 'p' });
    expect(plain.status).toBe(503);
    expect(JSON.parse(plain.body)).toMatchObject({ error: { code: 'busy' } });
    expect(Number(plain.retryAfter)).toBeGreaterThan(0);

    for (const n of [...names, 'plain']) server.feeds.get(n)!.mode = 'ok';
    server.releaseHanging();
    await until('every lease recorded by its actor', async () => {
      const states = await Promise.all(names.map((n) => node.system.ask<PublisherStatus>(`publisher/${id(n)}`, { type: 'status' })));
      return states.every((s) => s.websub?.status === 'active' && s.websub.leaseExpiresAt > Date.now() + 80_000_000);
    });
    // and the stuck verification is answered by the actor once it is free (unsubscribe of nothing held: 200)
    expect(await verify('plain', { 'hub.mode': 'unsubscribe', 'hub.topic': server.url('plain'), 'hub.challenge': 'p2' })).toMatchObject({ status: 200, body: 'p2' });
  });

  it('limits callbacks per publisher, and callbacks for unknown publishers per client', async () => {
    const topic = subscriptions.get(server.url('f1'))!.get('hub.topic')!;
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await verify('f1', { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.challenge': `r${i}` })).status);
    // the default burst of 20, less the one the first test's verification took (no refill: 0.01/s here)
    expect(statuses.slice(0, 19)).toEqual(Array(19).fill(200));
    expect(statuses.slice(19)).toEqual(Array(5).fill(429));
    const limited = await verify('f1', { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.challenge': 'again' });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // another publisher has a bucket of its own
    const t2 = subscriptions.get(server.url('f2'))!.get('hub.topic')!;
    expect((await verify('f2', { 'hub.mode': 'subscribe', 'hub.topic': t2, 'hub.challenge': 'ok' })).status).toBe(200);

    // probing ids: 404 until this client's bucket (burst 5 here) is spent, then 429; the
    // verification for a topic never asked for (first test) was refused, and cost it one already
    const probes: number[] = [];
    for (let i = 0; i < 8; i++) probes.push((await fetch(`${node.url}/websub/pub_nosuch${i}?hub.mode=subscribe&hub.topic=x&hub.challenge=y`)).status);
    expect(probes).toEqual([404, 404, 404, 404, 429, 429, 429, 429]);
  });

  it("forged pushes cost their sender, not the publisher: the hub's genuine push still goes through", async () => {
    const form = subscriptions.get(server.url('f3'))!;
    const [fresh] = server.publish('f3', 1, Date.now());
    const xml = renderRss('f3', server.feeds.get('f3')!);
    const push = (signature: string) =>
      fetch(`${node.url}/websub/${encodeURIComponent(id('f3'))}`, { method: 'POST', headers: { 'content-type': 'application/rss+xml', 'x-hub-signature': signature }, body: xml }).then(async (r) => (await r.arrayBuffer(), r.status));
    // more forgeries than the publisher's burst (20): ignored (202), or 429 once this client's own bucket is spent
    for (let i = 0; i < 30; i++) expect([202, 429]).toContain(await push(signBody(xml, `guess-${i}`)));
    expect(emitted).not.toContain(fresh!.link);
    expect(await push(signBody(xml, form.get('hub.secret')!))).toBe(202);
    expect(emitted).toContain(fresh!.link);
  });
});
