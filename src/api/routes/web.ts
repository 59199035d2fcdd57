import { createHash } from 'node:crypto';
import { etagOf } from '../hot-cache.js';
import { readQuery } from '../params.js';
import type { Handler, Reply, Request } from '../reply.js';
import type { Router } from '../router.js';
import { loadWebClient, type WebBuild } from '../web/bundle.js';
import { ICON_SVG, MANIFEST_JSON } from '../web/manifest.js';
import { INDEX_HTML } from '../web/page.js';
import { cachedReply } from './common.js';

/** Scripts and styles only from this origin, no inline code, no framing; images also from https publishers. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self' ws: wss:; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' };
/** The shell and unversioned files: a deploy must reach readers within minutes; ETags make revalidation cheap. */
const SHORT_CACHE = 'public, max-age=300';
/** A file asked for by this build's digest (`?v=`): its contents never change under that URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
};

/** The app's pages: each is a real URL answered with the same shell (reload, Back and shared links work). */
export const APP_PATHS = ['/', '/index.html', '/search', '/for-you', '/saved', '/local', '/admin', '/story/:id'] as const;

let client: WebBuild | null = null;
/** The bundled client (dist/web, or built from the sources when run by tsx), loaded once per process. */
function webClient(): WebBuild {
  client ??= loadWebClient();
  return client;
}

/** Files served with a cache policy of their own: the service worker (checked for updates on every registration). */
const SERVED_ELSEWHERE = new Set(['sw.js']);

/** A file of the bundled client by name (`sw.js`), for the routes that serve it themselves. */
export function webClientFile(name: string): string {
  const body = webClient().files.get(name);
  if (body === undefined) throw new Error(`the web client has no ${name}`);
  return body;
}

/**
 * One digest over the shell and every bundle, written where they say `__V__`: every URL the page
 * loads names this build, so a reader never mixes a cached file of the previous deploy with the
 * new ones, and each can be cached for a year.
 */
export function webVersion(): string {
  const h = createHash('sha256').update(INDEX_HTML);
  for (const [name, body] of [...webClient().files].sort(([a], [b]) => a.localeCompare(b))) h.update(name).update(body);
  return h.digest('hex').slice(0, 12);
}

function withSecurity(r: Reply): Reply {
  return { ...r, headers: { ...r.headers, ...SECURITY } };
}

/** A file of the client: immutable under this build's `?v=`, else short-lived (a page of another build asks). */
function asset(body: string, type: string, version: string): (req: Request) => Reply {
  const etag = etagOf(body);
  return (req) => {
    const v = readQuery(req.query, ['v']).get('v');
    return withSecurity(cachedReply(req, body, etag, v === version ? IMMUTABLE : SHORT_CACHE, type));
  };
}

/**
 * The web UI: the shell at every app path, the client's bundles (`/app.js`, `/live.js`, `/app.css`,
 * their source maps), the service worker (`/sw.js`, at the root so its scope is the whole app;
 * revalidated on every check), the web app manifest and its icon.
 */
export function registerWebRoutes(router: Router, wrap: (h: Handler) => Handler): void {
  const v = webVersion();
  const shell = INDEX_HTML.replaceAll('__V__', v);
  const shellEtag = etagOf(shell);
  const page = (req: Request) => withSecurity(cachedReply(req, shell, shellEtag, SHORT_CACHE, 'text/html; charset=utf-8'));
  // query strings on app pages are the view's own (?region=, ?q=) and belong to the client
  for (const path of APP_PATHS) router.get(path, wrap(page));
  for (const [name, body] of webClient().files) {
    const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (type !== undefined && !SERVED_ELSEWHERE.has(name)) router.get(`/${name}`, wrap(asset(body, type, v)));
  }
  const sw = webClient().files.get('sw.js');
  if (sw !== undefined) {
    const swTag = etagOf(sw);
    router.get('/sw.js', wrap((req) => withSecurity(cachedReply(req, sw, swTag, 'no-cache', TYPES.js!))));
  }
  const manifestTag = etagOf(MANIFEST_JSON);
  router.get('/manifest.webmanifest', wrap((req) => withSecurity(cachedReply(req, MANIFEST_JSON, manifestTag, SHORT_CACHE, 'application/manifest+json; charset=utf-8'))));
  const iconTag = etagOf(ICON_SVG);
  router.get('/icon.svg', wrap((req) => withSecurity(cachedReply(req, ICON_SVG, iconTag, 'public, max-age=86400', 'image/svg+xml'))));
  // browsers ask for it on their own; without one every page view logs a 404 in the console
  router.get('/favicon.ico', wrap(() => ({ status: 204, headers: { 'cache-control': 'public, max-age=86400' } })));
}
