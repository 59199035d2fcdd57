import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PublisherMsg, PublisherReply } from '../../src/actors/publisher/actor.js';
import { signBody, type WebSubState } from '../../src/actors/publisher/websub.js';
import { WebSubIntents } from '../../src/actors/publisher/websub-intents.js';
import { addPublishers, removePublisher } from '../../src/actors/store/publishers.js';
import { TrustedProxies } from '../../src/api/client-address.js';
import { KnownPublishers } from '../../src/api/known-publishers.js';
import { registerWebSubRoutes } from '../../src/api/routes/websub.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';
import { ShardNotOwnedError } from '../../src/runtime/shard-route.js';
import type { Sql } from '../../src/runtime/sql.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/**
 * Abuse of the WebSub callbacks costs the abuser, not the database or the publisher: the routes
 * on a real uWS server over a real PostgreSQL (every query counted), with the publisher actor
 * played by a function that checks signatures as the actor does. The clock is frozen, so no
 * bucket refills while a test runs.
 */

/** The real database, with its queries counted. */
function counted(sql: Sql): Sql & { queries: number } {
  const c: Sql & { queries: number } = {
    queries: 0,
    query: ((text: string, params?: readonly unknown[]) => (c.queries++, sql.query(text, params))) as Sql['query'],
    tx: ((fn) => (c.queries++, sql.tx(fn))) as Sql['tx'],
    ping: () => sql.ping(),
    close: () => sql.close(),
    mode: sql.mode,
    url: sql.url,
  };
  return c;
}

const SECRET = 'the-hubs-secret-0123456789';
const sub = (topic: string): WebSubState => ({
  hub: 'https://hub.example/', topic, secret: SECRET, status: 'active', requestedAt: 0, leaseExpiresAt: Date.now() + 3600_000, renewAt: 0, failures: 0, retryAt: 0, lastError: null,
});
const FEED = '<rss version="2.0"><channel><title>t</title><item><title>x</title><link>https://example.com/x</link></item></channel></rss>';

interface Setup {
  url: string;
  sql: Sql & { queries: number };
  known: KnownPublishers;
  intents: WebSubIntents;
  asked: PublisherMsg[];
  /** what the stand-in actor answers next (default: checks the signature against SECRET, as the actor does) */
  answer: ((id: string, msg: PublisherMsg) => PublisherReply | Promise<PublisherReply>) | null;
  logs: string[];
  close(): Promise<void>;
}

let db: TestDb;
const open: Setup[] = [];

