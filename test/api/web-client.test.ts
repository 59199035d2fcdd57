import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_NAMES, REGIONS, REGION_NAMES } from '../../src/actors/model/index.js';
import { buildWebClient, isStale, loadWebClient, readWebClient, ROOT, WebClientMissingError, writeWebClient } from '../../src/api/web/bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'newsagg-webclient-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under a folder, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const p = join(folder, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the web client build', () => {
  const build = buildWebClient();

  it('bundles the app, the live module, the stylesheet and the service worker, with their source maps, from the client sources and the model', () => {
    expect([...build.files.keys()].sort()).toEqual(['app.css', 'app.css.map', 'app.js', 'app.js.map', 'live.js', 'live.js.map', 'sw.js', 'sw.js.map']);
    expect(build.inputs).toEqual(expect.arrayContaining(['src/actors/model/taxonomy.ts', 'src/api/web/client/app.ts', 'src/api/web/client/live.ts', 'src/api/web/client/app.css']));
    // the live module stands alone: no views in it
    expect(build.files.get('live.js')).not.toContain('Full Coverage');
    // the service worker is a classic script: nothing of a module in it
    expect(build.files.get('sw.js')).not.toMatch(/^\s*(import|export)\b/m);
    for (const [name, text] of build.files) if (name.endsWith('.js')) expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('takes the sections and editions, with their names, from the model (no copy of the taxonomy in the web client)', () => {
    const app = build.files.get('app.js')!;
    for (const id of [...CATEGORIES, ...REGIONS]) expect(app).toContain(`"${id}"`);
    for (const name of [...Object.values(CATEGORY_NAMES), ...Object.values(REGION_NAMES)]) expect(app).toContain(name);
    // a second list would name a section or region that only the taxonomy names
    const copies = filesUnder(join(ROOT, 'src/api/web')).filter((f) => /['"](latam|entertainment)['"]|Middle East/.test(readFileSync(f, 'utf8')));
    expect(copies).toEqual([]);
  });

  it('is written whole and read back; a source modified after the build makes it stale', () => {
    const out = join(dir, 'web');
    writeWebClient(build, out);
    const read = readWebClient(out)!;
    expect(read.files).toEqual(build.files);
    expect(read.inputs).toEqual(build.inputs);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(isStale(read)).toBe(false);
    expect(isStale({ ...read, builtAt: statSync(join(ROOT, 'src/api/web/client/dom.ts')).mtimeMs - 1 })).toBe(true);
    // inputs that are not there (an installed package has no sources) never make it stale
    expect(isStale({ ...read, inputs: ['src/api/web/client/gone.ts'], builtAt: 0 })).toBe(false);
  });

  it('a server run from dist refuses to start without a built client; one run from the sources bundles it in memory', () => {
    const empty = join(dir, 'empty');
    expect(() => loadWebClient(false, empty)).toThrow(WebClientMissingError);
    expect(() => loadWebClient(false, empty)).toThrow(/npm run build/);
    const fromSources = loadWebClient(true, empty);
    expect(fromSources.files.get('app.js')).toBe(build.files.get('app.js'));
    expect(readWebClient(empty)).toBeNull(); // nothing written
  });

  it('is type-checked with the DOM library by npm run typecheck, and bundled by npm run build', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.typecheck).toContain('tsc -p src/api/web/client/tsconfig.json');
    expect(pkg.scripts.typecheck).toContain('tsc -p src/api/web/worker/tsconfig.json');
    expect(pkg.scripts.build).toContain('scripts/build-web.ts');
    const client = JSON.parse(readFileSync(join(ROOT, 'src/api/web/client/tsconfig.json'), 'utf8')) as { compilerOptions: { lib: string[]; types: string[] } };
    expect(client.compilerOptions.lib).toContain('DOM');
    expect(client.compilerOptions.types).toEqual([]); // no Node in the browser
  });
});
