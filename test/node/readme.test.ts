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

  it.each(describeOptions().map((o) => [o.flag.replace(' <value>', ''), o] as const))('lists %s with its env var and default', (flag, o) => {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${flag}\` |`));
    expect(row, `no README row for ${flag}`).toBeDefined();
    const cells = row!.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
    expect(cells[2]).toBe(`\`${o.env}\``);
    expect(cells[3]).toBe(o.default);
    expect(cells[4]).toBe(o.doc);
  });
});
