import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PushEndpointError, alertPayload, candidatesOf, generateVapidKeys, inQuietHours, judge, localDay, parseClock, storyAlertKeys, topicOf,
  vapidKeysFromPrivate,
} from '../../src/actors/push/index.js';
import { checkEndpointUrl } from '../../src/actors/push/endpoint.js';
import { MAX_ATTEMPTS, RETRY_AFTER_MAX_MS, deliveryBackoffMs } from '../../src/actors/push/policy.js';
import { SsrfGuard } from '../../src/actors/fetch/index.js';
import type { PushInterest } from '../../src/actors/store/push-subscriptions.js';
import { item } from './harness.js';

const at = (hhmm: string, day = 0) => Date.UTC(2030, 0, 1 + day) + parseClock(hhmm)! * 60_000;

describe('quiet hours in the reader\'s time zone', () => {
  const night = { start: '22:00', end: '07:00' };
  const lunch = { start: '12:00', end: '13:30' };
  it.each([
    ['21:59 UTC, 22-07', at('21:59'), 0, night, false],
    ['22:00 UTC, 22-07', at('22:00'), 0, night, true],
    ['03:00 UTC, 22-07', at('03:00'), 0, night, true],
    ['06:59 UTC, 22-07', at('06:59'), 0, night, true],
    ['07:00 UTC, 22-07', at('07:00'), 0, night, false],
    ['12:00 UTC is 22:00 in UTC+10', at('12:00'), 600, night, true],
    ['02:00 UTC is 21:00 in UTC-5', at('02:00'), -300, night, false],
    ['04:00 UTC is 23:00 in UTC-5', at('04:00'), -300, night, true],
    ['12:59 UTC, 12:00-13:30', at('12:59'), 0, lunch, true],
    ['13:30 UTC, 12:00-13:30', at('13:30'), 0, lunch, false],
    ['none', at('23:00'), 0, null, false],
    ['start = end is no quiet time', at('23:00'), 0, { start: '08:00', end: '08:00' }, false],
    ['malformed hours are no quiet time', at('23:00'), 0, { start: '8pm', end: '07:00' }, false],
  ] as const)('%s', (_name, now, tz, quiet, want) => {
    expect(inQuietHours(now, tz, quiet)).toBe(want);
  });

  it.each([
    [at('23:59'), 0, at('00:00')],
    [at('23:59'), 60, at('00:00', 1)],
    [at('00:30', 1), -60, at('00:00')],
  ])('local day of %i at offset %i', (now, tz, dayStart) => {
    expect(localDay(now, tz)).toBe(Math.floor(dayStart / 86_400_000));
  });
});

