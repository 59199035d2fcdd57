import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOpml } from '../../src/actors/publisher/opml.js';
import { main as exportMain } from '../../src/cli/export-opml.js';
import { main as importMain, progressLine, type Io } from '../../src/cli/import-opml.js';

/** The OPML commands against real embedded Postgres (PGlite) in a temporary data dir. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'newsagg-opml-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function io(opts: { tty?: boolean } = {}): Io & { stdout: string; stderr: string } {
  const o = {
    stdout: '',
    stderr: '',
    out: (s: string) => void (o.stdout += s),
    err: (s: string) => void (o.stderr += s),
    tty: opts.tty ?? false,
    readStdin: async () => '',
    env: {},
  };
  return o;
}

function bigOpml(n: number): string {
  const sections = ['Technology', 'Sports', 'World'];
  const body = sections
    .map((s, si) => {
      const rows = Array.from({ length: n / sections.length }, (_, i) => `<outline text="Outlet ${si}-${i}" xmlUrl="https://outlet${si}-${i}.example/rss" htmlUrl="https://outlet${si}-${i}.example/" newsagg:country="de"/>`);
      return `<outline text="${s}">${rows.join('\n')}</outline>`;
    })
    .join('\n');
  const bad = `<outline text="dup" xmlUrl="https://outlet0-0.example/rss"/><outline text="bad" xmlUrl="mailto:someone@example.com"/>`;
  return `<?xml version="1.0"?><opml version="2.0"><head><title>Big list</title></head><body>${body}${bad}</body></opml>`;
}

describe('newsagg import-opml / export-opml', () => {
  it('imports a large file with a progress bar, reports problems, and is idempotent', { timeout: 240_000 }, async () => {
    const file = join(dir, 'big.opml');
    await writeFile(file, bigOpml(1200));
    const a = io();
    expect(await importMain([file, '--data-dir', dir, '--progress'], a)).toBe(0);
    expect(a.stdout).toContain('imported 1200 new publishers');
    expect(a.stdout).toContain('2 outline(s) skipped');
    expect(a.stdout).toMatch(/duplicate of an earlier outline \(https:\/\/outlet0-0\.example\/rss\)/);
    expect(a.stdout).toMatch(/not an http\(s\) URL \(mailto:someone@example\.com\)/);
    expect(a.stderr).toContain('\r' + progressLine(1200, 1200));

    const b = io();
    expect(await importMain([file, '--data-dir', dir], b)).toBe(0);
    expect(b.stdout).toContain('imported 0 new publishers');
    expect(b.stdout).toContain('1200 already present');
    expect(b.stderr).toBe(''); // no bar: not a terminal, not asked for

    const out = join(dir, 'export.opml');
    const c = io();
    expect(await exportMain(['--data-dir', dir, '--output', out], c)).toBe(0);
    const { readFile } = await import('node:fs/promises');
    const back = parseOpml(await readFile(out, 'utf8'));
    expect(back.problems).toEqual([]);
    expect(back.feeds).toHaveLength(1200);
    const one = back.feeds.find((f) => f.feed_url === 'https://outlet1-7.example/rss')!;
    expect(one).toMatchObject({ name: 'Outlet 1-7', category: 'sports', country: 'DE', site_url: 'https://outlet1-7.example/' });
  });

  it.each([
    [['--data-dir'], 2, /--data-dir needs a directory/],
    [[], 2, /missing FILE/],
    [['a', 'b'], 2, /unexpected argument b/],
    [['x', '--country', 'Germany'], 2, /ISO 3166-1/],
    [['x', '--frobnicate'], 2, /unknown option --frobnicate/],
  ])('usage errors: %j → exit %i', async (argv, code, msg) => {
    const o = io();
    expect(await importMain(argv, o)).toBe(code);
    expect(o.stderr).toMatch(msg);
  });

  it('fails with one clear line for a file that is not OPML or does not exist', async () => {
    const file = join(dir, 'feed.xml');
    await writeFile(file, '<rss version="2.0"><channel><title>x</title></channel></rss>');
    const o = io();
    expect(await importMain([file, '--dry-run'], o)).toBe(1);
    expect(o.stderr).toBe('newsagg import-opml: the document is not OPML (no <opml> root)\n');
    const m = io();
    expect(await importMain([join(dir, 'missing.opml'), '--dry-run'], m)).toBe(1);
    expect(m.stderr).toMatch(/^newsagg import-opml: cannot read .*missing\.opml/);
  });

  it.each([
    ['truncated inside an attribute', '<opml version="2.0"><body><outline text="a" xmlUrl="'],
    ['an unescaped quote in the only outline', '<opml version="2.0"><body><outline text="a "b" xmlUrl="https://x.example/rss"/></body>'],
  ])('a broken document that yields nothing exits 1 (%s), also in a dry run', async (_what, text) => {
    const file = join(dir, 'broken.opml');
    await writeFile(file, text);
    for (const extra of [['--dry-run'], ['--data-dir', dir]]) {
      const o = io();
      expect(await importMain([file, ...extra], o)).toBe(1);
      expect(o.stderr).toMatch(/broken\.opml is not well-formed XML and nothing was imported from it\n$/);
    }
  });

  it('a broken document exits 0 while it adds feeds, 1 once nothing new comes from it; a valid empty list exits 0', async () => {
    const file = join(dir, 'half-broken.opml');
    // the scanner still reads the first outline; the second breaks the XML
    await writeFile(file, '<opml version="2.0"><body><outline text="ok" xmlUrl="https://half.example/rss"/><outline text="x "y" xmlUrl="https://half2.example/rss"</body>');
    const first = io();
    expect(await importMain([file, '--data-dir', dir], first)).toBe(0);
    expect(first.stdout).toMatch(/imported [1-9]\d* new publishers/);
    expect(first.stdout).toContain('malformed XML');
    const again = io();
    expect(await importMain([file, '--data-dir', dir], again)).toBe(1);
    expect(again.stdout).toContain('imported 0 new publishers');
    const empty = join(dir, 'empty.opml');
    await writeFile(empty, '<opml version="2.0"><head><title>none yet</title></head><body></body></opml>');
    const e = io();
    expect(await importMain([empty, '--data-dir', dir], e)).toBe(0);
    expect(e.stderr).toBe('');
  });

  it('progress line', () => {
    expect(progressLine(0, 10, 10)).toBe('importing [----------]   0% 0/10');
    expect(progressLine(5_000, 10_000, 10)).toBe('importing [#####-----]  50% 5,000/10,000');
    expect(progressLine(3, 0, 4)).toBe('importing [####] 100% 3/0');
  });
});
