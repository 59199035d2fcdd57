import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsMigrations } from '../../src/actors/store/migrations.js';
import { addHealthRoutes } from '../../src/api/health.js';
import { Router } from '../../src/api/router.js';
import { HttpServer } from '../../src/api/server.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Component, type Node } from '../../src/node.js';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { silentLogger } from '../../src/runtime/log.js';
import { Metrics } from '../../src/runtime/metrics.js';
import { PGLITE_START_MS, scratchSchema } from './pg-fixtures.js';

async function get(url: string): Promise<{ status: number; text: string; type: string | null }> {
  const r = await fetch(url);
  return { status: r.status, text: await r.text(), type: r.headers.get('content-type') };
}

describe('a node in embedded mode', () => {
  let dir: string;
  let node: Node;
  const events: string[] = [];
  const component: Component = {
    name: 'probe',
    start: (n) => void events.push(`start:${n.sql.mode}`),
    stop: () => void events.push('stop'),
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'newsagg-node-'));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--log-level', 'silent'], {});
    node = await startNode(config, { log: silentLogger, components: [component] });
  }, PGLITE_START_MS);
  afterAll(async () => {
    await node?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('uses embedded SQL and the in-process cache, and started its components', () => {
    expect(node.sql.mode).toBe('embedded');
    expect(node.cache.mode).toBe('memory');
    expect(node.port).toBeGreaterThan(0);
    expect(node.url).toBe(`http://127.0.0.1:${node.port}`);
    expect(events).toEqual(['start:embedded']);
  });

  it('answers /healthz and /readyz; /metrics is not open without a token or a metrics address; unknown routes are 404 JSON', async () => {
    expect(await get(`${node.url}/healthz`)).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    const ready = await get(`${node.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { sql: 'ok', cache: 'ok' } });
    const metrics = await get(`${node.url}/metrics`);
    expect(metrics.status).toBe(404);
    expect(JSON.parse(metrics.text).error.message).toMatch(/--metrics-listen/);
    expect(node.metricsPort).toBeNull();
    const missing = await get(`${node.url}/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: { code: 'not_found', message: 'no route for GET /v1/nothing-here' } });
  });

  it('ran the migrations and made this month’s article partition', async () => {
    const { rows } = await node.sql.query<{ version: number }>('SELECT version FROM schema_migrations');
    expect(rows.map((r) => r.version).sort((a, b) => a - b)).toEqual(newsMigrations.map((m) => m.version));
    const d = new Date();
    const name = `articles_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    const parts = await node.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname = $1`, [name]);
    expect(parts.rows[0]!.n).toBe(1);
  });

  it('routes added later are served; dead letters land in the dead_letters table', async () => {
    node.router.get('/v1/ping-actor', async () => ({ body: String(await node.system.ask('echo/1', { type: 'ping' })) }));
    node.system.register(defineBehaviour<null, { type: 'ping' } | { type: 'boom' }>({
      kind: 'echo',
      init: () => null,
      receive: (_s, msg) => {
        if (msg.type === 'boom') throw new Error('always fails');
        return 'pong';
      },
      supervision: { maxAttempts: 1, backoffMinMs: 1, backoffMaxMs: 2 },
    }));
    expect(await get(`${node.url}/v1/ping-actor`)).toMatchObject({ status: 200, text: 'pong' });
    node.system.send('echo/2', { type: 'boom' });
    let rows: { address: string; type: string; error: string }[] = [];
    for (let i = 0; i < 500 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      rows = (await node.sql.query<{ address: string; type: string; error: string }>('SELECT address, type, error FROM dead_letters')).rows;
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ address: 'echo/2', type: 'boom' });
    expect(rows[0]!.error).toContain('always fails');
  });

  it('stop() closes intake, stops components, and is idempotent', async () => {
    const url = node.url;
    await node.stop();
    await node.stop();
    expect(events).toEqual(['start:embedded', 'stop']);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});

describe('a node in server mode', () => {
  it('uses PostgreSQL and Redis when their URLs are given', async () => {
    const scratch = await scratchSchema();
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--database-url', scratch.url, '--redis-url', 'redis://127.0.0.1:6379/15'], {});
    const node = await startNode(config, { log: silentLogger });
    try {
      expect(node.sql.mode).toBe('postgres');
      expect(node.cache.mode).toBe('redis');
      const ready = await get(`${node.url}/readyz`);
      expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { sql: 'ok', cache: 'ok' } });
    } finally {
      await node.stop();
      await scratch.drop();
    }
  });

  it('an unreachable Redis fails the start and leaves nothing open', async () => {
    const scratch = await scratchSchema();
    const config = resolveConfig(['--port', '0', '--database-url', scratch.url, '--redis-url', 'redis://127.0.0.1:1'], {});
    await expect(startNode(config, { log: silentLogger })).rejects.toThrow(/^Redis at 127\.0\.0\.1:1 unreachable/);
    await scratch.drop(); // would hang on a leaked pool holding the schema
  });
});

describe('/metrics access', () => {
  const token = 'metrics-admin-token-0123456789';
  let dir: string;
  let scratch: Awaited<ReturnType<typeof scratchSchema>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'newsagg-metrics-'));
    scratch = await scratchSchema();
  });
  afterAll(async () => {
    await scratch?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('on --port: only with the admin token', async () => {
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', scratch.url, '--admin-token', token], {});
    const node = await startNode(config, { log: silentLogger });
    try {
      const anon = await fetch(`${node.url}/metrics`);
      expect(anon.status).toBe(401);
      expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await fetch(`${node.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const ok = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^# HELP newsagg_/m);
    } finally {
      await node.stop();
    }
  });

  it('with --metrics-listen: open on that address, not served on --port', async () => {
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', scratch.url, '--metrics-listen', '127.0.0.1:0'], {});
    const node = await startNode(config, { log: silentLogger });
    try {
      expect(node.metricsPort).toBeGreaterThan(0);
      expect(node.metricsPort).not.toBe(node.port);
      const there = await get(`http://127.0.0.1:${node.metricsPort}/metrics`);
      expect(there.status).toBe(200);
      expect(there.text).toMatch(/^# HELP newsagg_/m);
      expect((await get(`http://127.0.0.1:${node.metricsPort}/v1/feed`)).status).toBe(404);
      expect((await get(`${node.url}/metrics`)).status).toBe(404);
      expect((await get(`${node.url}/healthz`)).status).toBe(200);
    } finally {
      await node.stop();
    }
  });
});

describe('/readyz', () => {
  it('is 503 naming the failed check, and 503 while draining', async () => {
    const router = new Router();
    let draining = false;
    addHealthRoutes(router, {
      checks: { sql: async () => {}, cache: async () => Promise.reject(new Error('ECONNREFUSED')), slow: () => new Promise(() => {}) },
      metrics: new Metrics(),
      draining: () => draining,
      timeoutMs: 50,
    });
    const http = new HttpServer({ host: '127.0.0.1', port: 0, router });
    const port = await http.listen();
    try {
      const r = await get(`http://127.0.0.1:${port}/readyz`);
      expect(r.status).toBe(503);
      expect(JSON.parse(r.text)).toEqual({ status: 'unavailable', failed: ['cache', 'slow'], checks: { sql: 'ok', cache: 'failed', slow: 'failed' } });
      draining = true;
      expect(JSON.parse((await get(`http://127.0.0.1:${port}/readyz`)).text).status).toBe('draining');
    } finally {
      await http.close(0);
    }
  });
});
