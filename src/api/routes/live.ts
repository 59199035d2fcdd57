import type { BreakingService } from '../breaking.js';
import { FEED_REGIONS, parseEnum, readQuery } from '../params.js';
import { errorReply, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { jsonCached } from './common.js';

/** Breaking news changes by the minute: a CDN may keep it 5 s, and serve it stale while it refetches. */
const BREAKING_CACHE = 'public, max-age=5, stale-while-revalidate=10';

/**
 * `GET /v1/breaking?region=` (stories breaking now, newest first; without region, every edition)
 * and `GET /v1/live` without a WebSocket upgrade (426: the route only speaks WebSocket).
 */
export function registerLiveRoutes(router: Router, breaking: BreakingService, wrap: (h: Handler) => Handler): void {
  router.get(
    '/v1/breaking',
    wrap(async (req) => {
      const p = readQuery(req.query, ['region']);
      const region = parseEnum('region', p.get('region'), FEED_REGIONS, 'global');
      return jsonCached(req, { items: await breaking.items(region) }, BREAKING_CACHE);
    }),
  );
  router.get(
    '/v1/live',
    wrap(() => errorReply(426, 'upgrade_required', '/v1/live is a WebSocket: connect with an Upgrade request', { upgrade: 'websocket', 'cache-control': 'no-store' })),
  );
}
