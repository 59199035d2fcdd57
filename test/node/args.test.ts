import { describe, expect, it } from 'vitest';
import { readArgs } from '../../src/cli/args.js';

const flags = { 'data-dir': { type: 'string', needs: 'a directory' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

describe('readArgs: util.parseArgs with one plain line per mistake', () => {
  it.each([
    [['--bogus'], 'unknown option --bogus'],
    [['--bogus=1'], 'unknown option --bogus'],
    [['-z'], 'unknown option -z'],
    [['--data-dir'], '--data-dir needs a directory'],
    [['--data-dir', '--dry-run'], '--data-dir needs a directory'],
    [['--data-dir='], '--data-dir needs a directory'],
    [['--dry-run=yes'], '--dry-run takes no value'],
    [['a', 'b'], 'unexpected argument b'],
  ])('%j → %s', (argv, message) => {
    expect(readArgs(argv, flags, 1)).toBe(message);
  });

  it('passes an empty value given as its own argument on when asked (the option table judges it), never an empty inline one', () => {
    expect(readArgs(['--data-dir', ''], flags, 0, true)).toEqual({ values: { 'data-dir': '' }, positionals: [] });
    expect(readArgs(['--data-dir='], flags, 0, true)).toBe('--data-dir needs a directory');
  });

  it('reads values, inline values, shorts and positionals', () => {
    expect(readArgs(['--data-dir=/x', '-h', 'file'], flags, 1)).toEqual({ values: { 'data-dir': '/x', help: true }, positionals: ['file'] });
    expect(readArgs(['--data-dir', '/y', '--dry-run'], flags, 0)).toEqual({ values: { 'data-dir': '/y', 'dry-run': true }, positionals: [] });
  });
});
