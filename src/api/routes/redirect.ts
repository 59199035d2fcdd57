import { createHmac, randomBytes } from 'node:crypto';
import { getArticles } from '../../actors/store/articles.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger } from '../../runtime/log.js';
import { parseId, readQuery } from '../params.js';
import { HttpError, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, clientIp, type ApiDeps } from './common.js';

/**
 * `GET /r/:id`: records the click and answers 302 to the article's stored source URL. The target
 * is never taken from the request (no open redirect), and only http(s) targets are followed.
 * The reader is kept as a salted hash of the client (API token or IP), never the raw value.
 */
export function registerRedirectRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const log = deps.log ?? silentLogger;
  const salt = deps.readerSalt ?? randomBytes(32).toString('base64url');
  const readerOf = (client: string) => createHmac('sha256', salt).update(client).digest('base64url').slice(0, 22);
  router.get(
    '/r/:id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.id);
      const [a] = await getArticles(deps.sql, [id]);
      if (!a) throw new HttpError(404, 'not_found', 'no such article');
      const target = safeTarget(a.url);
      if (!target) throw new HttpError(404, 'not_found', 'the article has no web address');
      try {
        await deps.sql.query('INSERT INTO clicks (article_id, story_id, reader) VALUES ($1, $2, $3)', [a.id, a.story_id, readerOf(clientIp(req, deps.trustProxy))]);
      } catch (err) {
        // a lost click must not cost the reader the article
        log.warn({ err: describeError(err), article_id: a.id }, 'click not recorded');
      }
      return { status: 302, headers: { location: target, 'cache-control': NO_STORE, 'referrer-policy': 'no-referrer' }, body: '' };
    }),
  );
}

/** The stored URL re-serialised (so no raw control characters reach a header), http(s) only. */
function safeTarget(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
