import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { NewsaggError } from '../../runtime/errors.js';

/**
 * The web client's build: esbuild bundles the TypeScript modules under `client/` (and the
 * taxonomy they import from the model) into the served files, `app.js` (the router and views),
 * `live.js` (the live module, a script of its own) and `app.css`, and `worker/` into `sw.js`
 * (the push alerts' service worker), with linked source maps.
 * `npm run build` writes them to dist/web with a manifest; a server started from the sources
 * (tsx) rebuilds them in memory when a source is newer than that manifest, so a test or a dev
 * server never serves a stale client. esbuild is a build tool (a devDependency): a server
 * running from dist only reads dist/web.
 */

/** The repository (or installed package) root: this file is src/api/web/bundle.ts or dist/api/web/bundle.js. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEB_OUT_DIR = join(ROOT, 'dist', 'web');
const CLIENT = 'src/api/web/client';
const MANIFEST = 'manifest.json';
/** this file, as a repository path: a change to the build's options makes a built client stale */
const SELF = 'src/api/web/bundle.ts';

/** The built client: file name (`app.js`, `app.js.map`, …) to contents. */
export interface WebBuild {
  files: Map<string, string>;
  /** repository paths of every source the bundles read */
  inputs: string[];
  /** when the build began (ms since the epoch): a source modified later makes it stale */
  builtAt: number;
}

interface Manifest {
  built_at: number;
  inputs: string[];
  files: string[];
}

/** The web client is not built and cannot be built here (a server run from dist without dist/web). */
export class WebClientMissingError extends NewsaggError {
  constructor(dir: string, cause?: unknown) {
    super('WEB_CLIENT_MISSING', `the web client is not built (no ${join(dir, MANIFEST)}): run "npm run build"`, { cause });
  }
}

function options(): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: [
      { in: `${CLIENT}/app.ts`, out: 'app' },
      { in: `${CLIENT}/live.ts`, out: 'live' },
      { in: `${CLIENT}/app.css`, out: 'app' },
      { in: 'src/api/web/worker/service-worker.ts', out: 'sw' },
    ],
    outdir: 'dist/web',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    charset: 'utf8',
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
}

type Esbuild = typeof import('esbuild');

/** esbuild, when installed (it is a devDependency); null in a production install. */
function loadEsbuild(): Esbuild | null {
  try {
    return createRequire(import.meta.url)('esbuild') as Esbuild;
  } catch {
    return null;
  }
}

/** Bundles the client in memory (synchronously: a few tens of milliseconds). */
export function buildWebClient(): WebBuild {
  const esbuild = loadEsbuild();
  if (esbuild === null) throw new WebClientMissingError(WEB_OUT_DIR, new Error('esbuild is not installed'));
  const builtAt = Date.now();
  const result = esbuild.buildSync(options());
  const files = new Map<string, string>();
  for (const f of result.outputFiles ?? []) files.set(relative(join(ROOT, 'dist', 'web'), f.path), f.text);
  const inputs = [...Object.keys(result.metafile?.inputs ?? {}), SELF].sort();
  return { files, inputs, builtAt };
}

/** Writes a build to `dir`, each file whole (written aside, then renamed), the manifest last. */
export function writeWebClient(build: WebBuild, dir = WEB_OUT_DIR): void {
  mkdirSync(dir, { recursive: true });
  const put = (name: string, text: string) => {
    const tmp = join(dir, `.${name}.${process.pid}.tmp`);
    mkdirSync(dirname(tmp), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, join(dir, name));
  };
  for (const [name, text] of build.files) put(name, text);
  const manifest: Manifest = { built_at: build.builtAt, inputs: build.inputs, files: [...build.files.keys()].sort() };
  put(MANIFEST, JSON.stringify(manifest, null, 2) + '\n');
}

/** The build in `dir`, or null when there is none (or it is unreadable). */
export function readWebClient(dir = WEB_OUT_DIR): WebBuild | null {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
    const files = new Map(manifest.files.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
    return { files, inputs: manifest.inputs, builtAt: manifest.built_at };
  } catch {
    return null;
  }
}

/** True when a source the build read was modified after it began (sources absent, as in a package, never are). */
export function isStale(build: WebBuild): boolean {
  for (const input of build.inputs) {
    try {
      if (statSync(join(ROOT, input)).mtimeMs > build.builtAt) return true;
    } catch {
      // a removed source: whatever imported it changed too
    }
  }
  return false;
}

/**
 * The client to serve. From dist: dist/web as built (missing = WebClientMissingError). From the
 * sources (tsx: tests, `npm run cluster`, a dev server): dist/web while it is current, else a
 * fresh bundle in memory (never written: parallel test workers must not race on dist/web).
 */
export function loadWebClient(fromSources = import.meta.url.endsWith('.ts'), dir = WEB_OUT_DIR): WebBuild {
  const built = readWebClient(dir);
  if (!fromSources) {
    if (built === null) throw new WebClientMissingError(dir);
    return built;
  }
  return built !== null && !isStale(built) ? built : buildWebClient();
}
