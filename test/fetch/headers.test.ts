import { describe, expect, it } from 'vitest';
import { freshness, parseCacheControl, parseContentType, parseRetryAfter } from '../../src/actors/fetch/index.js';
import { MAX_RETRY_AFTER_MS } from '../../src/actors/fetch/headers.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 5 ', 5_000],
    ['0', 0],
    ['Sun, 01 Mar 2026 12:01:30 GMT', 90_000],
    ['Sunday, 01-Mar-26 12:00:10 GMT', 10_000], // obsolete RFC 850 form
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0], // in the past
    ['99999999999', MAX_RETRY_AFTER_MS],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['', null],
  ] as const)('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  it('null and undefined give null', () => {
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });
});

describe('parseCacheControl', () => {
  it.each([
    ['max-age=300', { maxAge: 300, noCache: false, noStore: false }],
    ['public, max-age=60, s-maxage=600', { maxAge: 60, sMaxAge: 600 }],
    ['MAX-AGE="90"', { maxAge: 90 }],
    ['no-cache="set-cookie, x-foo", max-age=5', { maxAge: 5, noCache: true }],
    ['no-store', { noStore: true, maxAge: null }],
    ['max-age=abc', { maxAge: null }],
    ['max-age=10, max-age=20', { maxAge: 10 }],
    ['must-revalidate,,', { mustRevalidate: true }],
    ['', { maxAge: null, noCache: false }],
  ] as const)('%j', (value, expected) => {
    expect(parseCacheControl(value)).toMatchObject(expected);
  });

  it('keeps every directive', () => {
    expect(parseCacheControl('private, stale-while-revalidate=30').directives).toEqual({ private: true, 'stale-while-revalidate': '30' });
  });
});

describe('freshness', () => {
  it.each([
    [{ 'cache-control': 'max-age=600' }, 600_000],
    [{ 'cache-control': 'max-age=600', age: '100' }, 500_000],
    [{ 'cache-control': 'max-age=60', age: '100' }, 0],
    [{ 'cache-control': 'no-cache, max-age=600' }, 0],
    [{ 'cache-control': 'max-age=600', expires: 'Sun, 01 Mar 2026 13:00:00 GMT' }, 600_000], // max-age wins
    [{ expires: 'Sun, 01 Mar 2026 12:30:00 GMT', date: 'Sun, 01 Mar 2026 12:00:00 GMT' }, 1_800_000],
    [{ expires: 'Sun, 01 Mar 2026 12:30:00 GMT', date: 'Sun, 01 Mar 2026 12:20:00 GMT' }, 600_000], // server clock skew
    [{ expires: '0' }, 0],
    [{}, null],
  ] as [Record<string, string>, number | null][])('%j → %j ms', (headers, maxAgeMs) => {
    const f = freshness(headers, NOW);
    expect(f.maxAgeMs).toBe(maxAgeMs);
    expect(f.expiresAt).toBe(maxAgeMs === null ? null : NOW + maxAgeMs);
  });
});

describe('parseContentType', () => {
  it.each([
    ['application/rss+xml; charset=UTF-8', 'application/rss+xml', 'utf-8'],
    ['text/xml;charset="ISO-8859-1"', 'text/xml', 'iso-8859-1'],
    ['Application/Atom+XML', 'application/atom+xml', null],
    ['text/html; boundary=x; charset=windows-1252', 'text/html', 'windows-1252'],
    ['', null, null],
  ] as const)('%j', (value, type, charset) => {
    expect(parseContentType(value)).toEqual({ contentType: type, charset });
  });
});
