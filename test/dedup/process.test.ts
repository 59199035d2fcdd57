import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/process.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { ProcessPipeline, processLines, type LineResult } from '../../src/actors/pipeline/process.js';
import { STORIES, syndicate } from './fixtures/stories.js';

const dir = mkdtempSync(join(tmpdir(), 'newsagg-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function article(over: Record<string, unknown>, story = 0, variant: number | null = null): string {
  const f = variant === null ? STORIES[story]! : syndicate(STORIES[story]!, variant);
  return JSON.stringify({ url: `https://example.com/s/${story}`, title: f.title, summary: f.text.slice(0, 300), publisher: 'p1', published_at: '2024-06-01T10:00:00Z', ...over });
}

async function run(lines: string[]): Promise<LineResult[]> {
  const p = await ProcessPipeline.create();
  const out: LineResult[] = [];
  for await (const r of processLines(p, Readable.from(lines), 3)) out.push(r);
  return out;
}

const KEYS = ['id', 'url', 'duplicate_of', 'story_id', 'category', 'region', 'language', 'entities', 'simhash'];

describe('process pipeline', () => {
  it('prints one result per input line, in input order, with the contract shape', async () => {
    const lines = [
      article({ id: 'a' }, 0),
      article({ id: 'b', url: 'https://other.example.org/x' }, 1),
      article({ id: 'a-copy', url: 'https://wire.example.net/1', publisher: 'p2', published_at: '2024-06-01T11:00:00Z' }, 0, 0),
      article({ id: 'n1', url: 'https://example.com/n1' }, 3),
      article({ id: 'n2', url: 'https://example.com/n2' }, 4),
      article({ id: 'b-copy', url: 'https://wire.example.net/2', published_at: '2024-06-01T12:00:00Z' }, 1, 2),
    ];
    const out = await run(lines);
    expect(out.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);
    const rows = out.map((r) => ('output' in r ? r.output : null));
    for (const row of rows) {
      expect(Object.keys(row!)).toEqual(KEYS);
      expect(row!.simhash).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(rows.map((r) => [r!.id, r!.duplicate_of])).toEqual([
      ['a', null], ['b', null], ['a-copy', 'a'], ['n1', null], ['n2', null], ['b-copy', 'b'],
    ]);
  });

  it('derives a stable id from the canonical URL when none is given: the id a node gives the same article', async () => {
    const [a] = await run([article({ url: 'https://www.example.com/s/9?utm_source=rss' })]);
    const [b] = await run([article({ url: 'http://example.com/s/9/' })]);
    expect('output' in a! && a.output.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect('output' in a! && a.output.id).toBe('output' in b! && b.output.id);
    const [node] = prepareBatch([{ url: 'https://example.com/s/9', title: 'x', publisher: 'p', published_at: null }], Date.now()).ok;
    expect('output' in a! && a.output.id).toBe(node!.id);
  });

  it('takes the URL host as publisher when the publisher is missing or empty', async () => {
    const out = await run([
      article({ id: 'np1', publisher: undefined, url: 'https://news.example.org/a' }, 0),
      article({ id: 'np2', publisher: '', url: 'https://other.example.net/b' }, 1),
      article({ id: 'np3', publisher: null, url: 'https://third.example.com/c' }, 2),
    ]);
    expect(out.map((r) => ('output' in r ? r.output.id : r.error.code))).toEqual(['np1', 'np2', 'np3']);
  });

  it('cleans text the database would refuse and goes on (NUL, control characters, lone surrogates)', async () => {
    const out = await run([
      article({ id: 'nul', title: 'Floods\u0000 hit the\u0007 valley \ud800 again' }, 0),
      article({ id: 'ok', url: 'https://example.com/ok' }, 1),
    ]);
    expect(out.map((r) => ('output' in r ? r.output.id : r.error.code))).toEqual(['nul', 'ok']);
  });

  it('answers every line of a run full of bad lines, each error naming its line and id', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      if (i % 4 === 0) lines.push('{"oops":');
      else if (i % 4 === 1) lines.push(JSON.stringify({ id: `bad${i}`, url: 'mailto:x@example.com', title: 't', publisher: 'p', published_at: '2024-06-01T00:00:00Z' }));
      else if (i % 4 === 2) lines.push(JSON.stringify({ id: `nodate${i}`, url: `https://example.com/d${i}`, title: 't', publisher: 'p' }));
      else lines.push(article({ id: `good${i}`, url: `https://example.com/g${i}` }, i % 5));
    }
    const out = await run(lines);
    expect(out.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
    out.forEach((r, i) => {
      if (i % 4 === 3) expect(r).toMatchObject({ output: { id: `good${i}` } });
      else if (i % 4 === 0) expect(r).toMatchObject({ id: null, error: { code: 'INVALID_JSON' } });
      else if (i % 4 === 1) expect(r).toMatchObject({ id: `bad${i}`, error: { code: 'INVALID_URL' } });
      else expect(r).toMatchObject({ id: `nodate${i}`, error: { code: 'INVALID_ARTICLE' } });
    });
  });

  it('treats a republished entry (new guid, retitled) at the same URL as an update of the article', async () => {
    const out = await run([
      article({ id: 'guid-1' }, 0),
      article({ id: 'guid-2', url: 'https://m.example.com/s/0?fbclid=z', title: 'A wholly different headline now' }, 0),
      article({ id: 'copy', url: 'https://wire.example.net/7' }, 0, 1),
    ]);
    const ids = out.map((r) => ('output' in r ? [r.output.id, r.output.duplicate_of] : null));
    expect(ids).toEqual([['guid-1', null], ['guid-1', null], ['copy', 'guid-1']]);
  });

  it.each([
    ['not json at all', 'INVALID_JSON', /JSON/],
    [JSON.stringify({ title: 'no url', publisher: 'p', published_at: '2024-06-01T00:00:00Z' }), 'INVALID_ARTICLE', /url/],
    [JSON.stringify({ url: 'https://e.com/x', title: 't', publisher: 'p', published_at: 'yesterday-ish' }), 'INVALID_DATE', /published_at/],
    [JSON.stringify({ url: 'ftp://e.com/x', title: 't', publisher: 'p', published_at: '2024-06-01T00:00:00Z' }), 'INVALID_URL', /http/],
    ['[1, 2, 3]', 'INVALID_ARTICLE', /expected object/],
  ])('reports a bad line (%s) with its number and goes on', async (bad, code, msg) => {
    const out = await run([article({ id: 'ok1' }, 0), bad, article({ id: 'ok2', url: 'https://example.com/two' }, 1)]);
    expect(out).toHaveLength(3);
    expect(out[1]).toMatchObject({ line: 2, error: { code } });
    expect('error' in out[1]! && out[1].error.message).toMatch(msg);
    expect(out.map((r) => ('output' in r ? r.output.id : 'err'))).toEqual(['ok1', 'err', 'ok2']);
  });
});

describe('newsagg process CLI', () => {
  it('reads --input FILE, writes --output FILE, reports bad lines on stderr and exits 1', async () => {
    const input = join(dir, 'in.jsonl');
    const output = join(dir, 'out.jsonl');
    writeFileSync(input, [article({ id: 'a' }, 0), '{"broken":', '', article({ id: 'c', url: 'https://x.example/c' }, 0, 3)].join('\n') + '\n');
    const err = new PassThrough();
    let errText = '';
    err.on('data', (c) => (errText += c));
    const code = await main(['--input', input, `--output=${output}`], { stdin: Readable.from([]), stdout: new PassThrough(), stderr: err });
    expect(code).toBe(1);
    const lines = readFileSync(output, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ id: 'a', duplicate_of: null });
    expect(lines[1]).toEqual({ line: 2, id: null, error: { code: 'INVALID_JSON', message: expect.any(String) } });
    expect(lines[2]).toMatchObject({ id: 'c', duplicate_of: 'a' });
    expect(errText).toMatch(/^line 2: INVALID_JSON: /);
  });

  it('reads stdin and writes stdout by default, exit 0 when every line is fine', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += c));
    const code = await main([], { stdin: Readable.from([`${article({ id: 'z' }, 2)}\n`]), stdout: out, stderr: new PassThrough() });
    expect(code).toBe(0);
    expect(JSON.parse(text.trim())).toMatchObject({ id: 'z', duplicate_of: null, story_id: 'st_z' });
  });

  it('says clearly when the input file does not exist', async () => {
    const err = new PassThrough();
    let t = '';
    err.on('data', (c) => (t += c));
    expect(await main(['--input', join(dir, 'missing.jsonl')], { stdin: Readable.from([]), stdout: new PassThrough(), stderr: err })).toBe(1);
    expect(t).toMatch(/cannot read .*missing\.jsonl: no such file/);
  });

  it('refuses unknown arguments with exit 2', async () => {
    const err = new PassThrough();
    let t = '';
    err.on('data', (c) => (t += c));
    expect(await main(['--bogus'], { stdin: Readable.from([]), stdout: new PassThrough(), stderr: err })).toBe(2);
    expect(t).toMatch(/unknown option --bogus/);
  });
});