beforeAll(async () => {
  db = await scratchPostgres();
  await addPublishers(db.sql, [
    { id: 'pub_owned', name: 'Owned', feed_url: 'https://owned.example/feed' },
    { id: 'pub_remote', name: 'Remote', feed_url: 'https://remote.example/feed' },
    { id: 'pub_gone', name: 'Gone', feed_url: 'https://gone.example/feed' },
  ]);
}, 60_000);
afterAll(async () => {
  await db?.cleanup();
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function setup(opts: { perClient?: { rps: number; burst: number }; perPublisher?: { rps: number; burst: number } } = {}): Promise<Setup> {
  const sql = counted(db.sql);
  const logs: string[] = [];
  const log = pino({ level: 'debug' }, new Writable({ write: (chunk: Buffer, _e, cb) => (logs.push(chunk.toString()), cb()) }));
  const intents = new WebSubIntents();
  // this node holds pub_owned's subscription; pub_remote's is held by another node's actor
  intents.note({ id: 'pub_owned', url: 'https://owned.example/feed', websub: sub('https://owned.example/feed') });
  const router = new Router();
  const asked: PublisherMsg[] = [];
  const s: Setup = {
    url: '', sql, known: null as unknown as KnownPublishers, intents, asked, answer: null, logs,
    close: async () => http.close(0),
  };
  const actor = (id: string, msg: PublisherMsg): PublisherReply | Promise<PublisherReply> => {
    asked.push(msg);
    if (s.answer) return s.answer(id, msg);
    if (msg.type !== 'websub-push') return { status: 404, body: '' } as PublisherReply;
    const ok = msg.signature === signBody(msg.body, SECRET);
    return (ok ? { status: 202, accepted: true, emitted: 1 } : { status: 202, accepted: false, emitted: 0, reason: 'bad-signature' }) as PublisherReply;
  };
  const t = 1_000_000;
  ({ known: s.known } = registerWebSubRoutes(router, {
    sql,
    ask: async (id, msg) => actor(id, msg),
    send: () => {},
    intents,
    perPublisher: opts.perPublisher ?? { rps: 1, burst: 3 },
    perClient: opts.perClient ?? { rps: 1, burst: 5 },
    trustProxy: new TrustedProxies(['127.0.0.1/32']),
    now: () => t,
  }));
  const http = new HttpServer({ host: '127.0.0.1', port: 0, router, log });
  s.url = `http://127.0.0.1:${await http.listen()}`;
  open.push(s);
  return s;
}

/** A callback from the client at `ip` (the test is the trusted proxy that forwards it). */
async function post(s: Setup, id: string, ip: string, signature: string | null, body = FEED): Promise<{ status: number; statusText: string; retryAfter: string | null }> {
  const headers: Record<string, string> = { 'content-type': 'application/rss+xml', 'x-forwarded-for': ip };
  if (signature !== null) headers['x-hub-signature'] = signature;
  const r = await fetch(`${s.url}/websub/${id}`, { method: 'POST', headers, body });
  await r.arrayBuffer();
  return { status: r.status, statusText: r.statusText, retryAfter: r.headers.get('retry-after') };
}

const HUB = '198.51.100.1';
const FORGER = '203.0.113.66';

describe('WebSub callbacks under abuse', () => {
  it('charges the client before any lookup: 200 callbacks for unknown ids cost at most its burst in queries', async () => {
    const s = await setup();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await post(s, `pub_nosuch${i}`, FORGER, null)).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses.slice(5)).toEqual(Array(195).fill(429));
    expect(s.sql.queries).toBeLessThanOrEqual(5);
    // the same unknown id again and again is looked up once
    const s2 = await setup({ perClient: { rps: 1, burst: 50 } });
    for (let i = 0; i < 20; i++) expect((await post(s2, 'pub_nosuch', FORGER, null)).status).toBe(404);
    expect(s2.sql.queries).toBe(1);
    expect(s.asked).toEqual([]);
  });

  it('a known publisher is looked up once, costs its hub nothing, and the cache follows publishers added and removed', async () => {
    const s = await setup({ perClient: { rps: 1, burst: 2 }, perPublisher: { rps: 1, burst: 100 } });
    // a hub pushing for a publisher this node does not hold the secret of: the owner's actor checks
    for (let i = 0; i < 10; i++) expect((await post(s, 'pub_remote', HUB, signBody(FEED, SECRET))).status).toBe(202);
    expect(s.sql.queries).toBe(1);
    expect(s.asked.filter((m) => m.type === 'websub-push')).toHaveLength(10);
    // the hub's client bucket (burst 2) was never charged for them
    expect((await post(s, 'pub_nosuch', HUB, null)).status).toBe(404);
    expect((await post(s, 'pub_nosuch2', HUB, null)).status).toBe(404);
    expect((await post(s, 'pub_nosuch3', HUB, null)).status).toBe(429);

    // removed: the next callback is refused without asking anyone, added: accepted at once
    await removePublisher(db.sql, 'pub_gone');
    s.known.changed({ removed: ['pub_gone'] });
    const before = s.sql.queries;
    expect((await post(s, 'pub_gone', '192.0.2.9', null)).status).toBe(404);
    expect((await post(s, 'pub_new', '192.0.2.8', null)).status).toBe(404);
    await addPublishers(db.sql, [{ id: 'pub_new', name: 'New', feed_url: 'https://new.example/feed' }]);
    expect((await post(s, 'pub_new', '192.0.2.9', null)).status).toBe(404); // added behind the node's back: remembered as unknown for a while
    s.known.changed({ added: ['pub_new'] });
    expect((await post(s, 'pub_new', '192.0.2.10', signBody(FEED, SECRET))).status).toBe(202);
    expect(s.sql.queries - before).toBe(1); // pub_new's first lookup only
  });

  it('checks the signature before charging the publisher: forged pushes cannot crowd out the hub', async () => {
    const s = await setup({ perPublisher: { rps: 1, burst: 3 } });
    const forged: number[] = [];
    for (let i = 0; i < 40; i++) forged.push((await post(s, 'pub_owned', FORGER, signBody(FEED, 'a-guess'))).status);
    // acknowledged and ignored while the forger's own bucket lasts (WebSub §8), then 429 for it alone
    expect(forged.slice(0, 5)).toEqual(Array(5).fill(202));
    expect(forged.slice(5)).toEqual(Array(35).fill(429));
    expect(s.asked).toEqual([]); // none reached the actor
    // the hub's genuine pushes still go through, up to the publisher's own burst
    const genuine: number[] = [];
    for (let i = 0; i < 4; i++) genuine.push((await post(s, 'pub_owned', HUB, signBody(FEED, SECRET))).status);
    expect(genuine).toEqual([202, 202, 202, 429]);
    expect(s.asked.filter((m) => m.type === 'websub-push')).toHaveLength(3);
    expect(s.sql.queries).toBe(0); // a publisher whose subscription is held here needs no lookup
  });

  it('where the owner checks the signature, a forged push is charged to the client after its answer, never to the publisher', async () => {
    const s = await setup({ perPublisher: { rps: 1, burst: 3 } });
    const forged: number[] = [];
    for (let i = 0; i < 8; i++) forged.push((await post(s, 'pub_remote', FORGER, signBody(FEED, 'a-guess'))).status);
    expect(forged).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
    expect(s.asked).toHaveLength(5); // once spent, the forger's pushes are not forwarded at all
    const genuine: number[] = [];
    for (let i = 0; i < 4; i++) genuine.push((await post(s, 'pub_remote', HUB, signBody(FEED, SECRET))).status);
    expect(genuine).toEqual([202, 202, 202, 429]);
  });

  it('answers 503 with Retry-After, and no stack in the log, while the publisher shard moves between nodes', async () => {
    const s = await setup();
    s.answer = () => {
      throw new ShardNotOwnedError('publisher/pub_remote', 'publisher', 7, 'node-b');
    };
    const r = await post(s, 'pub_remote', HUB, signBody(FEED, SECRET));
    expect(r.status).toBe(503);
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(s.logs.join('')).not.toMatch(/"stack"|\n\s+at /);
    expect(s.logs.join('')).toContain('SHARD_NOT_OWNED');
  });

  it('answers 503 with Retry-After, not 500, when the publisher actor replies nothing (met mid-move)', async () => {
    const s = await setup();
    s.answer = () => undefined as unknown as PublisherReply;
    const r = await post(s, 'pub_remote', HUB, signBody(FEED, SECRET));
    expect(r.status).toBe(503);
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(s.logs.join('')).not.toMatch(/"stack"|\n\s+at /);
  });

  it('sends a reason phrase with 410 Gone (a push for a publisher holding no subscription)', async () => {
    const s = await setup();
    s.answer = () => ({ status: 410, accepted: false, emitted: 0, reason: 'no-subscription' }) as PublisherReply;
    const r = await post(s, 'pub_remote', HUB, signBody(FEED, SECRET));
    expect(r.status).toBe(410);
    expect(r.statusText).toBe('Gone');
  });
});
