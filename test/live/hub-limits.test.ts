import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../src/api/client-address.js';
import { OP, RawWs } from '../helpers/raw-ws.js';
import { client, clients, item, of, startHub, until } from './hub-harness.js';

/** The live hub's limits on what clients may do: connections, frame sizes and rates, and the close codes the README promises. */
describe('the live hub (/v1/live): limits and close codes', () => {
  it.each([
    ['just over 16 times the limit', 512 * 16 + 1],
    ['far over it', 200_000],
  ])('closes a connection that sends a frame %s with 1009, and only that one', async (_what, size) => {
    const s = await startHub();
    const bystander = await client(s, ['feed:us:top']);
    const huge = await client(s);
    huge.send('x'.repeat(size));
    expect(await huge.closed).toBe(1009);
    await until('closed on the server', () => s.hub.connections === 1);
    await s.publish({ type: 'stories', stories: [{ item: item('still'), regions: ['us'] }] });
    await until('bystander still served', () => of(bystander, 'story').length > 0);
  });

  // what uWebSockets.js does itself, as the README says: it drops the connection without a close frame
  it.each([
    ['a frame over the read cap (1 MiB)', (c: RawWs) => c.send('x'.repeat((1 << 20) + 1))],
    ['invalid UTF-8 in a text frame', (c: RawWs) => c.sendFrame(OP.text, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
    ['an unknown opcode', (c: RawWs) => c.sendFrame(3, Buffer.from('{}'))],
  ])('drops the connection without a close frame for %s (clients report 1006)', async (_what, send) => {
    const s = await startHub();
    const c = await client(s);
    send(c);
    expect(await c.closed).toBeNull();
    await until('closed on the server', () => s.hub.connections === 0);
  });

  it('limits connections per client address', async () => {
    const s = await startHub({ maxConnectionsPerClient: 3 });
    for (let i = 0; i < 3; i++) await client(s);
    await expect(RawWs.open(s.port)).rejects.toThrow(/429/);
    clients[0]!.close();
    await until('slot freed', () => s.hub.connections === 2);
    clients.push(await RawWs.open(s.port));
  });

  it('limits new connections per second per client address (429 with Retry-After), each address on its own', async () => {
    const t = 1_000_000; // frozen: no token comes back during the test
    const s = await startHub({ maxConnectionsPerClient: 50, upgrades: { rps: 1, burst: 3 }, now: () => t, trustProxy: new TrustedProxies(['127.0.0.1/32']) });
    const from = (ip: string) => RawWs.open(s.port, { headers: { 'X-Forwarded-For': ip } });
    for (let i = 0; i < 3; i++) clients.push(await from('203.0.113.7'));
    await expect(from('203.0.113.7')).rejects.toThrow(/429/);
    // closing one frees a connection slot, not an upgrade token
    clients[0]!.close();
    await until('closed on the server', () => s.hub.connections === 2);
    await expect(from('203.0.113.7')).rejects.toThrow(/429/);
    clients.push(await from('198.51.100.9'));
    expect(s.hub.connections).toBe(3);
  });

  it('answers a refused upgrade with Retry-After', async () => {
    const s = await startHub({ upgrades: { rps: 0.5, burst: 1 }, now: () => 5_000 });
    clients.push(await RawWs.open(s.port));
    const refused = await new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1', port: s.port, path: '/v1/live', agent: false,
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': Buffer.alloc(16, 1).toString('base64'), 'sec-websocket-version': '13' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }));
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('2');
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('closes a client that keeps sending above the frame rate with 1008, though the bucket lets some through', async () => {
    let t = 1_000_000;
    const s = await startHub({ framesPerSecond: 5, now: () => t });
    const c = await client(s);
    let closed: number | null | undefined;
    void c.closed.then((code) => (closed = code));
    let sent = 0;
    // ten frames a fake second, twice the rate; each is acted on before the clock moves on
    for (; sent < 300 && closed === undefined; sent++) {
      t += 100;
      const before = s.hub.framesReceived;
      c.json({ type: 'ping' });
      await until('the frame acted on', () => s.hub.framesReceived > before || closed !== undefined);
    }
    expect(await c.closed).toBe(1008);
    // a sustained flood, not a burst: tokens came back and were used all along
    expect(of(c, 'pong').length).toBeGreaterThan(20);
    expect(sent).toBeLessThan(300);
    expect(of(c, 'error').map((m) => (m.error as { code: string }).code)).toEqual(['rate_limited']);
  });

  it('limits frames per second: a flood gets one error frame, then the connection is closed', async () => {
    const s = await startHub({ framesPerSecond: 5 });
    const c = await client(s);
    for (let i = 0; i < 200; i++) c.json({ type: 'ping' });
    expect(await c.closed).toBe(1008);
    expect(of(c, 'error').map((m) => (m.error as { code: string }).code)).toEqual(['rate_limited']);
  });

});
