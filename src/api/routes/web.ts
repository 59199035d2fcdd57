import { etagOf } from '../hot-cache.js';
import { readQuery } from '../params.js';
import type { Handler, Reply, Request } from '../reply.js';
import type { Router } from '../router.js';
import { CLIENT_JS } from '../web/client.js';
import { LIVE_JS } from '../web/live-client.js';
import { APP_CSS, INDEX_HTML } from '../web/page.js';
import { cachedReply } from './common.js';

/** Scripts and styles only from this origin, no inline code, no framing; images also from https publishers. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self' ws: wss:; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' };
/** Short: a deploy must reach readers within minutes; ETags make revalidation cheap. */
const STATIC_CACHE = 'public, max-age=300';

function asset(body: string, type: string): (req: Request) => Reply {
  const etag = etagOf(body);
  return (req) => {
    const r = cachedReply(req, body, etag, STATIC_CACHE, type);
    return { ...r, headers: { ...r.headers, ...SECURITY } };
  };
}

/** The web UI: the page at `/`, its scripts (`/app.js`, the live module `/live.js`) and stylesheet. Query strings are allowed on `/` (shared links). */
export function registerWebRoutes(router: Router, wrap: (h: Handler) => Handler): void {
  const page = asset(INDEX_HTML, 'text/html; charset=utf-8');
  const js = asset(CLIENT_JS, 'text/javascript; charset=utf-8');
  const css = asset(APP_CSS, 'text/css; charset=utf-8');
  const liveJs = asset(LIVE_JS, 'text/javascript; charset=utf-8');
  router.get('/', wrap(page));
  router.get('/index.html', wrap(page));
  router.get('/app.js', wrap((req) => (readQuery(req.query, ['v']), js(req))));
  router.get('/app.css', wrap((req) => (readQuery(req.query, ['v']), css(req))));
  router.get('/live.js', wrap((req) => (readQuery(req.query, ['v']), liveJs(req))));
  // browsers ask for it on their own; without one every page view logs a 404 in the console
  router.get('/favicon.ico', wrap(() => ({ status: 204, headers: { 'cache-control': 'public, max-age=86400' } })));
}
