import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService } from '../../src/api/feed.js';
import { addHealthRoutes } from '../../src/api/health.js';
import { registerApiRoutes, type ApiDeps } from '../../src/api/routes.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';
import type { Cache } from '../../src/runtime/cache.js';
import { Metrics } from '../../src/runtime/metrics.js';
import { HttpMetrics } from '../../src/api/http-metrics.js';
import { startReaderServices, type ReaderServices } from '../../src/api/services.js';
import type { Sql } from '../../src/runtime/sql.js';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface ApiHarness {
  url: string;
  feed: FeedService;
  readers: ReaderServices;
  metrics: Metrics;
  dataDir: string;
  /** a request with the path sent byte for byte (no URL normalisation, unlike fetch) */
  get(path: string, headers?: Record<string, string>, method?: string, payload?: string): Promise<Res>;
  close(): Promise<void>;
}

/** A real uWS server on a free port with the API, health routes and a fresh FeedService. */
export async function startApi(
  sql: Sql,
  cache: Cache,
  extra: Partial<ApiDeps> = {},
  readerOptions: Partial<Parameters<typeof startReaderServices>[0]> = {},
): Promise<ApiHarness> {
  const dataDir = extra.dataDir ?? mkdtempSync(join(tmpdir(), 'newsagg-api-'));
  const codec = extra.codec ?? new CursorCodec('test-secret-0123456789');
  const feed = extra.feed ?? new FeedService({ sql, cache, codec, snapshotSize: 300 });
  await feed.start();
  const router = new Router();
  const metrics = new Metrics();
  addHealthRoutes(router, { checks: { sql: () => sql.ping(), cache: () => cache.ping() }, metrics });
  const readers = await startReaderServices({ sql, cache, feed, codec, ...(extra.now ? { now: extra.now } : {}), ...readerOptions });
  registerApiRoutes(router, { sql, cache, feed, codec, rateLimit: { rps: 0, burst: 1 }, dataDir, profiles: readers.profiles, personal: readers.personal, trending: readers.trending, ...extra });
  const http = new HttpServer({ host: '127.0.0.1', port: 0, router, metrics: new HttpMetrics(metrics) });
  const port = await http.listen();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    feed,
    readers,
    metrics,
    dataDir,
    get(path, headers = {}, method = 'GET', payload) {
      return new Promise<Res>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = null;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              body = null;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    async close() {
      await readers.stop();
      await feed.stop();
      await http.close(0);
      if (!extra.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
