import { listRejected, type RejectedRow } from '../../actors/store/rejected.js';
import { parseCursor, parseEnum, parseLimit, readQuery } from '../params.js';
import { HttpError, json, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, bearerToken, sameSecret, type ApiDeps } from './common.js';
import { cursorErrorToHttp } from './feed.js';

const PRIVATE = { 'cache-control': NO_STORE };
export const REJECT_REASONS = ['invalid_article', 'invalid_url', 'too_large', 'cluster_failed', 'storage_rejected'] as const;

/**
 * `GET /v1/rejected-articles?reason=&cursor=&limit=` behind the admin bearer token: the articles
 * ingest set aside instead of storing, newest first, with the reason, the machine code (a
 * SQLSTATE for what the database refused) and the message. Off without an admin token.
 */
export function registerRejectedRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const token = deps.adminToken;
  if (!token) return;
  router.get(
    '/v1/rejected-articles',
    wrap(async (req) => {
      const given = bearerToken(req);
      if (given === null || !sameSecret(given, token)) {
        throw new HttpError(401, 'unauthorized', 'a valid admin bearer token is required', { headers: { 'www-authenticate': 'Bearer realm="newsagg-admin"', ...PRIVATE } });
      }
      const p = readQuery(req.query, ['reason', 'cursor', 'limit']);
      const limit = parseLimit(p.get('limit'), 50, 1, 500);
      const reason = parseEnum('reason', p.get('reason'), REJECT_REASONS, null);
      const raw = parseCursor(p.get('cursor'));
      let before: number | null = null;
      if (raw) {
        try {
          before = Number(deps.codec.decode<{ b: number }>('rejected', raw).b);
        } catch (err) {
          cursorErrorToHttp(err);
        }
      }
      const rows = await listRejected(deps.sql, { before, limit: limit + 1, reason });
      const items = rows.slice(0, limit);
      const next = rows.length > limit ? deps.codec.encode('rejected', { b: items[items.length - 1]!.id }) : null;
      return json({ items: items.map(publicRejected), next_cursor: next }, 200, PRIVATE);
    }),
  );
}

function publicRejected(r: RejectedRow): Record<string, unknown> {
  return {
    id: r.id, url: r.url, publisher_id: r.publisher_id, reason: r.reason, code: r.code, message: r.message,
    attempts: r.attempts, first_at: r.first_at, last_at: r.last_at, article: r.article,
  };
}
