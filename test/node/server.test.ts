import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, json } from '../../src/api/reply.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';

let server: HttpServer;
let base: string;
let slowStarted: () => void = () => {};
let slowDone: () => void = () => {};
let slowSawAbort: boolean | undefined;

beforeAll(async () => {
  const router = new Router()
    .get('/hello', () => json({ hello: 'world' }))
    .get('/v1/articles/:id', (req) => json({ id: req.params['id'], q: req.query.get('q'), all: req.query.getAll('t') }))
    .get('/v1/stories/:id/articles/:n', (req) => json(req.params))
    .post('/echo', async (req) => json({ got: await req.json(), ct: req.headers['content-type'] ?? null }, 201))
    .post('/ignore-body', () => json({ ok: true }))
    .get('/teapot', () => {
      throw new HttpError(400, 'invalid_cursor', 'the cursor is not valid');
    })
    .get('/rate', async () => {
      throw new HttpError(429, 'rate_limited', 'slow down', { headers: { 'retry-after': '3' } });
    })
    .get('/crash', () => {
      throw new Error('secret internal detail at /srv/x.ts:12');
    })
    .get('/slow', async (req) => {
      slowStarted();
      // wait (bounded) until uWS reports the client gone, then try to answer anyway
      for (let i = 0; i < 1000 && !req.aborted; i++) await new Promise((r) => setTimeout(r, 10));
      slowSawAbort = req.aborted;
      slowDone();
      return json({ late: true });
    });
  server = new HttpServer({ host: '127.0.0.1', port: 0, router, bodyLimitBytes: 64 });
  const port = await server.listen();
  expect(port).toBeGreaterThan(0);
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => server.close(100));

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const r = await fetch(base + path, init);
  const text = await r.text();
  return { status: r.status, body: text === '' ? null : JSON.parse(text), headers: r.headers };
}

describe('http router on uWebSockets.js', () => {
  const table: [string, string, number, unknown][] = [
    ['static route', '/hello', 200, { hello: 'world' }],
    ['path param with percent-decoding and query', '/v1/articles/a%2Fb%20c?q=x%20y&t=1&t=2', 200, { id: 'a/b c', q: 'x y', all: ['1', '2'] }],
    ['two params', '/v1/stories/s1/articles/7', 200, { id: 's1', n: '7' }],
    ['unknown route', '/nope', 404, { error: { code: 'not_found', message: 'no route for GET /nope' } }],
    ['param must not be empty', '/v1/articles/', 404, { error: { code: 'not_found', message: 'no route for GET /v1/articles/' } }],
    ['bad percent-encoding', '/v1/articles/%E0%A4%A', 400, { error: { code: 'bad_request', message: 'malformed percent-encoding in the path' } }],
    ['HttpError keeps status and code', '/teapot', 400, { error: { code: 'invalid_cursor', message: 'the cursor is not valid' } }],
    ['a plain Error is a 500 without internals', '/crash', 500, { error: { code: 'internal', message: 'internal error' } }],
  ];
  it.each(table)('%s', async (_name, path, status, body) => {
    const r = await call(path);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(body);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('error headers pass through (Retry-After on 429)', async () => {
    const r = await call('/rate');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
  });

  it('wrong method → 405 with Allow', async () => {
    const r = await call('/echo');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error.code).toBe('method_not_allowed');
    const p = await call('/v1/articles/x', { method: 'DELETE' });
    expect(p.status).toBe(405);
  });

  it('HEAD answers like GET without a body', async () => {
    const r = await fetch(`${base}/hello`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
  });

  it('reads a JSON body; rejects malformed JSON with 400 and an oversized body with 413', async () => {
    const ok = await call('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    expect(ok).toMatchObject({ status: 201, body: { got: { a: [1, 2] }, ct: 'application/json' } });
    const bad = await call('/echo', { method: 'POST', body: '{"a":' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    const big = await call('/echo', { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(200) }) });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    const empty = await call('/echo', { method: 'POST' });
    expect(empty).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    const ignored = await call('/ignore-body', { method: 'POST', body: 'x'.repeat(500) });
    expect(ignored.status).toBe(200);
  });

  it('a client that goes away mid-request is not written to, and the server keeps serving', async () => {
    const started = new Promise<void>((r) => (slowStarted = r));
    const done = new Promise<void>((r) => (slowDone = r));
    const req = httpRequest(`${base}/slow`);
    req.on('error', () => {});
    req.end();
    await started;
    req.destroy();
    await done;
    expect(slowSawAbort).toBe(true);
    expect((await call('/hello')).status).toBe(200);
  });
});

describe('Router.match', () => {
  const h = (name: string) => () => json(name);
  const router = new Router()
    .get('/v1/stories/trending', h('trending'))
    .get('/v1/stories/:id', h('story'))
    .add('DELETE', '/v1/stories/:sid', h('delete-story'))
    .get('/v1/stories/:id/articles', h('story-articles'))
    .get('/v1/:kind/trending/extra', h('kind-extra'))
    .post('/v1/stories/trending', h('post-trending'));

  const table: [string, string, string, unknown][] = [
    ['static wins over a param', 'GET', '/v1/stories/trending', { name: 'trending', params: {} }],
    ['param', 'GET', '/v1/stories/s-1', { name: 'story', params: { id: 's-1' } }],
    ['param names per method', 'DELETE', '/v1/stories/s-1', { name: 'delete-story', params: { sid: 's-1' } }],
    ['deeper route under a param', 'GET', '/v1/stories/s-2/articles', { name: 'story-articles', params: { id: 's-2' } }],
    ['backtracks from a static dead end to a param', 'GET', '/v1/stories/trending/extra', { name: 'kind-extra', params: { kind: 'stories' } }],
    ['HEAD uses GET', 'HEAD', '/v1/stories/x', { name: 'story', params: { id: 'x' } }],
    ['trailing slash is another path', 'GET', '/v1/stories/x/', null],
    ['too deep', 'GET', '/v1/stories/x/articles/y', null],
    ['405 collects methods of every matching path', 'PUT', '/v1/stories/trending', { allowed: ['GET', 'POST', 'DELETE'] }],
  ];
  it.each(table)('%s', async (_name, method, path, want) => {
    const m = router.match(method, path);
    if (m === null || 'allowed' in m) {
      expect(m === null ? null : { allowed: [...m.allowed].sort() }).toEqual(want === null ? null : { allowed: [...(want as { allowed: string[] }).allowed].sort() });
      return;
    }
    const reply = await m.handler({} as never);
    expect({ name: JSON.parse(String(reply.body)), params: m.params }).toEqual(want);
  });
});

describe('HttpServer.listen', () => {
  it('refuses a port another process holds, even one that allows port sharing', async () => {
    // a uWS server with default options sets SO_REUSEPORT; without an exclusive bind we would share its port
    // (a fixed port: Linux does not share a port that was picked with port 0)
    const free = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const code = `import uWS from 'uWebSockets.js';
      uWS.App().listen('127.0.0.1', ${free}, (t) => { console.log(t ? uWS.us_socket_local_port(t) : 0); setTimeout(() => process.exit(0), 20000); });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: new URL('../../', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
        child.once('exit', () => reject(new Error('helper exited')));
      });
      expect(port).toBe(free);
      const s = new HttpServer({ host: '127.0.0.1', port, router: new Router() });
      await expect(s.listen()).rejects.toThrow(`cannot listen on 127.0.0.1:${port}`);
      await s.close(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
