import { ECDH } from 'node:crypto';
import { ENDPOINT_MAX, type SubscriptionInput } from '../../actors/push/index.js';
import { CATEGORIES } from '../../actors/model/index.js';
import type { PushPrefs } from '../../actors/store/push-subscriptions.js';
import { badRequest } from '../params.js';
import { keyOf } from '../readers/interests.js';
import { placeKeys } from '../readers/profile.js';

/**
 * `POST /v1/me/push`: the browser's PushSubscription JSON (`endpoint`, `expirationTime`,
 * `keys.p256dh`, `keys.auth`) and what to be told about (`breaking`, `stories`, `topics`,
 * `places`, `threshold`, `quiet_hours`, `tz_offset_minutes`, `daily_cap`), checked hard: unknown
 * fields, malformed keys (p256dh must be a point on P-256, auth 16 bytes) and out-of-range values
 * are 400s with a code a client can act on. The endpoint's host is checked later (DNS, SSRF guard).
 */

export const PUSH_BODY_LIMIT = 8 * 1024;
export const MAX_STORIES = 100;
export const MAX_PLACES = 20;
const MAX_NAME = 100;
const STORY_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const FIELDS = ['endpoint', 'expirationTime', 'keys', 'breaking', 'stories', 'topics', 'places', 'threshold', 'quiet_hours', 'tz_offset_minutes', 'daily_cap'];

export interface PushDefaults {
  threshold: number;
  quietHours: { start: string; end: string } | null;
  dailyCap: number;
}

/** Checks a POST body into a subscription: its endpoint and keys, preferences, and the alert keys they compile to. */
export function parsePushBody(body: unknown, d: PushDefaults): SubscriptionInput {
  const o = object(body, 'the body');
  for (const k of Object.keys(o)) if (!FIELDS.includes(k)) throw badRequest('invalid_body', `unknown field "${clip(k)}"; expected ${FIELDS.join(', ')}`);
  if (typeof o.endpoint !== 'string' || o.endpoint === '') throw badRequest('invalid_endpoint', 'endpoint must be the subscription\'s URL');
  if (o.endpoint.length > ENDPOINT_MAX) throw badRequest('invalid_endpoint', `endpoint is longer than ${ENDPOINT_MAX} characters`);
  if (o.expirationTime !== undefined && o.expirationTime !== null && typeof o.expirationTime !== 'number') throw badRequest('invalid_body', 'expirationTime must be a number or null');
  const keys = object(o.keys, 'keys');
  for (const k of Object.keys(keys)) if (k !== 'p256dh' && k !== 'auth') throw badRequest('invalid_keys', `unknown field "keys.${clip(k)}"; expected p256dh, auth`);
  const p256dh = bytes(keys.p256dh, 'keys.p256dh');
  const auth = bytes(keys.auth, 'keys.auth');
  if (p256dh.length !== 65 || p256dh[0] !== 4) throw badRequest('invalid_keys', 'keys.p256dh must be an uncompressed P-256 point (65 bytes)');
  try {
    ECDH.convertKey(p256dh, 'prime256v1');
  } catch {
    throw badRequest('invalid_keys', 'keys.p256dh is not a point on P-256');
  }
  if (auth.length !== 16) throw badRequest('invalid_keys', 'keys.auth must be 16 bytes');

  if (o.breaking !== undefined && typeof o.breaking !== 'boolean') throw badRequest('invalid_body', 'breaking must be true or false');
  const stories = strings(o.stories, 'stories', MAX_STORIES, (s) => {
    if (!STORY_ID.test(s)) throw badRequest('invalid_story', `stories: "${clip(s)}" is not a story id`);
    return s;
  });
  const topics = strings(o.topics, 'topics', CATEGORIES.length, (s) => {
    if (!(CATEGORIES as readonly string[]).includes(s)) throw badRequest('invalid_category', `topics: unknown category "${clip(s)}"; expected one of: ${CATEGORIES.join(', ')}`);
    return s;
  });
  const places = strings(o.places, 'places', MAX_PLACES, (raw) => {
    const s = raw.trim().replace(/\s+/g, ' ');
    if (s === '' || s.length > MAX_NAME || CONTROL.test(s)) throw badRequest('invalid_interest', `places: names are 1 to ${MAX_NAME} characters without control characters`);
    return s;
  });
  const prefs: PushPrefs = {
    breaking: o.breaking === true,
    stories,
    topics,
    places,
    threshold: int(o.threshold, 'threshold', 2, 100_000, d.threshold),
    quiet_hours: quiet(o.quiet_hours, d.quietHours),
    tz_offset_minutes: int(o.tz_offset_minutes, 'tz_offset_minutes', -840, 840, 0),
    daily_cap: int(o.daily_cap, 'daily_cap', 1, d.dailyCap, d.dailyCap),
  };
  return { endpoint: o.endpoint, p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url'), keys: alertKeys(prefs), prefs };
}

/** The alert keys of preferences: `b`, `s:<story>`, `c:<category>`, and a place's `e:`/`l:` keys (as For you matches places). */
export function alertKeys(p: Pick<PushPrefs, 'breaking' | 'stories' | 'topics' | 'places'>): string[] {
  const keys = new Set<string>();
  if (p.breaking) keys.add('b');
  for (const s of p.stories) keys.add(`s:${s}`);
  for (const c of p.topics) keys.add(`c:${c}`);
  for (const pl of p.places) for (const k of placeKeys(pl)) keys.add(k);
  return [...keys];
}

function bytes(v: unknown, at: string): Buffer {
  if (typeof v !== 'string' || v.length === 0 || v.length > 200 || !B64URL.test(v)) throw badRequest('invalid_keys', `${at} must be base64url`);
  return Buffer.from(v.replace(/=+$/, ''), 'base64url');
}

/** A bounded list of checked strings, repeats kept once (names compared case-insensitively, ids exactly). */
function strings(v: unknown, at: string, max: number, check: (s: string) => string): string[] {
  const fold = at === 'places' ? keyOf : (s: string) => s;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest('invalid_body', `${at} must be a list of strings`);
  if (v.length > max) throw badRequest('too_many_interests', `${at}: at most ${max} entries`);
  const out = new Map<string, string>();
  for (const x of v) {
    if (typeof x !== 'string' || x.length > MAX_NAME * 4) throw badRequest('invalid_body', `${at} must be a list of strings of at most ${MAX_NAME} characters`);
    const s = check(x);
    if (!out.has(fold(s))) out.set(fold(s), s);
  }
  return [...out.values()];
}

function int(v: unknown, at: string, min: number, max: number, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badRequest(`invalid_${at}`, `${at} must be an integer from ${min} to ${max}`);
  return v;
}

function quiet(v: unknown, dflt: PushDefaults['quietHours']): PushPrefs['quiet_hours'] {
  if (v === undefined) return dflt;
  if (v === null) return null;
  const o = object(v, 'quiet_hours');
  const clock = /^([01]\d|2[0-3]):[0-5]\d$/;
  const keys = Object.keys(o);
  if (keys.length !== 2 || typeof o.start !== 'string' || typeof o.end !== 'string' || !clock.test(o.start) || !clock.test(o.end)) {
    throw badRequest('invalid_quiet_hours', 'quiet_hours must be null or {"start": "HH:MM", "end": "HH:MM"} in the reader\'s local time');
  }
  return { start: o.start, end: o.end };
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest(what === 'keys' ? 'invalid_keys' : 'invalid_body', `${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function clip(s: string): string {
  const t = s.replace(new RegExp(CONTROL.source, 'g'), '?');
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
