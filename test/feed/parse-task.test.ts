import { Piscina } from 'piscina';
import { afterAll, describe, expect, it } from 'vitest';
import { FeedParseError } from '../../src/actors/feed/errors.js';
import parseTask, { fromTaskError } from '../../src/actors/feed/parse-task.js';

const FEED = Buffer.from(
  '<rss version="2.0"><channel><title>Pool</title><item><title>One</title><link>/1</link></item></channel></rss>',
);

describe('parse task in a real piscina worker', () => {
  const pool = new Piscina({
    filename: new URL('../../src/actors/feed/parse-task.ts', import.meta.url).href,
    execArgv: ['--import', 'tsx'],
    minThreads: 1,
    maxThreads: 1,
  });
  afterAll(() => pool.destroy());

  it('returns the parse result (meta included) across the thread boundary', async () => {
    const r = await pool.run({ body: new Uint8Array(FEED), baseUrl: 'https://pool.example/feed', contentType: 'application/rss+xml' });
    expect(r.feed.title).toBe('Pool');
    expect(r.entries[0].link).toBe('https://pool.example/1');
    expect(r.meta.format).toBe('rss2');
  });

  it('a parse failure arrives with its code recoverable', async () => {
    const err = await pool.run({ body: new TextEncoder().encode('<html><body/></html>') }).catch((e: unknown) => e);
    const rebuilt = fromTaskError(err);
    expect(rebuilt).toBeInstanceOf(FeedParseError);
    expect(rebuilt).toMatchObject({ code: 'PARSE_UNSUPPORTED' });
  });

  it('honours maxBytes', async () => {
    const err = await pool.run({ body: new Uint8Array(FEED), maxBytes: 10 }).catch((e: unknown) => e);
    expect(fromTaskError(err)).toMatchObject({ code: 'PARSE_TOO_LARGE' });
  });
});

describe('parse task in-process', () => {
  it('is the same function the pool runs', () => {
    expect(parseTask({ body: new Uint8Array(FEED) }).entries[0]!.title).toBe('One');
    expect(() => parseTask({ body: new Uint8Array() })).toThrow(/^PARSE_MALFORMED: /);
  });
  it('leaves errors that are not parse errors alone', () => {
    const other = new Error('ETIMEDOUT: worker gone');
    expect(fromTaskError(other)).toBe(other);
  });
});
