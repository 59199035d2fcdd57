import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, REGIONS } from '../../src/actors/model/index.js';

/**
 * The house's plain rules, checked on the source text: no import circles, nothing imported back
 * up the floors, and one taxonomy (no second hand-written list of sections or editions).
 */

const SRC = resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = sources(SRC);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** Value imports (not `import type`) of project files, resolved to their .ts paths. */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of text.get(file)!.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
    const base = resolve(dirname(file), m[1]!).replace(/\.js$/, '');
    const hit = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (hit) out.push(hit);
  }
  return out;
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Strongly connected components of more than one file (Tarjan). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(relative(SRC, w));
      } while (w !== v);
      if (c.length > 1) found.push(c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const folder = (f: string): string => relative(SRC, f).split('/').slice(0, 2).join('/');

describe('the house', () => {
  it('has no import circles', () => {
    expect(circles()).toEqual([]);
  });

  it('never imports up the floors: runtime below actors below api', () => {
    const bad: string[] = [];
    for (const [f, deps] of graph) {
      const from = relative(SRC, f);
      for (const d of deps) {
        const to = relative(SRC, d);
        if (from.startsWith('runtime/') && !to.startsWith('runtime/')) bad.push(`${from} -> ${to}`);
        if (from.startsWith('actors/') && !to.startsWith('actors/') && !to.startsWith('runtime/')) bad.push(`${from} -> ${to}`);
        if (from.startsWith('actors/model/') && !to.startsWith('actors/model/')) bad.push(`${from} -> ${to}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps one taxonomy: no other hand-written list of sections or editions', () => {
    const sections = new Set<string>(CATEGORIES);
    const regions = new Set<string>(REGIONS);
    const bad: string[] = [];
    for (const [f, src] of text) {
      if (f.endsWith(join('model', 'taxonomy.ts'))) continue;
      for (const m of src.matchAll(/\[([^[\]]*)\]/g)) {
        const words = [...m[1]!.matchAll(/['"]([a-z]+)['"]/g)].map((w) => w[1]!);
        if (words.filter((w) => sections.has(w)).length >= 4 || words.filter((w) => regions.has(w)).length >= 4) {
          bad.push(`${folder(f)}: ${relative(SRC, f)}: [${m[1]!.slice(0, 60)}]`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
