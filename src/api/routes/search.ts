import { CATEGORIES } from '../../actors/store/feed-items.js';
import { getArticles } from '../../actors/store/articles.js';
import { searchArticles } from '../../actors/store/search.js';
import { FEED_REGIONS, parseCursor, parseEnum, parseLimit, parseSearchText, readQuery } from '../params.js';
import { HttpError, type Handler, type Router } from '../server.js';
import { DETAIL_CACHE, jsonCached, publicArticle, type ApiDeps } from './common.js';
import { cursorErrorToHttp } from './feed.js';

interface SearchCursor extends Record<string, unknown> {
  /** rank and id of the last hit served */
  r: number;
  i: string;
  /** the instant the first page ranked at: recency changes every rank as time passes, so later pages rank as of then */
  n: number;
}

/**
 * `GET /v1/search?q=&category=&region=&cursor=&limit=`: Postgres full-text search (websearch
 * syntax; title weighted over snippet) blended with recency, keyset-paged on (rank, id) with a
 * cursor bound to the query and filters.
 */
export function registerSearchRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const now = deps.now ?? Date.now;
  router.get(
    '/v1/search',
    wrap(async (req) => {
      const p = readQuery(req.query, ['q', 'category', 'region', 'cursor', 'limit']);
      const q = parseSearchText(p.get('q'));
      const category = parseEnum('category', p.get('category'), CATEGORIES, null);
      const region = parseEnum('region', p.get('region'), FEED_REGIONS, null);
      const raw = parseCursor(p.get('cursor'));
      const limit = parseLimit(p.get('limit'), 20, 1, 50);
      const scope = `search:${JSON.stringify([q, category, region])}`;
      let cur: SearchCursor | null = null;
      if (raw) {
        try {
          cur = deps.codec.decode<SearchCursor>(scope, raw);
        } catch (err) {
          cursorErrorToHttp(err);
        }
        if (typeof cur.r !== 'number' || typeof cur.i !== 'string' || typeof cur.n !== 'number') {
          throw new HttpError(400, 'invalid_cursor', 'The cursor is invalid or expired; start again without one.');
        }
      }
      const at = cur ? cur.n : now();
      const hits = await searchArticles(deps.sql, { q, category, region, limit: limit + 1, after: cur ? { rank: cur.r, id: cur.i } : null, now: at });
      const page = hits.slice(0, limit);
      const byId = new Map((await getArticles(deps.sql, page.map((h) => h.id))).map((a) => [a.id, a]));
      const items = page.flatMap((h) => {
        const a = byId.get(h.id);
        return a ? [{ ...publicArticle(a), rank: h.rank }] : [];
      });
      const last = page[page.length - 1];
      const next_cursor = hits.length > limit && last ? deps.codec.encode(scope, { r: last.rank, i: last.id, n: at } satisfies SearchCursor) : null;
      return jsonCached(req, { items, next_cursor }, DETAIL_CACHE);
    }),
  );
}
