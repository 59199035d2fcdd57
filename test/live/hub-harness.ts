import { afterEach } from 'vitest';
import type { FeedItem } from '../../src/actors/store/feed-items.js';
import { cacheLiveEvents } from '../../src/actors/store/live-events.js';
import { LiveHub, type LiveHubOptions } from '../../src/api/live/hub.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import type { Cache } from '../../src/runtime/cache.js';
import { RawWs } from '../helpers/raw-ws.js';

/** A live hub on a real uWS server with in-process live events, and bare WebSocket clients; all closed after each test. */

export async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const item = (id: string, over: Partial<FeedItem> = {}): FeedItem => ({
  article_id: `a-${id}`, story_id: id, title: `Story ${id}`, summary: null, thumbnail_url: null, publisher_id: 'daily', publisher_name: 'Daily',
  published_at: '2026-01-01T00:00:00Z', source_url: `https://example.com/${id}`, category: 'technology', region: 'us', coverage_count: 1, ...over,
}) as FeedItem;

export interface HubServer {
  hub: LiveHub;
  port: number;
  cache: Cache;
  publish: ReturnType<typeof cacheLiveEvents>['publish'];
  close(): Promise<void>;
}

export const open: HubServer[] = [];
export const clients: RawWs[] = [];

export async function startHub(opts: Partial<LiveHubOptions> = {}, cache: Cache = new MemoryCache()): Promise<HubServer> {
  const http = new HttpServer({ host: '127.0.0.1', port: 0, router: new Router() });
  const hub = new LiveHub({ maxSubscriptions: 5, maxFrameBytes: 512, maxConnectionsPerClient: 6, maxBufferBytes: 16 * 1024, heartbeatSeconds: 8, coalesceMs: 20, ...opts });
  hub.attach(http.app);
  const events = cacheLiveEvents(cache);
  await hub.start(events);
  const port = await http.listen();
  const s: HubServer = {
    hub, port, cache, publish: (e) => events.publish(e),
    close: async () => {
      await hub.close();
      await http.close(0);
    },
  };
  open.push(s);
  return s;
}

export async function client(s: HubServer, topics?: string[]): Promise<RawWs> {
  const c = await RawWs.open(s.port);
  clients.push(c);
  if (topics) {
    c.json({ type: 'subscribe', topics });
    await until('subscribed', () => c.messages().some((m) => m.type === 'subscribed'));
  }
  return c;
}

export const of = (c: RawWs, type: string) => c.messages().filter((m) => m.type === type);

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of open.splice(0)) await s.close();
});
