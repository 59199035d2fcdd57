import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/parse-feed.js';

const FEED = `<?xml version="1.0" encoding="windows-1252"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>CLI feed</title><link>/</link>
<item><title>Hello &amp; welcome</title><link>posts/1</link><guid isPermaLink="false">42</guid>
<pubDate>Sun, 19 May 2024 10:00:00 +0200</pubDate><description>&lt;p&gt;Hi&lt;/p&gt;</description>
<media:thumbnail url="/t.jpg"/><category>News</category></item></channel></rss>`;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out, err };
}

let dir: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'newsagg-parse-feed-'));
  writeFileSync(join(dir, 'feed.xml'), Buffer.from(FEED, 'latin1'));
  writeFileSync(join(dir, 'page.html'), '<!DOCTYPE html><html><body>no feed</body></html>');
  server = createServer((req, res) => {
    if (req.url === '/feeds/main.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=windows-1252' });
      res.end(Buffer.from(FEED, 'latin1'));
    } else if (req.url === '/moved') {
      res.writeHead(301, { location: '/feeds/main.xml' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((r) => server.close(r));
});

describe('newsagg parse-feed', () => {
  it('prints exactly the DESIGN §6 JSON for a file (no meta)', async () => {
    const c = capture();
    const code = await main([join(dir, 'feed.xml'), '--base-url', 'https://cli.example.com/feed.xml'], c.io);
    expect(code).toBe(0);
    expect(c.err).toEqual([]);
    const text = c.out.join('');
    expect(text).toContain('\n  "feed": {'); // 2-space indent
    expect(JSON.parse(text)).toEqual({
      feed: { title: 'CLI feed', link: 'https://cli.example.com/', description: null, language: null, published: null, updated: null, image: null },
      entries: [
        {
          title: 'Hello & welcome', link: 'https://cli.example.com/posts/1', id: '42',
          published: '2024-05-19T08:00:00.000Z', updated: null, summary: '<p>Hi</p>', content: null, author: null,
          categories: ['News'], enclosures: [], thumbnail: 'https://cli.example.com/t.jpg',
        },
      ],
    });
  });

  it('fetches a URL through the Fetcher; the final URL is the base', async () => {
    const c = capture();
    const code = await main([`${origin}/moved`], c.io);
    expect(c.err.join('')).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(c.out.join(''));
    expect(doc.entries[0].link).toBe(`${origin}/feeds/posts/1`);
    expect(doc.feed.link).toBe(`${origin}/`);
  });

  it.each([
    ['a page that is not a feed', () => [join(dir, 'page.html')], /^newsagg parse-feed: PARSE_UNSUPPORTED: .+\n$/],
    ['a missing file', () => [join(dir, 'nope.xml')], /^newsagg parse-feed: INPUT_UNREADABLE: cannot read .+nope\.xml: no such file\n$/],
    ['an HTTP error', () => [`${origin}/missing.xml`], /^newsagg parse-feed: FETCH_[A-Z_]+: .+\n$/],
  ])('%s → one line on stderr, exit 1', async (_name, args, pattern) => {
    const c = capture();
    expect(await main(args(), c.io)).toBe(1);
    expect(c.out).toEqual([]);
    expect(c.err.join('')).toMatch(pattern);
  });

  it.each([[[]], [['a.xml', 'b.xml']], [['a.xml', '--base-url']], [['a.xml', '--base-url', 'not a url']], [['--bogus', 'a.xml']]])(
    'usage error %j → exit 2',
    async (argv) => {
      const c = capture();
      expect(await main(argv as string[], c.io)).toBe(2);
      expect(c.err.join('')).toMatch(/usage: newsagg parse-feed/);
    },
  );

  // two `node --import tsx src/cli.ts` start-ups: seconds each on a loaded machine, so more than the default 30 s
  it('runs as a process through src/cli.ts', { timeout: 120_000 }, async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'parse-feed', join(dir, 'feed.xml')], { cwd: process.cwd() });
    expect(JSON.parse(stdout).entries[0].title).toBe('Hello & welcome');
    const failed = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'parse-feed', join(dir, 'page.html')]).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^newsagg parse-feed: PARSE_UNSUPPORTED: /);
  });
});
