import { createHash } from 'node:crypto';
import { etagOf } from '../hot-cache.js';
import { readQuery } from '../params.js';
import type { Handler, Reply, Request } from '../reply.js';
import type { Router } from '../router.js';
import { ADMIN_JS } from '../web/admin-view.js';
import { CARDS_JS } from '../web/cards.js';
import { CLIENT_JS } from '../web/client.js';
import { DOM_JS } from '../web/dom.js';
import { FEED_JS } from '../web/feed-view.js';
import { FORYOU_JS } from '../web/foryou-view.js';
import { LIVE_JS } from '../web/live-client.js';
import { PUSH_JS } from '../web/push-client.js';
import { INDEX_HTML } from '../web/page.js';
import { STORY_JS } from '../web/story-view.js';
import { APP_CSS } from '../web/styles.js';
import { cachedReply } from './common.js';

/** Scripts and styles only from this origin, no inline code, no framing; images also from https publishers. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self' ws: wss:; "
  + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' };
/** Short: a deploy must reach readers within minutes; ETags make revalidation cheap. */
const STATIC_CACHE = 'public, max-age=300';
const JS = 'text/javascript; charset=utf-8';

/** The client's files by path: the entry script, its modules and the stylesheet. */
const FILES: Record<string, { body: string; type: string }> = {
  '/app.js': { body: CLIENT_JS, type: JS },
  '/live.js': { body: LIVE_JS, type: JS },
  '/ui/dom.js': { body: DOM_JS, type: JS },
  '/ui/cards.js': { body: CARDS_JS, type: JS },
  '/ui/feed.js': { body: FEED_JS, type: JS },
  '/ui/story.js': { body: STORY_JS, type: JS },
  '/ui/foryou.js': { body: FORYOU_JS, type: JS },
  '/ui/admin.js': { body: ADMIN_JS, type: JS },
  '/ui/push.js': { body: PUSH_JS, type: JS },
  '/app.css': { body: APP_CSS, type: 'text/css; charset=utf-8' },
};

/** The app's pages: each is a real URL answered with the same shell (reload, Back and shared links work). */
export const APP_PATHS = ['/', '/index.html', '/search', '/for-you', '/admin', '/story/:id'] as const;

/**
 * One digest over the shell and every file, written where they say `__V__`: every URL the page
 * loads names this build, so a reader never mixes a cached module of the previous deploy with
 * the new ones.
 */
export function webVersion(): string {
  const h = createHash('sha256').update(INDEX_HTML);
  for (const [path, f] of Object.entries(FILES)) h.update(path).update(f.body);
  return h.digest('hex').slice(0, 12);
}

function asset(body: string, type: string): (req: Request) => Reply {
  const etag = etagOf(body);
  return (req) => {
    const r = cachedReply(req, body, etag, STATIC_CACHE, type);
    return { ...r, headers: { ...r.headers, ...SECURITY } };
  };
}

/** The web UI: the shell at every app path, the client's modules (the live module `/live.js` among them) and the stylesheet. */
export function registerWebRoutes(router: Router, wrap: (h: Handler) => Handler): void {
  const v = webVersion();
  const stamp = (s: string) => s.replaceAll('__V__', v);
  const page = asset(stamp(INDEX_HTML), 'text/html; charset=utf-8');
  // query strings on app pages are the view's own (?region=, ?q=) and belong to the client
  for (const path of APP_PATHS) router.get(path, wrap(page));
  for (const [path, f] of Object.entries(FILES)) {
    const serve = asset(stamp(f.body), f.type);
    router.get(path, wrap((req) => (readQuery(req.query, ['v']), serve(req))));
  }
  // browsers ask for it on their own; without one every page view logs a 404 in the console
  router.get('/favicon.ico', wrap(() => ({ status: 204, headers: { 'cache-control': 'public, max-age=86400' } })));
}
