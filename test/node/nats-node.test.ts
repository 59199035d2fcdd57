import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { startNode } from '../../src/node.js';
import { ConfigError } from '../../src/runtime/errors.js';
import { silentLogger } from '../../src/runtime/log.js';
import { OwnNatsServer, SHARED_NATS_URL, until } from '../helpers/nats.js';
import { scratchSchema } from './pg-fixtures.js';

async function get(url: string, token?: string): Promise<{ status: number; json: unknown; text: string }> {
  const r = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // metrics are text
  }
  return { status: r.status, json, text };
}

describe('--node-id', () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ['defaults to host name and port', ['--port', '9100'], {}, `${hostname()}:9100`],
    ['with --port 0 to host name and process id', ['--port', '0'], {}, `${hostname()}:pid${process.pid}`],
    ['takes a flag', ['--node-id', 'news-1.example.org:8080'], {}, 'news-1.example.org:8080'],
    ['takes the environment', [], { NEWSAGG_NODE_ID: 'n2' }, 'n2'],
  ])('%s', (_name, argv, env, want) => {
    expect(resolveConfig(argv, env).nodeId).toBe(want);
  });

  it.each([['has space'], [''], ['x'.repeat(129)], ['tab\there']])('refuses %j', (bad) => {
    expect(() => resolveConfig(['--node-id', bad], {})).toThrow(/^--node-id: expected 1 to 128 printable characters without spaces/);
    expect(() => resolveConfig([], { NEWSAGG_NODE_ID: bad || ' ' })).toThrow(ConfigError);
  });
});

describe('a node with --nats-url', () => {
  it('connects at start, reports NATS in /readyz and owned shards (0 until wiring) in /metrics', async () => {
    const scratch = await scratchSchema();
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--database-url', scratch.url, '--nats-url', SHARED_NATS_URL, '--node-id', 'test-node-1', '--admin-token', 'nats-node-admin-token-0123'], {});
    const node = await startNode(config, { log: silentLogger });
    try {
      expect(node.nodeId).toBe('test-node-1');
      expect(node.nats?.connected).toBe(true);
      const ready = await get(`${node.url}/readyz`);
      expect(ready.json).toEqual({ status: 'ready', checks: { sql: 'ok', cache: 'ok', nats: 'ok' } });
      const metrics = await get(`${node.url}/metrics`, 'nats-node-admin-token-0123');
      for (const kind of ['publisher', 'dedup', 'story']) expect(metrics.text).toContain(`newsagg_owned_shards{kind="${kind}"} 0`);
      node.ownedShards.track((k) => (k === 'dedup' ? 7 : 0));
      expect((await get(`${node.url}/metrics`, 'nats-node-admin-token-0123')).text).toContain('newsagg_owned_shards{kind="dedup"} 7');
    } finally {
      await node.stop();
      await scratch.drop();
    }
    expect(node.nats?.nc.isClosed()).toBe(true);
  });

  it('reports NATS unavailable while the server is away, and ready again after it returns', async () => {
    const server = await OwnNatsServer.start();
    const scratch = await scratchSchema();
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--database-url', scratch.url, '--nats-url', server.url], {});
    const node = await startNode(config, { log: silentLogger });
    try {
      expect((await get(`${node.url}/readyz`)).status).toBe(200);
      await server.kill();
      await until(async () => (await get(`${node.url}/readyz`)).status === 503, 'readyz to fail', 20_000, 100);
      expect((await get(`${node.url}/readyz`)).json).toMatchObject({ status: 'unavailable', failed: ['nats'], checks: { nats: 'failed', sql: 'ok' } });
      await server.up();
      await until(async () => (await get(`${node.url}/readyz`)).status === 200, 'readyz to recover', 30_000, 100);
    } finally {
      await node.stop();
      await scratch.drop();
      await server.stop();
    }
  }, 90_000);

  it.each([
    ['unreachable', async () => ({ url: 'nats://127.0.0.1:1', stop: async () => undefined }), /^NATS at 127\.0\.0\.1:1 unreachable: /],
    ['without JetStream', async () => {
      const s = await OwnNatsServer.start({ jetstream: false });
      return { url: s.url, stop: () => s.stop() };
    }, /^NATS at 127\.0\.0\.1:\d+ unreachable: no JetStream \(start nats-server with -js\)/],
  ])('a NATS server %s fails the start with one line and leaves nothing open', async (_name, make, want) => {
    const server = await make();
    const scratch = await scratchSchema();
    try {
      const config = resolveConfig(['--port', '0', '--database-url', scratch.url, '--nats-url', server.url], {});
      const err = await startNode(config, { log: silentLogger }).then(() => null, (e: unknown) => e);
      expect(err).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
      expect((err as Error).message).toMatch(want);
      expect((err as Error).message).not.toContain('\n');
    } finally {
      await scratch.drop(); // would hang on a leaked pool holding the schema
      await server.stop();
    }
  }, 30_000);
});
