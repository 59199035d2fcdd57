import { parseArgs } from 'node:util';

/**
 * Every subcommand's argv goes through `util.parseArgs` (strict), and its errors come back as one
 * plain line for `newsagg <cmd>: <line>`: `unknown option --x`, `--data-dir needs a directory`,
 * `unexpected argument b`. `needs` names what each string option takes, for that message.
 */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** what a string option takes, e.g. 'a directory' */
  needs?: string;
}

export interface ReadArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** `allowEmpty`: an empty value given as its own argument (`--x ''`) is passed on for the caller to judge. */
export function readArgs(argv: readonly string[], flags: Record<string, FlagSpec>, maxPositionals = 0, allowEmpty = false): ReadArgs | string {
  const options = Object.fromEntries(Object.entries(flags).map(([k, f]) => [k, f.short ? { type: f.type, short: f.short } : { type: f.type }]));
  let parsed: ReadArgs;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true }) as ReadArgs;
  } catch (err) {
    return plainError(err, flags);
  }
  if (parsed.positionals.length > maxPositionals) return `unexpected argument ${parsed.positionals[maxPositionals]}`;
  for (const [k, f] of Object.entries(flags)) {
    if (f.type !== 'string' || parsed.values[k] !== '') continue;
    if (!allowEmpty || argv.includes(`--${k}=`)) return `--${k} needs ${f.needs ?? 'a value'}`;
  }
  return parsed;
}

function plainError(err: unknown, flags: Record<string, FlagSpec>): string {
  const e = err as { code?: string; message?: string };
  const named = /'(-{1,2}[^' ]+)/.exec(e.message ?? '')?.[1] ?? '';
  const name = named.replace(/^-+/, '').replace(/=.*$/, '');
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${named.startsWith('--') ? named.replace(/=.*$/, '') : named}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const f = flags[name];
    return f?.type === 'boolean' ? `--${name} takes no value` : `--${name} needs ${f?.needs ?? 'a value'}`;
  }
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''}`;
  return e.message ?? String(err);
}
