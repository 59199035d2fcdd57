import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/api/cursor.js';
import { diversify } from '../../src/api/diversity.js';
import { RateLimiter } from '../../src/api/rate-limit.js';

describe('CursorCodec', () => {
  const codec = new CursorCodec('s3cret');
  it('round-trips a payload within its scope', () => {
    const c = codec.encode('feed:us:top', { s: 'snap1', o: 20 });
    expect(codec.decode('feed:us:top', c)).toEqual({ s: 'snap1', o: 20 });
  });
  it.each([
    ['empty', ''],
    ['no signature', 'eyJ9'],
    ['garbage', '!!!.???'],
    ['two dots', 'a.b.c'],
    ['huge', 'a'.repeat(5000)],
  ])('rejects %s', (_n, c) => {
    expect(() => codec.decode('feed:us:top', c)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
  it('rejects tampering, another scope and another secret', () => {
    const c = codec.encode('feed:us:top', { o: 20 });
    const [body, mac] = c.split('.');
    const forged = Buffer.from(JSON.stringify({ o: 999 })).toString('base64url') + '.' + mac;
    expect(() => codec.decode('feed:us:top', forged)).toThrow(/signature/);
    expect(() => codec.decode('feed:uk:top', c)).toThrow(/signature/);
    expect(() => new CursorCodec('other').decode('feed:us:top', c)).toThrow(/signature/);
    expect(body).toBeTruthy();
  });
});

describe('CursorCodec signatures', () => {
  it('are HMAC-SHA256 as Node computes it, for short and long secrets and any scope or body', async () => {
    const { createHmac } = await import('node:crypto');
    let x = 5;
    const r = () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const text = (n: number) => Array.from({ length: n }, () => String.fromCharCode(r() < 0.1 ? 0x400 + Math.floor(r() * 200) : 0x21 + Math.floor(r() * 90))).join('');
    for (let t = 0; t < 200; t++) {
      const secret = text(1 + Math.floor(r() * 150));
      const codec = new CursorCodec(secret);
      const scope = text(Math.floor(r() * 80));
      // past the codec's first buffer too
      const body = text(Math.floor(r() * (t % 10 === 0 ? 3000 : 800)));
      const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(scope).update('\0').update(body).digest().subarray(0, 16).toString('base64url');
      expect(codec.encodeText(scope, body)).toBe(`${body}.${mac}`);
    }
  });
});

describe('diversify', () => {
  const item = (id: string, publisher: string, category: string) => ({ id, publisher, category });
  it('caps items per publisher per page, deferring the rest in order', () => {
    const ranked = ['a', 'b', 'c', 'd', 'e'].map((id) => item(id, 'P', 'world')).concat([item('f', 'Q', 'world'), item('g', 'R', 'world')]);
    const out = diversify(ranked, { pageSize: 5, maxPerPublisher: 3, minCategories: 0 });
    expect(out.map((x) => x.id)).toEqual(['a', 'b', 'c', 'f', 'g', 'd', 'e']);
    expect(out).toHaveLength(ranked.length);
  });
  it('brings at least three categories onto the first page when available', () => {
    const ranked = [
      ...Array.from({ length: 8 }, (_, i) => item(`w${i}`, `p${i}`, 'world')),
      item('s1', 'x1', 'sports'),
      item('t1', 'x2', 'technology'),
    ];
    const out = diversify(ranked, { pageSize: 5, maxPerPublisher: 3, minCategories: 3 });
    const first = out.slice(0, 5);
    expect(new Set(first.map((x) => x.category)).size).toBeGreaterThanOrEqual(3);
    expect(out).toHaveLength(10);
    expect(new Set(out.map((x) => x.id)).size).toBe(10);
  });
  it('keeps order when one publisher is all there is', () => {
    const ranked = ['a', 'b', 'c', 'd'].map((id) => item(id, 'P', 'world'));
    expect(diversify(ranked, { pageSize: 2, maxPerPublisher: 1, minCategories: 0 }).map((x) => x.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('RateLimiter', () => {
  it('allows a burst, then refills at the rate, per client', () => {
    let t = 0;
    const rl = new RateLimiter(2, 3, () => t);
    expect([rl.take('a'), rl.take('a'), rl.take('a')]).toEqual([0, 0, 0]);
    expect(rl.take('a')).toBe(500);
    expect(rl.take('b')).toBe(0);
    t += 500;
    expect(rl.take('a')).toBe(0);
    expect(rl.take('a')).toBeGreaterThan(0);
  });

  it('peeks without taking, and a refund gives a token back up to the burst', () => {
    const t = 0;
    const rl = new RateLimiter(1, 2, () => t);
    expect(rl.peek('a')).toBe(0);
    expect([rl.take('a'), rl.take('a')]).toEqual([0, 0]);
    expect(rl.peek('a')).toBe(1000);
    expect(rl.peek('a')).toBe(1000);
    rl.refund('a');
    expect(rl.peek('a')).toBe(0);
    rl.refund('a');
    rl.refund('a');
    expect([rl.take('a'), rl.take('a'), rl.take('a')]).toEqual([0, 0, 1000]);
  });
});

describe('HotCache', () => {
  it('keeps a page only when no invalidation of its scope came while it was rendered', async () => {
    const { HotCache } = await import('../../src/api/hot-cache.js');
    let t = 0;
    const hot = new HotCache(5_000, () => t);
    // rendered across an invalidation: served to its caller, not kept
    const before = hot.token('feed:global:top');
    hot.invalidate(['feed:global:top']);
    expect(hot.set('a', 'feed:global:top', '{"old":1}', before).body.toString()).toBe('{"old":1}');
    expect(hot.get('a')).toBeNull();
    // another scope's invalidation does not matter
    const other = hot.token('feed:global:top');
    hot.invalidate(['feed:us:sports']);
    hot.set('a', 'feed:global:top', '{"new":1}', other);
    expect(hot.get('a')?.body.toString()).toBe('{"new":1}');
    // clearing everything counts for every scope
    const third = hot.token('feed:global:top');
    hot.clear();
    hot.set('b', 'feed:global:top', '{}', third);
    expect(hot.get('b')).toBeNull();
    // and the TTL still expires kept pages
    hot.set('c', 'feed:global:top', '{}');
    t += 5_001;
    expect(hot.get('c')).toBeNull();
  });
});

describe('CursorCodec text cursors', () => {
  const codec = new CursorCodec('s3cret');
  it('round-trips URL-safe text within its scope and refuses tampering or another scope', () => {
    const c = codec.encodeText('me:us:top:r_1', 'AbC_-123');
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decodeText('me:us:top:r_1', c)).toBe('AbC_-123');
    expect(() => codec.decodeText('me:us:top:r_2', c)).toThrow(/signature/);
    expect(() => codec.decodeText('me:us:top:r_1', `AbC_-124.${c.split('.')[1]}`)).toThrow(/signature/);
    expect(() => codec.decodeText('me:us:top:r_1', 'x'.repeat(3000))).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});
