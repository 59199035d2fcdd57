import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/simulate.js';
import { get } from './helpers.js';

describe('newsagg simulate', () => {
  it('serves until stopped and prints the base and OPML URLs', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    let url = '';
    const done = main(['--publishers', '12', '--port', '0', '--seed', 'cli'], {
      out: (l) => lines.push(l), err: (l) => lines.push(l), signal: stop.signal, onReady: (u) => { url = u; },
    });
    while (!url) await new Promise((r) => setTimeout(r, 10));
    expect(lines[0]).toContain(`${url}/`);
    expect(lines[1]).toBe(`opml: ${url}/opml.xml`);
    const opml = await get(`${url}/opml.xml`);
    expect(opml.status).toBe(200);
    expect((opml.text.match(/<outline /g) ?? []).length).toBe(12);
    stop.abort();
    expect(await done).toBe(0);
    expect(lines.at(-1)).toBe('simulator: stopped');
  });

  it.each([
    [['--publishers', 'many']],
    [['--publishers', '0']],
    [['--port', '70000']],
    [['--speed', '-2']],
    [['--bogus']],
  ])('rejects %j with exit code 2 and usage', async (argv) => {
    const err: string[] = [];
    expect(await main(argv, { out: () => undefined, err: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toContain('usage: newsagg simulate');
  });
});
