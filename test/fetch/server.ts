import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded { method: string; path: string; headers: IncomingMessage['headers'] }

export interface TestServer {
  origin: string;
  port: number;
  requests: Recorded[];
  /** requests in flight now / at most so far */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** A real node:http server on 127.0.0.1 that plays a publisher; routes by exact path, else 404. */
export async function startServer(routes: Record<string, Handler>): Promise<TestServer> {
  const state = { requests: [] as Recorded[], inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    state.requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('close', () => state.inFlight--);
    const handler = routes[path] ?? routes[path.split('?')[0]!];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get requests() { return state.requests; },
    get inFlight() { return state.inFlight; },
    get maxInFlight() { return state.maxInFlight; },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` again and again with backpressure until the client goes away (or `limit` bytes). */
export async function writeForever(res: NodeJS.WritableStream & { destroyed?: boolean }, chunk: Buffer, limit = Infinity): Promise<void> {
  let sent = 0;
  let closed = false;
  res.once('close', () => { closed = true; });
  res.once('error', () => { closed = true; });
  while (!closed && sent < limit) {
    sent += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((r) => {
        const done = () => { res.off('drain', done); res.off('close', done); r(); };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!closed) res.end();
}

export const UA = 'newsagg-test/0.1 (+https://example.org/newsagg)';
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
