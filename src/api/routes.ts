import { openApiDocument } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerArticleRoutes } from './routes/articles.js';
import { registerAtomRoutes } from './routes/atom.js';
import { bearerToken, clientIp, jsonCached, type ApiDeps } from './routes/common.js';
import { BreakingService } from './breaking.js';
import { registerCatalogueRoutes } from './routes/catalogue.js';
import { registerEditionRoutes } from './routes/editions.js';
import { registerFeedRoutes } from './routes/feed.js';
import { registerLiveRoutes } from './routes/live.js';
import { registerLocalRoutes } from './routes/local.js';
import { registerReaderRoutes, readerForAnyone, withCookie } from './routes/me.js';
import { registerPushRoutes } from './routes/push.js';
import { registerRedirectRoutes } from './routes/redirect.js';
import { registerRejectedRoutes } from './routes/rejected.js';
import { registerSavedRoutes } from './routes/saved.js';
import { registerSearchRoutes } from './routes/search.js';
import { registerStoryRoutes } from './routes/stories.js';
import { registerThumbRoutes } from './routes/thumbs.js';
import { registerTrendingRoutes } from './routes/trending.js';
import { registerWebRoutes } from './routes/web.js';
import { errorReply, type Handler, type Reply, type Request } from './reply.js';
import type { Router } from './router.js';

export type { ApiDeps } from './routes/common.js';

/**
 * Registers the public API (DESIGN §6) on the node's router: feed (and `for=me`), breaking,
 * articles, stories, search, click redirect, readers (`/v1/me`), push alerts, trending, the publisher catalogue
 * (first run), thumbnails, the OpenAPI document, the web UI, and, when an admin token is set,
 * the admin routes. Every route passes the per-client token bucket first (a known API token has
 * its own bucket, everyone else is limited per IP: an unknown token must not buy a fresh bucket).
 * `/healthz`, `/readyz` and `/metrics` are added by health.ts.
 */
export function registerApiRoutes(router: Router, deps: ApiDeps): void {
  const limiter = new RateLimiter(deps.rateLimit.rps, deps.rateLimit.burst, deps.now ?? Date.now);
  const known = new Set<string>([...(deps.apiTokens ?? []), ...(deps.adminToken ? [deps.adminToken] : [])]);
  const clientOf = (req: Request): string => {
    const t = known.size > 0 ? bearerToken(req) : null;
    return t !== null && known.has(t) ? `t:${t}` : `ip:${clientIp(req, deps.trustProxy)}`;
  };
  const wrap =
    (h: Handler): Handler =>
    (req): Reply | Promise<Reply> => {
      const waitMs = limiter.take(clientOf(req));
      if (waitMs > 0) {
        return errorReply(429, 'rate_limited', 'too many requests; slow down', { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))), 'cache-control': 'no-store' });
      }
      return h(req);
    };

  registerEditionRoutes(router, wrap);
  registerFeedRoutes(router, deps, wrap);
  registerLiveRoutes(router, deps.breaking ?? new BreakingService({ sql: deps.sql, stories: (ids) => deps.feed.stories(ids), ...(deps.log ? { log: deps.log } : {}) }), wrap);
  registerArticleRoutes(router, deps, wrap);
  registerStoryRoutes(router, deps, wrap);
  registerSearchRoutes(router, deps, wrap);
  registerRedirectRoutes(router, deps, wrap);
  registerReaderRoutes(router, deps, wrap);
  registerSavedRoutes(router, deps, wrap);
  registerAtomRoutes(router, deps, wrap);
  registerLocalRoutes(router, deps, wrap);
  registerPushRoutes(router, deps, wrap);
  registerTrendingRoutes(router, deps, wrap);
  registerThumbRoutes(router, deps.dataDir, wrap);
  registerAdminRoutes(router, deps, wrap);
  registerCatalogueRoutes(router, deps, wrap);
  registerRejectedRoutes(router, deps, wrap);
  router.get('/v1/openapi.json', wrap((req) => jsonCached(req, openApiDocument, 'public, max-age=300')));
  // the web pages are where a browser first arrives: they make it a reader (set the cookie)
  registerWebRoutes(router, (h) => wrap(asReader(h, deps)));
}

/** `h`'s HTML pages carry the reader cookie when the caller sent neither a reader token nor the cookie. */
function asReader(h: Handler, deps: ApiDeps): Handler {
  return (req) => {
    const { setCookie } = readerForAnyone(req, deps);
    if (setCookie === null) return h(req);
    const page = (r: Reply): Reply => (r.headers?.['content-type']?.startsWith('text/html') ? withCookie(r, setCookie) : r);
    const out = h(req);
    return out instanceof Promise ? out.then(page) : page(out);
  };
}
