import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ActivityLog, describeActivity, difference, readTotals, type ActivityTotals } from '../../src/actors/activity/report.js';
import { countedEffects } from '../../src/actors/publisher/poll-metrics.js';
import type { FetchResult } from '../../src/actors/publisher/types.js';
import { Metrics } from '../../src/runtime/metrics.js';

const zero: ActivityTotals = { polls: 0, notModified: 0, pollErrors: 0, parseErrors: 0, entries: 0, stored: 0, duplicates: 0, rejected: 0, stories: 0 };
const ok = (status: number): FetchResult => ({
  status, url: 'https://a.example/feed', permanentRedirect: null, notModified: status === 304, body: Buffer.from(status === 200 ? '<rss/>' : ''),
  contentType: null, charset: null, headers: {}, etag: null, lastModified: null, maxAgeMs: null, expiresAt: null, retryAfterMs: null,
});

describe('the ingest activity line', () => {
  it.each([
    [zero, 'ingest, last 60 s: 0 polls (0 not modified, 0 failed), 0 new entries, 0 articles stored (0 duplicates), 0 stories'],
    [{ ...zero, polls: 120, notModified: 80, pollErrors: 2, parseErrors: 1, entries: 35, stored: 30, duplicates: 4, stories: 12 },
      'ingest, last 60 s: 120 polls (80 not modified, 3 failed), 35 new entries, 30 articles stored (4 duplicates), 12 stories'],
    [{ ...zero, stored: 5, rejected: 2 }, 'ingest, last 60 s: 0 polls (0 not modified, 0 failed), 0 new entries, 5 articles stored (0 duplicates, 2 rejected), 0 stories'],
  ])('reads %j as one sentence', (d, want) => {
    expect(describeActivity(d, 60)).toBe(want);
  });

  it('differences never go negative (a counter reset by a restart reads as nothing)', () => {
    expect(difference({ ...zero, polls: 3 }, { ...zero, polls: 10, stored: 1 })).toEqual(zero);
    expect(difference({ ...zero, polls: 10, stored: 7 }, { ...zero, polls: 4, stored: 7 })).toEqual({ ...zero, polls: 6 });
  });

  it('counts polls by outcome, parse failures and emitted entries, and logs what changed since the last line', async () => {
    const metrics = new Metrics();
    const results: (number | Error)[] = [200, 304, 304, new Error('refused'), 200];
    let emitted = 0;
    const fx = countedEffects(metrics, {
      fetch: async () => {
        const r = results.shift()!;
        if (r instanceof Error) throw r;
        return ok(r);
      },
      parse: async (body) => {
        if (String(body) === 'bad') throw new Error('not a feed');
        const feed = { title: null, link: null, description: null, language: null, published: null, updated: null, image: null };
        return { feed, entries: [], meta: { format: 'rss2' as const, ttlMinutes: null, hubs: [], self: null, encoding: 'utf-8' } };
      },
      emit: async (a) => void (emitted += a.length),
    });
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, new Writable({ write: (c: Buffer, _e, cb) => (lines.push(JSON.parse(c.toString())), cb()) }));
    const stored = metrics.counter('newsagg_ingest_articles_total', 'x', ['outcome']);
    let t = 0;
    const report = new ActivityLog({ metrics, log, everyMs: 3_600_000, now: () => t });
    stored.inc({ outcome: 'stored' }, 100); // before the first line: not reported
    await report.start();

    for (let i = 0; i < 5; i++) await fx.fetch({ url: 'https://a.example/feed', etag: null, lastModified: null }).catch(() => undefined);
    await Promise.resolve().then(() => fx.parse('bad', { baseUrl: 'https://a.example/', contentType: null })).catch(() => undefined);
    await fx.emit([{ url: 'https://a.example/1' }, { url: 'https://a.example/2' }] as never);
    stored.inc({ outcome: 'stored' }, 2);
    stored.inc({ outcome: 'duplicate' }, 1);
    t = 60_000;
    await report.tick();
    expect(emitted).toBe(2);
    expect(lines.at(-1)).toMatchObject({
      level: 30,
      msg: 'ingest, last 60 s: 5 polls (2 not modified, 2 failed), 2 new entries, 2 articles stored (1 duplicates), 0 stories',
      activity: { polls: 5, not_modified: 2, poll_errors: 1, parse_errors: 1, entries: 2, articles: 2, duplicates: 1 },
    });
    t = 120_000;
    await report.tick();
    expect(lines.at(-1)!['msg']).toBe('ingest, last 60 s: 0 polls (0 not modified, 0 failed), 0 new entries, 0 articles stored (0 duplicates), 0 stories');
    expect(await readTotals(metrics)).toMatchObject({ polls: 5, stored: 102 });
    report.stop();
  });
});
