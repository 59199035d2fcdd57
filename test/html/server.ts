import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageFetch } from '../../src/actors/html/fetch.js';

/** A route answer: body plus optional status, content type and headers. */
export interface Route {
  status?: number;
  type?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A real local HTTP server playing a publisher site. Routes are keyed by path (with query);
 * unknown paths get `fallback` (default: a plain 404). `hits` records every requested path.
 */
export async function startSite(routes: Record<string, Route>, fallback?: Route): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    hits.push(path);
    const r = routes[path] ?? fallback ?? { status: 404, type: 'text/plain', body: 'not found' };
    res.writeHead(r.status ?? 200, { 'content-type': r.type ?? 'text/html; charset=utf-8', ...r.headers });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A plain client with the fetcher's signature (the node wires the safe fetcher instead). */
export const plainFetch: PageFetch = async (url) => {
  const res = await fetch(url, { redirect: 'follow' });
  return {
    status: res.status,
    url: res.url,
    body: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type'),
  };
};
