import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublisherStatus } from '../../src/actors/publisher/state.js';
import { publisherIdFor } from '../../src/actors/publisher/opml.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { silentLogger } from '../../src/runtime/log.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedServer } from './feed-server.js';

/**
 * A feed added to a running node (admin API, or a row written by `import-opml` against its
 * database) is planned for its first poll within the first-poll window (20 s by default), not a
 * tier interval later, and is then polled.
 */
const ADMIN = 'first-poll-admin-token-0123';

async function until<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('first polls of feeds added to a running node', { timeout: 180_000 }, () => {
  let db: TestDb;
  let server: FeedServer;
  let node: Node;
  let dir: string;

  beforeAll(async () => {
    db = await scratchPostgres();
    server = await new FeedServer().start();
    for (const n of ['admin', 'imported']) {
      server.add(n);
      server.publish(n, 2, Date.now());
    }
    dir = mkdtempSync(join(tmpdir(), 'newsagg-first-poll-'));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.1', '--admin-token', ADMIN], {});
    const fetcher = fetcherComponent({ allowlist: ['127.0.0.1'] });
    const publishers = publishersComponent({ emit: async () => {}, fetcher }); // the default window
    const api = apiComponent({ fetcher, onPublishersChanged: (c) => (publishers.added(c.added), publishers.removed(c.removed)) });
    node = await startNode(config, { log: silentLogger, components: [fetcher, publishers, api] });
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    await server?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const status = (url: string) => node.system.ask<PublisherStatus>(`publisher/${publisherIdFor(url)}`, { type: 'status' });

  it('through the admin API', async () => {
    const url = server.url('admin');
    const r = await fetch(`${node.url}/v1/publishers`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ feed_url: url }) });
    expect(r.status).toBe(201);
    const s = await status(url);
    // planned when the actor started, which was before now: within the window from then (unless it polled already)
    expect(s.polls > 0 || s.nextPollAt <= Date.now() + 20_000).toBe(true);
    await until('the first poll', async () => (server.feeds.get('admin')!.requests > 0 ? true : null));
  });

  it('written into the database behind the node (import-opml)', async () => {
    const url = server.url('imported');
    await addPublishers(db.sql, [{ id: publisherIdFor(url), name: 'imported', feed_url: url }]);
    // found by the node's periodic look for unscheduled publishers (every 10 s), then planned
    const s = await until('the node to start an actor for the row', () => (node.system.count('publisher') >= 2 ? status(url) : Promise.resolve(null)));
    expect(s.polls > 0 || s.nextPollAt <= Date.now() + 20_000).toBe(true);
    await until('the first poll', async () => (server.feeds.get('imported')!.requests > 0 ? true : null));
  });
});
