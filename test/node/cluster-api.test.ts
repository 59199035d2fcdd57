import { decode } from '@msgpack/msgpack';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEventsFor, type BreakingItem } from '../../src/actors/store/live-events.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { breakingComponent } from '../../src/roles/breaking.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent, type IngestComponent } from '../../src/roles/ingest.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';
import { RawWs } from '../helpers/raw-ws.js';

interface Page {
  items: { article_id: string; story_id: string; title: string }[];
}

/**
 * Two nodes of one deployment in this process, on the shared PostgreSQL, Redis and NATS (a
 * database, key prefix and subject prefix of their own): B writes stories (ingest, pipeline,
 * breaking detector, API), A only serves the API, with hot pages kept for ten minutes, so only
 * an invalidation event can make A's page change. Events between them travel on NATS.
 */
describe('API nodes on one NATS stay coherent', { timeout: 240_000 }, () => {
  let db: TestDb;
  let dir: string;
  let a: Node;
  let b: Node;
  let ingest: IngestComponent;
  let spy: NatsConnection;
  const prefix = uniquePrefix('capi');
  /** what crossed the bus, by subject (msgpack decoded) */
  const seen: { subject: string; data: unknown }[] = [];
  const clients: RawWs[] = [];
  let n = 0;

  const article = (title: string) => ({
    url: `https://wire.example/${prefix}/${++n}`,
    title,
    summary: `${title}. A report with enough words to be fingerprinted and classified on its own.`,
    publisher: 'pub-a',
    published_at: new Date().toISOString(),
    publisher_country: 'US',
    feed_category: 'technology',
  });
  const feed = async (node: Node): Promise<{ page: Page; etag: string | null }> => {
    const r = await fetch(`${node.url}/v1/feed`);
    expect(r.status).toBe(200);
    return { page: (await r.json()) as Page, etag: r.headers.get('etag') };
  };
  // with NATS an append resolves once the JetStream log holds it: the store comes after
  const storyOf = async (url: string): Promise<string> => {
    let story: string | null = null;
    await until(async () => {
      const { rows } = await db.sql.query<{ story_id: string | null }>('SELECT story_id FROM articles WHERE url = $1', [url]);
      story = rows[0]?.story_id ?? null;
      return story !== null;
    }, `the article ${url} stored`, 60_000);
    return story!;
  };
  const subscribe = async (node: Node, topics: string[]): Promise<RawWs> => {
    const ws = await RawWs.open(node.port);
    clients.push(ws);
    ws.json({ type: 'subscribe', topics });
    await until(() => ws.messages().some((m) => m.type === 'subscribed'), 'subscribed', 60_000);
    return ws;
  };

  beforeAll(async () => {
    db = await scratchPostgres();
    dir = mkdtempSync(join(tmpdir(), 'newsagg-capi-'));
    await addPublishers(db.sql, [{ id: 'pub-a', name: 'Wire A', feed_url: `https://wire.example/${prefix}/feed`, country: 'US' }]);
    spy = await connect({ servers: SHARED_NATS_URL });
    spy.subscribe(`${prefix}.bc.>`, { callback: (_e, m) => void seen.push({ subject: m.subject, data: decode(m.data) }) });
    await spy.flush();
    const args = (id: string) =>
      resolveConfig(
        ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--redis-url', 'redis://127.0.0.1:6379',
          '--redis-prefix', `${prefix}:`, '--nats-url', SHARED_NATS_URL, '--nats-prefix', prefix, '--node-id', id, '--log-level', 'warn'],
        {},
      );
    const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'], crawlDelayMs: 0 });
    ingest = ingestComponent({ fetcher });
    b = await startNode(args('node-b'), { components: [fetcher, ingest, breakingComponent({ ingest }), apiComponent({ fetcher })] });
    a = await startNode(args('node-a'), { components: [apiComponent({ hotTtlMs: 600_000 })] });
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await a?.stop();
    await b?.stop();
    await spy?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a page cached on node A changes when node B writes a story', async () => {
    const first = article('Harbour council approves the new tidal barrier for the old port');
    await ingest.ingest([first]);
    const s1 = await storyOf(first.url);
    // the first render on A may come before or after B's invalidation arrives: wait for the story
    await until(async () => (await feed(a)).page.items.some((i) => i.story_id === s1), 'story 1 on node A', 60_000);
    const cached = await feed(a);
    expect((await feed(a)).etag).toBe(cached.etag);

    const second = article('Space agency delays the lunar rover launch after a sensor fault');
    await ingest.ingest([second]);
    const s2 = await storyOf(second.url);
    expect(s2).not.toBe(s1);
    // A keeps pages for ten minutes: only the invalidation event from B makes this page change
    await until(async () => (await feed(a)).page.items.some((i) => i.story_id === s2), 'story 2 on node A', 60_000);
    const fresh = await feed(a);
    expect(fresh.etag).not.toBe(cached.etag);
    expect(fresh.page.items.map((i) => i.story_id)).toEqual(expect.arrayContaining([s1, s2]));
    // and it came over NATS: the invalidation naming the global feed, msgpack on the deployment's subject
    const invalidations = seen.filter((m) => m.subject === `${prefix}.bc.newsagg:invalidate`).map((m) => JSON.parse(m.data as string) as { feeds: string[]; stories: string[] });
    expect(invalidations.some((m) => m.stories.includes(s2) && m.feeds.includes('feed:global:top'))).toBe(true);
  });

  it('a WebSocket client on node A hears a story update written on node B', async () => {
    const onA = await subscribe(a, ['feed:global:top']);
    const onB = await subscribe(b, ['feed:global:top']);
    const third = article('Regional rail operator orders forty new electric trains for the coast line');
    await ingest.ingest([third]);
    const s3 = await storyOf(third.url);
    const heard = (ws: RawWs) => ws.messages().some((m) => m.type === 'story' && (m.story as { story_id: string }).story_id === s3);
    await until(() => heard(onA), 'the story update on node A', 60_000);
    await until(() => heard(onB), 'the story update on node B', 60_000);
    // the event itself went over NATS as a msgpack object
    expect(seen.some((m) => m.subject === `${prefix}.bc.live` && (m.data as { type: string }).type === 'stories')).toBe(true);
  });

  it('a breaking alert from node B reaches clients on both nodes, once each', async () => {
    const onA = await subscribe(a, ['breaking']);
    const onB = await subscribe(b, ['breaking']);
    const events = liveEventsFor(b.cache, b.broadcast, b.log);
    const item = (id: string): BreakingItem => ({
      article_id: `art-${id}`, story_id: id, title: `Alert ${id}`, summary: null, thumbnail_url: null, publisher_name: 'Wire A',
      published_at: new Date().toISOString(), source_url: 'https://wire.example/x', category: 'world', region: 'us', coverage_count: 5,
      breaking_since: new Date().toISOString(),
    } as BreakingItem);
    const first = `${prefix}-alert-1`;
    const second = `${prefix}-alert-2`;
    await events.publish({ type: 'breaking', story: item(first), regions: ['us'], active: true });
    await events.publish({ type: 'breaking', story: item(second), regions: ['us'], active: true });
    const alerts = (ws: RawWs, id: string) => ws.messages().filter((m) => m.type === 'breaking' && (m.story as { story_id: string }).story_id === id).length;
    for (const [name, ws] of [['A', onA], ['B', onB]] as const) {
      // NATS keeps one publisher's order: once the second alert is in, a duplicate of the first would be too
      await until(() => alerts(ws, second) > 0, `the second alert on node ${name}`, 60_000);
      expect(alerts(ws, first), `first alert on node ${name}`).toBe(1);
      expect(alerts(ws, second), `second alert on node ${name}`).toBe(1);
    }
  });
});
