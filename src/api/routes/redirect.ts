import { getArticles } from '../../actors/store/articles.js';
import { markRead } from '../../actors/store/reader-lists.js';
import { recordClick } from '../../actors/store/readers.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger } from '../../runtime/log.js';
import { parseId, readQuery } from '../params.js';
import { HttpError, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, type ApiDeps } from './common.js';
import { readerForAnyone, withCookie } from './me.js';

/**
 * `GET /r/:id`: records the click and answers 302 to the article's stored source URL. The target
 * is never taken from the request (no open redirect), and only http(s) targets are followed.
 * The click is the reader's (reader token or cookie), kept under the reader's stable id, never a
 * raw token or address: it is reading history for `for=me` and a signal for trending. A caller
 * with neither becomes a reader here (the cookie is set), its click recorded as anonymous.
 */
export function registerRedirectRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const log = deps.log ?? silentLogger;
  const now = deps.now ?? Date.now;
  router.get(
    '/r/:id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.id);
      const { reader, setCookie } = readerForAnyone(req, deps);
      const [a] = await getArticles(deps.sql, [id]);
      if (!a) throw new HttpError(404, 'not_found', 'no such article');
      const target = safeTarget(a.url);
      if (!target) throw new HttpError(404, 'not_found', 'the article has no web address');
      try {
        // A caller that came without a reader (no cookie yet: a script, a crawler, a client that
        // drops cookies) gets one for next time, but its click counts as nobody's: otherwise each
        // cookie-less request would be another distinct reader to trending.
        // (A refused reader token is nobody's either: the click never goes to a reader it did not name.)
        const known = setCookie === null ? reader : null;
        await recordClick(deps.sql, { article_id: a.id, story_id: a.story_id, publisher_id: a.publisher_id, reader: known?.id ?? null, at: now() });
        // a story opened is a story read (hide_read leaves it out of For you)
        if (known && a.story_id) await markRead(deps.sql, known.id, [a.story_id]);
        if (known) await deps.profiles?.changed(known.id);
      } catch (err) {
        // a lost click must not cost the reader the article
        log.warn({ err: describeError(err), article_id: a.id }, 'click not recorded');
      }
      return withCookie({ status: 302, headers: { location: target, 'cache-control': NO_STORE, 'referrer-policy': 'no-referrer' }, body: '' }, setCookie);
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
