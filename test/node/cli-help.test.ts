import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main as exportOpml } from '../../src/cli/export-opml.js';
import { main as importOpml, type Io } from '../../src/cli/import-opml.js';
import { main as parseFeed } from '../../src/cli/parse-feed.js';
import { main as processCmd } from '../../src/cli/process.js';
import { main as simulate } from '../../src/cli/simulate.js';

/** Each command's --help explains its options (not one bare usage line); a missing file says so in words. */
function io(): Io & { stdout: string; stderr: string } {
  const o = {
    stdout: '', stderr: '', tty: false, env: {},
    out: (s: string) => void (o.stdout += s), err: (s: string) => void (o.stderr += s), readStdin: async () => '',
  };
  return o;
}

function streams() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr }, out: () => out, err: () => err };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('subcommand help and file errors', () => {
  it.each([
    ['import-opml', ['--country CC', '--dry-run', '--progress', '--no-progress', '--data-dir DIR', '--database-url URL', 'Exit status']],
    ['export-opml', ['--output FILE', '--data-dir DIR', 'Exit status']],
    ['parse-feed', ['--base-url URL', 'Exit status']],
    ['process', ['--input FILE|-', '--output FILE|-', 'Exit status']],
    ['simulate', ['--publishers N', '--speed X', '--no-websub', '--demo-url', 'Exit status']],
  ])('%s --help explains every option, on stdout, exit 0', async (cmd, words) => {
    let code: number;
    let text: string;
    if (cmd === 'process') {
      const s = streams();
      code = await processCmd(['--help'], s.io);
      text = s.out();
    } else if (cmd === 'simulate') {
      let out = '';
      code = await simulate(['--help'], { out: (l) => (out += `${l}\n`), err: () => {} });
      text = out;
    } else {
      const o = io();
      code = await (cmd === 'import-opml' ? importOpml : cmd === 'export-opml' ? exportOpml : parseFeed)(['--help'], o);
      text = o.stdout;
      expect(o.stderr).toBe('');
    }
    expect(code).toBe(0);
    expect(text.split('\n').length, text).toBeGreaterThan(8);
    expect(text).toMatch(new RegExp(`^usage: newsagg ${cmd} `));
    for (const w of words) expect(text, `${cmd} --help says ${w}`).toContain(w);
  });

  it('import-opml --help says what --country and --dry-run do', async () => {
    const o = io();
    await importOpml(['--help'], o);
    expect(o.stdout).toMatch(/--country CC\s+the ISO 3166-1 country .* of feeds whose outline\s+names none/);
    expect(o.stdout).toMatch(/--dry-run\s+read and check the file, store nothing/);
  });

  it('a missing file reads "no such file", not a Node error dump', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsagg-cli-files-'));
    dirs.push(dir);
    const missing = join(dir, 'nope.opml');
    const o = io();
    expect(await importOpml([missing, '--dry-run'], o)).toBe(1);
    expect(o.stderr).toBe(`newsagg import-opml: cannot read ${missing}: no such file\n`);
    const p = io();
    expect(await parseFeed([join(dir, 'nope.xml')], p)).toBe(1);
    expect(p.stderr).toBe(`newsagg parse-feed: INPUT_UNREADABLE: cannot read ${join(dir, 'nope.xml')}: no such file\n`);
    const q = io();
    expect(await importOpml([dir, '--dry-run'], q)).toBe(1);
    expect(q.stderr).toBe(`newsagg import-opml: cannot read ${dir}: it is a folder, not a file\n`);
  });
});
