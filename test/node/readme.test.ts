import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOptions } from '../../src/config.js';

/** The README's config table must stay in step with the config table in code. */
describe('README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('opens with the two commands: run the platform, run the tests', () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    expect(blocks.slice(0, 2)).toEqual(['npm ci && npm run build && node dist/cli.js start', 'npm test']);
  });

  it('says where the log goes as the logger does it: JSON lines on stderr, results on stdout', () => {
    expect(readme).toMatch(/the log: JSON lines on\s+stderr/);
    expect(readme).not.toMatch(/logs? (?:on|to) stdout/i);
    expect(readFileSync(new URL('../../src/runtime/log.ts', import.meta.url), 'utf8')).toContain('pino.destination({ fd: 2');
  });

  it('the manual cluster recipe creates the database it uses before starting nodes on it', () => {
    const recipe = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('--node-id a'));
    expect(recipe).toBeDefined();
    const db = /postgres:\/\/[^/\s]+\/(\w+)/.exec(recipe!)![1]!;
    const create = recipe!.indexOf(`createdb -h 127.0.0.1 -U postgres ${db}`);
    expect(create).toBeGreaterThanOrEqual(0);
    expect(create).toBeLessThan(recipe!.indexOf('dist/cli.js start'));
  });

  it('names commands as they run from a checkout (npm ci puts no newsagg on the PATH)', () => {
    expect(readme).toContain('`npx newsagg <command>`');
    expect(readme).not.toMatch(/[^x] `newsagg import-opml FILE` while/);
  });

  it.each(describeOptions().map((o) => [o.flag.replace(' <value>', ''), o] as const))('lists %s with its env var and default', (flag, o) => {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${flag}\` |`));
    expect(row, `no README row for ${flag}`).toBeDefined();
    const cells = row!.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
    expect(cells[2]).toBe(`\`${o.env}\``);
    expect(cells[3]).toBe(o.default);
    expect(cells[4]).toBe(o.doc);
  });
});
