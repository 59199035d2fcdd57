import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LEASE_SECONDS,
  answerVerification,
  buildHubRequest,
  discoverWebSub,
  pushActive,
  renewalAt,
  signBody,
  verifySignature,
  type WebSubState,
} from '../../src/actors/publisher/websub.js';

const FEED = 'https://news.example/feed.xml';

function sub(over: Partial<WebSubState> = {}): WebSubState {
  return {
    hub: 'https://hub.example/',
    topic: FEED,
    secret: 's3cret',
    status: 'pending',
    requestedAt: 0,
    leaseExpiresAt: 0,
    renewAt: 0,
    failures: 0,
    retryAt: 0,
    lastError: null,
    ...over,
  };
}

describe('discovery', () => {
  it.each([
    [{ hubs: ['https://hub.example/'], self: 'https://news.example/self' }, { hub: 'https://hub.example/', topic: 'https://news.example/self' }],
    [{ hubs: ['https://hub.example/'], self: null }, { hub: 'https://hub.example/', topic: FEED }],
    [{ hubs: ['javascript:alert(1)', 'https://h2.example/'], self: 'not a url' }, { hub: 'https://h2.example/', topic: FEED }],
    [{ hubs: [], self: 'https://news.example/self' }, null],
    [null, null],
  ])('%o → %o', (meta, expected) => {
    expect(discoverWebSub(meta, FEED)).toEqual(expected);
  });
});

describe('subscription request', () => {
  it('is a form POST with topic, callback, secret and lease', () => {
    const req = buildHubRequest({ hub: 'https://hub.example/', topic: FEED, callback: 'https://me.example/websub/p1', secret: 'abc', leaseSeconds: 3600 });
    expect(req.url).toBe('https://hub.example/');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      'hub.mode': 'subscribe',
      'hub.topic': FEED,
      'hub.callback': 'https://me.example/websub/p1',
      'hub.secret': 'abc',
      'hub.lease_seconds': '3600',
    });
    const unsub = new URLSearchParams(buildHubRequest({ hub: 'h', topic: FEED, callback: 'c', secret: 'abc', mode: 'unsubscribe' }).body);
    expect(unsub.get('hub.mode')).toBe('unsubscribe');
    expect(unsub.has('hub.secret')).toBe(false);
  });
});

describe('verification of intent', () => {
  it.each([
    ['subscribe for our topic', { mode: 'subscribe', topic: FEED, challenge: 'c1', leaseSeconds: 600 }, sub(), 200, 'c1'],
    ['subscribe, active renewal', { mode: 'subscribe', topic: FEED, challenge: 'c2', leaseSeconds: 600 }, sub({ status: 'active' }), 200, 'c2'],
    ['subscribe, wrong topic', { mode: 'subscribe', topic: 'https://evil.example/', challenge: 'c' }, sub(), 404, ''],
    ['subscribe, nothing requested', { mode: 'subscribe', topic: FEED, challenge: 'c' }, null, 404, ''],
    ['subscribe, given up', { mode: 'subscribe', topic: FEED, challenge: 'c' }, sub({ status: 'failed' }), 404, ''],
    ['subscribe, no challenge', { mode: 'subscribe', topic: FEED, challenge: null }, sub(), 404, ''],
    ['unsubscribe we did not ask for', { mode: 'unsubscribe', topic: FEED, challenge: 'c' }, sub({ status: 'active' }), 404, ''],
    ['unsubscribe after we dropped it', { mode: 'unsubscribe', topic: FEED, challenge: 'c3' }, null, 200, 'c3'],
    ['denied', { mode: 'denied', topic: FEED, reason: 'no' }, sub(), 404, ''],
  ])('%s', (_name, q, s, status, body) => {
    const a = answerVerification(q, s, FEED);
    expect(a.status).toBe(status);
    expect(a.body).toBe(body);
  });

  it('takes the granted lease, defaulting when absent', () => {
    const a = answerVerification({ mode: 'subscribe', topic: FEED, challenge: 'x', leaseSeconds: 600 }, sub(), FEED);
    const b = answerVerification({ mode: 'subscribe', topic: FEED, challenge: 'x' }, sub(), FEED);
    expect(a.status === 200 && a.leaseSeconds).toBe(600);
    expect(b.status === 200 && b.leaseSeconds).toBe(DEFAULT_LEASE_SECONDS);
    const d = answerVerification({ mode: 'denied', topic: FEED, reason: 'quota' }, sub(), FEED);
    expect(d.status === 404 && d.denied).toBe('quota');
  });
});

describe('X-Hub-Signature', () => {
  const body = Buffer.from('<rss><channel><item><title>é</title></item></channel></rss>');
  it.each(['sha1', 'sha256', 'sha384', 'sha512'] as const)('accepts a correct %s signature', (algo) => {
    const sig = `${algo}=${createHmac(algo, 'k').update(body).digest('hex')}`;
    expect(verifySignature(sig, body, 'k')).toBe(true);
    expect(verifySignature(sig.toUpperCase().replace(algo.toUpperCase(), algo), body, 'k')).toBe(true); // hex case-insensitive
    expect(signBody(body, 'k', algo)).toBe(sig);
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['wrong secret', signBody(body, 'other')],
    ['other body', signBody('tampered', 'k')],
    ['unknown algorithm', `md5=${createHmac('md5', 'k').update(body).digest('hex')}`],
    ['truncated', signBody(body, 'k').slice(0, 20)],
    ['no algorithm', createHmac('sha256', 'k').update(body).digest('hex')],
    ['not hex', `sha256=${'z'.repeat(64)}`],
  ])('rejects %s', (_name, header) => {
    expect(verifySignature(header, body, 'k')).toBe(false);
  });

  it('verifies a string body as its UTF-8 bytes', () => {
    expect(verifySignature(signBody(body, 'k'), body.toString('utf8'), 'k')).toBe(true);
  });
});

describe('lease renewal', () => {
  it.each([
    // lease s, random, expected offset ms
    [86_400, 0, 0.75 * 86_400_000],
    [86_400, 0.5, 0.8 * 86_400_000],
    [600, 0.5, 600_000 - 300_000], // short lease: 5 min before expiry wins over 80 %
    [60, 0.5, 30_000], // tiny lease: at half, never in a storm
  ])('lease %i s, random %f → renew after %f ms', (lease, r, offset) => {
    expect(renewalAt(1000, lease, () => r) - 1000).toBeCloseTo(offset, 0);
  });

  it('push is active only while the lease runs', () => {
    expect(pushActive(sub({ status: 'active', leaseExpiresAt: 100 }), 99)).toBe(true);
    expect(pushActive(sub({ status: 'active', leaseExpiresAt: 100 }), 100)).toBe(false);
    expect(pushActive(sub({ status: 'pending', leaseExpiresAt: 100 }), 0)).toBe(false);
    expect(pushActive(null, 0)).toBe(false);
  });
});
