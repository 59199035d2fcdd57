import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../src/api/reply.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';

/**
 * The per-request object the handlers see: headers are copied lazily (a synchronous reply reads
 * single headers straight from uWS), so both ways of answering must still see every header.
 */
let server: HttpServer;
let port: number;

function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const router = new Router()
    .get('/sync', (req) => json({ one: req.header('x-one') ?? null, missing: req.header('x-missing') ?? null, raw: req.rawQuery }))
    .get('/sync-all', (req) => json({ two: req.headers['x-two'] ?? null, one: req.header('x-one') ?? null }))
    .get('/async', async (req) => {
      await new Promise((r) => setTimeout(r, 5));
      return json({ one: req.header('x-one') ?? null, two: req.headers['x-two'] ?? null, raw: req.rawQuery });
    });
  server = new HttpServer({ host: '127.0.0.1', port: 0, router });
  port = await server.listen();
});
afterAll(async () => server.close(100));

describe('request headers and raw query', () => {
  it.each([
    ['/sync?a=1&b=%20', { one: '1', missing: null, raw: 'a=1&b=%20' }],
    ['/sync', { one: '1', missing: null, raw: '' }],
    ['/sync-all', { two: '2', one: '1' }],
    ['/async?x=y', { one: '1', two: '2', raw: 'x=y' }],
  ])('%s', async (path, want) => {
    const r = await get(path, { 'x-one': '1', 'X-Two': '2' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual(want);
  });

  it('a HEAD request gets the status and headers without a body', async () => {
    const r = await get('/sync', { 'x-one': '1' }, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
});
