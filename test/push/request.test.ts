import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertKeys, parsePushBody } from '../../src/api/push/request.js';
import { HttpError } from '../../src/api/reply.js';

const defaults = { threshold: 10, quietHours: { start: '22:00', end: '07:00' }, dailyCap: 10 };
const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
const base = { endpoint: 'https://push.example.net/send/abc', expirationTime: null, keys };

function code(body: unknown): string {
  try {
    parsePushBody(body, defaults);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return `${(err as HttpError).status} ${(err as HttpError).code}`;
  }
  return 'ok';
}

describe('POST /v1/me/push bodies', () => {
  it('takes a PushSubscription with defaults for every preference', () => {
    const s = parsePushBody(base, defaults);
    expect(s).toEqual({
      endpoint: base.endpoint, p256dh: keys.p256dh, auth: keys.auth, keys: [],
      prefs: { breaking: false, stories: [], topics: [], places: [], threshold: 10, quiet_hours: { start: '22:00', end: '07:00' }, tz_offset_minutes: 0, daily_cap: 10 },
    });
  });

  it('compiles what to be told about into alert keys', () => {
    const s = parsePushBody({ ...base, breaking: true, stories: ['st_1', 'st_1', 'st_2'], topics: ['science'], places: ['  France ', 'france', 'Lyon'], quiet_hours: null, tz_offset_minutes: -300, daily_cap: 3, threshold: 4 }, defaults);
    expect(s.prefs).toMatchObject({ stories: ['st_1', 'st_2'], places: ['France', 'Lyon'], quiet_hours: null, tz_offset_minutes: -300, daily_cap: 3, threshold: 4 });
    // a country also by its code (stories placed there), a city by its name only
    expect(s.keys).toEqual(['b', 's:st_1', 's:st_2', 'c:science', 'e:france', 'l:FR', 'e:lyon']);
    expect(alertKeys({ breaking: false, stories: [], topics: [], places: [] })).toEqual([]);
  });

  it.each([
    ['not an object', [], '400 invalid_body'],
    ['no endpoint', { keys }, '400 invalid_endpoint'],
    ['an overlong endpoint', { ...base, endpoint: `https://x.example/${'a'.repeat(2048)}` }, '400 invalid_endpoint'],
    ['no keys', { endpoint: base.endpoint }, '400 invalid_keys'],
    ['keys not base64url', { ...base, keys: { ...keys, p256dh: 'not base64!' } }, '400 invalid_keys'],
    ['a compressed point', { ...base, keys: { ...keys, p256dh: Buffer.concat([Buffer.from([2]), randomBytes(32)]).toString('base64url') } }, '400 invalid_keys'],
    ['a point off the curve', { ...base, keys: { ...keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') } }, '400 invalid_keys'],
    ['auth of 8 bytes', { ...base, keys: { ...keys, auth: randomBytes(8).toString('base64url') } }, '400 invalid_keys'],
    ['an extra key', { ...base, keys: { ...keys, x: 'y' } }, '400 invalid_keys'],
    ['an unknown field', { ...base, sms: true }, '400 invalid_body'],
    ['breaking as a string', { ...base, breaking: 'true' }, '400 invalid_body'],
    ['a story id with a slash', { ...base, stories: ['st/1'] }, '400 invalid_story'],
    ['101 stories', { ...base, stories: Array.from({ length: 101 }, (_, i) => `s${i}`) }, '400 too_many_interests'],
    ['an unknown topic', { ...base, topics: ['top'] }, '400 invalid_category'],
    ['an empty place', { ...base, places: ['  '] }, '400 invalid_interest'],
    ['a place with a control character', { ...base, places: ['Par\u0007is'] }, '400 invalid_interest'],
    ['21 places', { ...base, places: Array.from({ length: 21 }, (_, i) => `Place ${i}`) }, '400 too_many_interests'],
    ['threshold 1', { ...base, threshold: 1 }, '400 invalid_threshold'],
    ['threshold 2.5', { ...base, threshold: 2.5 }, '400 invalid_threshold'],
    ['a time zone past UTC+14', { ...base, tz_offset_minutes: 900 }, '400 invalid_tz_offset_minutes'],
    ['a cap over the server\'s', { ...base, daily_cap: 11 }, '400 invalid_daily_cap'],
    ['quiet hours as a string', { ...base, quiet_hours: '22-7' }, '400 invalid_body'],
    ['quiet hours at 24:00', { ...base, quiet_hours: { start: '24:00', end: '07:00' } }, '400 invalid_quiet_hours'],
    ['quiet hours with an extra field', { ...base, quiet_hours: { start: '22:00', end: '07:00', days: 5 } }, '400 invalid_quiet_hours'],
  ])('refuses %s', (_name, body, want) => {
    expect(code(body)).toBe(want);
  });
});
