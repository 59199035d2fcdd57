import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real local HTTP server that plays publishers for the publisher tests: RSS 2.0 feeds with
 * ETag / Last-Modified / 304, `<ttl>`, WebSub hub links, and misbehaviour on demand (HTTP 500,
 * 429 with Retry-After, malformed XML, a request that never answers). Texts are our own.
 */

export interface Item {
  guid: string;
  title: string;
  link: string;
  description: string;
  pubDate: number;
}

export type Mode = 'ok' | 'error' | 'rate-limit' | 'malformed' | 'hang' | 'no-conditional';

export interface FeedDef {
  items: Item[];
  mode: Mode;
  ttlMinutes?: number;
  hub?: string;
  self?: string;
  retryAfterS?: number;
  /** requests seen, and how many were answered 304 */
  requests: number;
  notModified: number;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderRss(name: string, f: FeedDef): string {
  const items = f.items
    .map((i) => `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link><guid isPermaLink="false">${esc(i.guid)}</guid><description>${esc(i.description)}</description><pubDate>${new Date(i.pubDate).toUTCString()}</pubDate></item>`)
    .join('');
  const links = [f.hub ? `<atom:link rel="hub" href="${esc(f.hub)}"/>` : '', f.self ? `<atom:link rel="self" href="${esc(f.self)}"/>` : ''].join('');
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Test feed ${esc(name)}</title><link>https://example.test/${esc(name)}</link>${f.ttlMinutes ? `<ttl>${f.ttlMinutes}</ttl>` : ''}${links}${items}</channel></rss>`;
}

export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
}

export class FeedServer {
  readonly feeds = new Map<string, FeedDef>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | null = null;
  port = 0;
  /** extra routes (a hub, a WebSub callback) by path prefix */
  readonly routes = new Map<string, (req: IncomingMessage, res: ServerResponse, body: Buffer) => void>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks)));
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** URL of a feed; `host` lets each publisher have its own origin (resolved to 127.0.0.1 by the test lookup). */
  url(name: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/feed/${name}`;
  }

  add(name: string, over: Partial<FeedDef> = {}): FeedDef {
    const f: FeedDef = { items: [], mode: 'ok', requests: 0, notModified: 0, ...over };
    this.feeds.set(name, f);
    return f;
  }

  /** Append a new item (newest first, at most 20 kept as real feeds do). */
  publish(name: string, n: number, now: number): Item[] {
    const f = this.feeds.get(name)!;
    const made: Item[] = [];
    for (let k = 0; k < n; k++) {
      const seq = f.items.length + f.requests + k + Math.floor(Math.random() * 1e9);
      const item: Item = {
        guid: `${name}-${seq}`,
        title: `Item ${seq} of ${name}`,
        link: `https://example.test/${name}/${seq}`,
        description: `Summary number ${seq} written for the ${name} test feed`,
        pubDate: now,
      };
      made.push(item);
      f.items.unshift(item);
    }
    f.items.length = Math.min(f.items.length, 20);
    return made;
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const path = (req.url ?? '/').split('?')[0]!;
    for (const [prefix, route] of this.routes) if (path.startsWith(prefix)) return route(req, res, body);
    const name = path.startsWith('/feed/') ? path.slice(6) : '';
    const f = this.feeds.get(name);
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    f.requests++;
    switch (f.mode) {
      case 'hang':
        this.hanging.add(res);
        return;
      case 'error':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
        return;
      case 'rate-limit':
        res.writeHead(429, { 'retry-after': String(f.retryAfterS ?? 120) }).end();
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss><channel><item><title>unclosed');
        return;
    }
    const xml = renderRss(name, f);
    const etag = etagOf(xml);
    const lastModified = new Date(f.items[0]?.pubDate ?? 0).toUTCString();
    if (f.mode === 'ok' && (req.headers['if-none-match'] === etag || (!req.headers['if-none-match'] && req.headers['if-modified-since'] === lastModified))) {
      f.notModified++;
      res.writeHead(304, { etag }).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/rss+xml; charset=utf-8' };
    if (f.mode === 'ok') Object.assign(headers, { etag, 'last-modified': lastModified });
    res.writeHead(200, headers).end(xml);
  }

  /** How many requests `hang` feeds hold right now. */
  get hangingCount(): number {
    return this.hanging.size;
  }

  /** Ends every request held by a `hang` feed (the clients see the connection drop). */
  releaseHanging(): void {
    for (const r of this.hanging) r.destroy();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
