import { FEED_REGIONS, parseEnum, parseLimit, readQuery } from '../params.js';
import type { Handler } from '../reply.js';
import type { Router } from '../router.js';
import { TRENDING_MAX } from '../trending/service.js';
import { hotReply, type ApiDeps } from './common.js';

/** Trending moves by the minute: a CDN may keep a page 30 s. */
const TRENDING_CACHE = 'public, max-age=30, stale-while-revalidate=60';

/** `GET /v1/trending?region=&limit=` → `{items: [FeedItem & {trend_score}]}`; no region = the global edition. */
export function registerTrendingRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const trending = deps.trending;
  if (!trending) return;
  router.get(
    '/v1/trending',
    wrap((req) => {
      const p = readQuery(req.query, ['region', 'limit']);
      const region = parseEnum('region', p.get('region'), FEED_REGIONS, 'global');
      const limit = parseLimit(p.get('limit'), 20, 1, TRENDING_MAX);
      const page = trending.page(region, limit);
      return page instanceof Promise ? page.then((e) => hotReply(req, e, TRENDING_CACHE)) : hotReply(req, page, TRENDING_CACHE);
    }),
  );
}
