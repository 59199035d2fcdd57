import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Reply, Request } from '../../src/api/reply.js';
import { Router } from '../../src/api/router.js';
import { APP_PATHS, registerWebRoutes, webVersion } from '../../src/api/routes/web.js';

const router = new Router();
registerWebRoutes(router, (h) => h);

/** GETs a path (with its query) through the router, as the server would. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Reply & { text: string }> {
  const u = new URL(url, 'http://x');
  const m = router.match('GET', u.pathname);
  if (m === null || !('handler' in m)) return { status: 404, text: '' };
  const req = {
    method: 'GET', path: u.pathname, params: m.params, query: u.searchParams, rawQuery: u.search.slice(1), headers,
    header: (n: string) => headers[n], ip: '127.0.0.1', aborted: false, body: async () => Buffer.alloc(0), json: async () => null,
  } as unknown as Request;
  const r = await m.handler(req);
  return { ...r, text: typeof r.body === 'string' ? r.body : r.body ? Buffer.from(r.body).toString('utf8') : '' };
}

const dir = mkdtempSync(join(tmpdir(), 'newsagg-web-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('web UI routes', () => {
  it.each([...APP_PATHS.map((p) => p.replace(':id', 'st_abc')), '/?region=uk&category=science', '/search?q=earthquake', '/story/st%20x'])('%s answers the app shell', async (path) => {
    const r = await get(path);
    expect(r.status ?? 200).toBe(200);
    expect(r.headers?.['content-type']).toMatch(/^text\/html/);
    expect(r.headers?.['content-security-policy']).toMatch(/script-src 'self'/);
    expect(r.text).toContain(`<script type="module" src="/app.js?v=${webVersion()}"></script>`);
    // the live module's two elements are in the page
    expect(r.text).toContain('<div id="breaking" role="status" aria-live="polite" hidden></div>');
    expect(r.text).toContain('<button id="new-stories" type="button" hidden></button>');
    expect(r.text).not.toContain('__V__');
  });

  it('serves every module the page imports, each a valid ES module stamped with the build, none writing markup', async () => {
    const seen = new Set<string>();
    const queue = ['/app.js'];
    const shell = (await get('/')).text;
    for (const m of shell.matchAll(/(?:href|src)="(\/[^"]+\.(?:js|css))\?v=([0-9a-f]+)"/g)) {
      expect(m[2]).toBe(webVersion());
      queue.push(m[1]!);
    }
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const r = await get(`${path}?v=${webVersion()}`);
      expect(r.status ?? 200, path).toBe(200);
      expect(r.text).not.toContain('__V__');
      if (!path.endsWith('.js')) continue;
      expect(r.headers?.['content-type']).toMatch(/^text\/javascript/);
      expect(r.text, path).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
      const file = join(dir, path.replace(/\//g, '_') + '.mjs');
      writeFileSync(file, r.text);
      const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      expect(check.status, `${path}: ${check.stderr}`).toBe(0);
      for (const m of r.text.matchAll(/^import [^;]+ from '([^']+)';$/gm)) {
        const target = new URL(m[1]!, `http://x${path}`);
        expect(target.searchParams.get('v'), `${path} imports ${m[1]}`).toBe(webVersion());
        queue.push(target.pathname);
      }
    }
    // one bundle for the app, one for the live module (run first), one stylesheet
    expect([...seen].sort()).toEqual(['/app.css', '/app.js', '/live.js']);
  });

  it.each(['/app.js', '/live.js', '/app.css'])('%s is immutable under this build\'s digest, short-lived without it, and its source map is served', async (path) => {
    const versioned = await get(`${path}?v=${webVersion()}`);
    expect(versioned.headers?.['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers?.['content-security-policy']).toMatch(/script-src 'self'/);
    // a page of another build (or none) asking: it gets this build's file, to be revalidated soon
    for (const other of [path, `${path}?v=000000000000`]) expect((await get(other)).headers?.['cache-control']).toBe('public, max-age=300');
    const map = /sourceMappingURL=(\S+)/.exec(versioned.text)?.[1];
    expect(map, 'a linked source map').toBe(`${path.slice(1)}.map`);
    const m = await get(`/${map}`);
    expect(m.headers?.['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(m.text).sources.some((s: string) => s.includes('src/api/web/client/'))).toBe(true);
  });

  it('answers 304 to a client holding the current file, and refuses unknown parameters on files', async () => {
    const first = await get('/app.js');
    const again = await get('/app.js', { 'if-none-match': String(first.headers?.etag) });
    expect(again.status).toBe(304);
    await expect(get('/app.js?x=1')).rejects.toMatchObject({ code: 'unknown_parameter' });
  });
});
