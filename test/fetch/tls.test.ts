import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SsrfGuard } from '../../src/actors/fetch/ssrf.js';

// A self-signed certificate for "good.test" made for these tests (fixtures/, 100-year validity).
const cert = readFileSync(new URL('./fixtures/good.test.crt', import.meta.url));
const key = readFileSync(new URL('./fixtures/good.test.key', import.meta.url));

let server: ReturnType<typeof createServer>;
let port = 0;
beforeAll(async () => {
  server = createServer({ cert, key }, (_req, res) => res.end('tls ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

const lookup = async (host: string) => {
  if (host === 'good.test' || host === 'other.test') return [{ address: '127.0.0.1', family: 4 as const }];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

/**
 * The guarded connector connects to the checked IP but must keep TLS verification on the
 * original hostname (SNI + certificate name), or it would either break HTTPS or verify nothing.
 */
describe('guarded connector over TLS', () => {
  it('verifies the certificate against the hostname, not the resolved IP', async () => {
    const agent = new Agent({ connect: new SsrfGuard(['good.test', 'other.test'], lookup).connector({ ca: cert }) });
    try {
      const ok = await agent.request({ origin: `https://good.test:${port}`, path: '/', method: 'GET' });
      expect(ok.statusCode).toBe(200);
      expect(await ok.body.text()).toBe('tls ok');
      // Same IP, but the certificate does not name other.test: must fail verification.
      const err = await agent.request({ origin: `https://other.test:${port}`, path: '/', method: 'GET' }).then(() => null, (e: unknown) => e);
      expect(err).toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    } finally {
      await agent.close();
    }
  });

  it('without the allowlist the TLS connection is never attempted', async () => {
    const agent = new Agent({ connect: new SsrfGuard([], lookup).connector({ ca: cert }) });
    try {
      const err = await agent.request({ origin: `https://good.test:${port}`, path: '/', method: 'GET' }).then(() => null, (e: unknown) => e);
      expect(err).toMatchObject({ code: 'SSRF_BLOCKED' });
    } finally {
      await agent.close();
    }
  });
});