describe('what a push service\'s answer means', () => {
  const now = 1_000_000_000_000;
  const later = now + 12 * 3_600_000;
  it.each([
    ['201 sent', 201, null, 1, { outcome: 'sent' }],
    ['202 sent', 202, null, 1, { outcome: 'sent' }],
    ['404 gone', 404, null, 1, { outcome: 'gone' }],
    ['410 gone', 410, null, 3, { outcome: 'gone' }],
    ['429 with Retry-After 120 s', 429, 120_000, 1, { outcome: 'retry', at: now + 120_000 }],
    ['503 with Retry-After 0 waits a second', 503, 0, 1, { outcome: 'retry', at: now + 1000 }],
    ['Retry-After is honoured up to 6 h', 503, 24 * 3_600_000, 1, { outcome: 'retry', at: now + RETRY_AFTER_MAX_MS }],
    ['no answer, out of attempts', null, null, MAX_ATTEMPTS, { outcome: 'failed' }],
    ['413 will not improve', 413, null, 1, { outcome: 'failed' }],
    ['403 (a key the service does not know) will not improve', 403, null, 1, { outcome: 'failed' }],
    ['400 will not improve', 400, null, 1, { outcome: 'failed' }],
  ] as const)('%s', (_name, status, retryAfterMs, attempts, want) => {
    expect(judge({ status, retryAfterMs }, attempts, now, later, 0.5)).toEqual(want);
  });

  it('backs off exponentially with jitter, up to an hour, and expires what would wait past the alert\'s life', () => {
    expect([1, 2, 3, 4].map((n) => deliveryBackoffMs(n, 0.5))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(deliveryBackoffMs(20, 0.5)).toBe(3_600_000);
    expect(deliveryBackoffMs(1, 0)).toBe(24_000);
    expect(deliveryBackoffMs(1, 0.999)).toBeLessThan(36_000);
    expect(judge({ status: null, retryAfterMs: null }, 2, now, later, 0.5)).toEqual({ outcome: 'retry', at: now + 60_000 });
    expect(judge({ status: 503, retryAfterMs: 3_600_000 }, 1, now, now + 60_000, 0.5)).toEqual({ outcome: 'expired' });
  });
});

describe('push endpoints', () => {
  const guard = new SsrfGuard(['127.0.0.1']);
  it.each([
    ['https://push.example.net/send/abc', true, null],
    ['http://push.example.net/send/abc', true, 'https'],
    ['http://127.0.0.1:9000/push/a', true, null],
    ['http://127.0.0.1:9000/push/a', false, 'https'],
    ['https://10.0.0.8/push', false, 'private'],
    ['https://[::ffff:10.0.0.8]/push', false, 'private'],
    ['https://169.254.169.254/latest', false, 'private'],
    ['https://metadata.google.internal/x', false, 'private'],
    ['https://u:p@push.example.net/x', false, 'URL'],
    ['javascript:alert(1)', false, 'URL'],
    [`https://push.example.net/${'a'.repeat(2100)}`, false, '2048'],
  ] as const)('%s (http allowed: %s)', (endpoint, allowHttp, problem) => {
    if (problem === null) expect(checkEndpointUrl(endpoint, guard, allowHttp).href).toBe(endpoint);
    else {
      expect(() => checkEndpointUrl(endpoint, guard, allowHttp)).toThrow(PushEndpointError);
      expect(() => checkEndpointUrl(endpoint, guard, allowHttp)).toThrow(new RegExp(problem === 'URL' ? 'endpoint|URL|credentials|scheme' : problem));
    }
  });
});

describe('VAPID keys', () => {
  it('derives the public point of a private key and refuses what is not one', () => {
    const g = generateVapidKeys();
    expect(Buffer.from(g.privateKey, 'base64url')).toHaveLength(32);
    expect(vapidKeysFromPrivate(g.privateKey)).toEqual(g);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(g.privateKey, 'base64url'));
    expect(g.publicKey).toBe(ecdh.getPublicKey().toString('base64url'));
    expect(() => vapidKeysFromPrivate('short')).toThrow(/32 bytes/);
    expect(() => vapidKeysFromPrivate(Buffer.alloc(32).toString('base64url'))).toThrow(/P-256/);
  });
});

describe('alerts from a stories event', () => {
  const interest = (keys: string[], minThreshold = 5): PushInterest => ({
    breaking: keys.includes('b'), keys: new Set(keys), topical: keys.some((k) => /^[cel]:/.test(k)), minThreshold,
  });
  const story = (id: string, count: number, category = 'science') => ({ item: item(id, count, { category }), regions: ['eu'] });
  const signals = new Map([['st_fr', { id: 'st_fr', publisher_count: 3, article_count: 6, updated_ms: 0, entities: ['Lyon'], lead_places: ['FR'], lead_entities: [{ name: 'CERN', type: 'org' }] }]]);

  it('keeps followed stories, and stories past the smallest threshold whose keys someone follows', () => {
    const out = candidatesOf([story('st_a', 2), story('st_fr', 6), story('st_small', 4), story('st_sport', 9, 'sports')], interest(['s:st_a', 'c:science', 'l:FR']), signals);
    expect(out.map((c) => [c.story, c.keys])).toEqual([['st_a', ['s:st_a']], ['st_fr', ['c:science', 'l:FR']]]);
    expect(out[1]!.item).toEqual({ title: 'Headline of st_fr', publisher_name: 'Publisher One', coverage_count: 6, category: 'science' });
  });

  it('reads topic and place keys from the category, the story\'s entities and its lead\'s places', () => {
    expect(storyAlertKeys({ category: 'science' }, signals.get('st_fr'))).toEqual(['c:science', 'e:lyon', 'e:cern', 'l:FR']);
    expect(storyAlertKeys({ category: null }, undefined)).toEqual([]);
  });
});

describe('the notification payload', () => {
  it('names the story, links its page and the stop URL, and stays small whatever the headline', () => {
    const p = alertPayload({ kind: 'story', story_id: 'st_1', item: { title: 'T'.repeat(5000), publisher_name: 'P', coverage_count: 7, category: null }, subscription_id: 'sub', stop_token: 'tok' });
    expect(p).toMatchObject({ kind: 'story', body: 'A story you follow: 7 articles now', url: '/story/st_1', tag: 'story-st_1', stop_url: '/v1/me/push?stop=sub.tok' });
    expect(p.title.length).toBeLessThanOrEqual(200);
    expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(1024);
    expect(topicOf('st_1')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
