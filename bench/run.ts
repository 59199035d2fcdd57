/**
 * `npm run bench [-- name ...]`: runs each benchmark module `bench/<name>.ts` (its exported
 * `run()`), merges the figures into bench/results/latest.json and rewrites the Markdown table
 * bench/results/latest.md that the README quotes. Speeds are reported beside a reference
 * measured in the same run because this 2-core machine is shared and drifts ±30 %.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, 'results');
const jsonPath = join(resultsDir, 'latest.json');
const skip = new Set(['run', 'quiet']);

type Figures = Record<string, number | string | boolean>;

async function waitQuiet(maxWaitMs = 30_000): Promise<boolean> {
  const until = Date.now() + maxWaitMs;
  while (Date.now() < until) {
    if (loadavg()[0]! < 0.5) return true;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  return loadavg()[0]! < 0.5;
}

function available(): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('train') && !f.startsWith('build') && !skip.has(basename(f, '.ts')))
    .map((f) => basename(f, '.ts'))
    .sort();
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length ? wanted : available();
  const unknown = names.filter((n) => !existsSync(join(here, `${n}.ts`)));
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available().join(', ')}`);
    process.exit(2);
  }
  const all: Record<string, Figures> = existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as Record<string, Figures>) : {};
  for (const name of names) {
    const quiet = await waitQuiet();
    console.log(`\n== ${name}${quiet ? '' : ' (machine NOT quiet: load average ≥ 0.5)'}`);
    const mod = (await import(join(here, `${name}.ts`))) as { run: () => Promise<Figures> };
    const figures = await mod.run();
    all[name] = { ...figures, measured_at: new Date().toISOString(), quiet };
    for (const [k, v] of Object.entries(figures)) console.log(`  ${name}.${k} = ${typeof v === 'number' ? round(v) : v}`);
    writeFileSync(jsonPath, JSON.stringify(all, null, 2) + '\n');
  }
  writeFileSync(join(resultsDir, 'latest.md'), table(all));
  console.log(`\nwrote ${jsonPath}`);
}

function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 1000) / 1000;
}

function table(all: Record<string, Figures>): string {
  const rows = ['| benchmark | figure | value | measured | quiet |', '|---|---|---|---|---|'];
  for (const [name, figs] of Object.entries(all).sort()) {
    for (const [k, v] of Object.entries(figs)) {
      if (k === 'measured_at' || k === 'quiet') continue;
      rows.push(`| ${name} | ${k} | ${typeof v === 'number' ? round(v) : v} | ${String(figs.measured_at).slice(0, 10)} | ${figs.quiet ? 'yes' : 'no'} |`);
    }
  }
  return rows.join('\n') + '\n';
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(1);
});
