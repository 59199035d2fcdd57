import { CATEGORIES, LANGUAGES } from '../../actors/model/index.js';
import { searchArticles } from '../../actors/store/search.js';
import { explainCursorScope, InvalidCursorError } from '../cursor.js';
import { HotCache, etagOf, type HotEntry } from '../hot-cache.js';
import { FEED_REGIONS, parseCursor, parseEnum, parseLimit, parseSearchText, readQuery } from '../params.js';
import { HttpError, type Handler, type Reply, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { DETAIL_CACHE, cachedReply, hotReply, publicArticle, type ApiDeps } from './common.js';
import { cursorErrorToHttp } from './feed.js';

interface SearchCursor extends Record<string, unknown> {
  /** rank and id of the last hit served */
  r: number;
  i: string;
  /** the instant the first page ranked at: recency changes every rank as time passes, so later pages rank as of then */
  n: number;
}

/**
 * How long a rendered first page of a query is reused. Short: a new article can take this long to
 * appear in search (responses already allow CDNs 30 s), and no invalidation is needed, which at
 * ingest rates would empty the cache many times a second anyway.
 */
export const SEARCH_HOT_TTL_MS = 5_000;
/** distinct first pages kept (query x filters x limit) */
const SEARCH_HOT_MAX = 2_000;

/**
 * `GET /v1/search?q=&category=&region=&cursor=&limit=`: Postgres full-text search (websearch
 * syntax; title weighted over snippet) blended with recency, one result per story (its
 * best-matching article, with `matches`: how many of the story's articles matched, and the story's
 * `coverage_count`), keyset-paged on (rank, id) with a cursor bound to the query and filters.
 * First pages are kept rendered for a few seconds (popular queries repeat), and identical first
 * pages in flight are rendered once.
 */
export function registerSearchRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const now = deps.now ?? Date.now;
  const ttl = deps.searchHotTtlMs ?? SEARCH_HOT_TTL_MS;
  const hot = ttl > 0 ? new HotCache(ttl, now, SEARCH_HOT_MAX) : null;
  const inflight = new Map<string, Promise<HotEntry>>();

  const render = async (q: string, category: string | null, region: string | null, lang: string | null, limit: number, scope: string, cur: SearchCursor | null): Promise<string> => {
    const at = cur ? cur.n : now();
    const hits = await searchArticles(deps.sql, { q, category, region, lang, limit: limit + 1, after: cur ? { rank: cur.r, id: cur.i } : null, now: at });
    const page = hits.slice(0, limit);
    const items = page.map((h) => ({ ...publicArticle(h), rank: h.rank, matches: h.matches, coverage_count: h.coverage_count }));
    const last = page[page.length - 1];
    const next_cursor = hits.length > limit && last ? deps.codec.encode(scope, { r: last.rank, i: last.id, n: at } satisfies SearchCursor) : null;
    return JSON.stringify({ items, next_cursor });
  };

  /** a first page: from the hot cache, or rendered once however many ask at the same time */
  const firstPage = (key: string, make: () => Promise<string>): HotEntry | Promise<HotEntry> => {
    const hit = hot?.get(key) ?? null;
    if (hit !== null) return hit;
    const running = inflight.get(key);
    if (running !== undefined) return running;
    const p = make().then(
      (body) => {
        inflight.delete(key);
        if (hot) return hot.set(key, 'search', body);
        const bytes = Buffer.from(body, 'utf8');
        return { body: bytes, etag: etagOf(bytes), at: now() };
      },
      (err: unknown) => {
        inflight.delete(key);
        throw err;
      },
    );
    inflight.set(key, p);
    return p;
  };

  router.get(
    '/v1/search',
    wrap((req: Request): Reply | Promise<Reply> => {
      const p = readQuery(req.query, ['q', 'category', 'region', 'lang', 'cursor', 'limit']);
      const q = parseSearchText(p.get('q'));
      const category = parseEnum('category', p.get('category'), CATEGORIES, null);
      const region = parseEnum('region', p.get('region'), FEED_REGIONS, null);
      const lang = parseEnum('lang', p.get('lang'), LANGUAGES, null);
      const raw = parseCursor(p.get('cursor'));
      const limit = parseLimit(p.get('limit'), 20, 1, 50);
      // lang joins the scope only when given: cursors of searches without it stay as they were
      const scope = `search:${JSON.stringify(lang === null ? [q, category, region] : [q, category, region, lang])}`;
      if (raw === null) {
        const page = firstPage(`${scope}|${limit}`, () => render(q, category, region, lang, limit, scope, null));
        if (!(page instanceof Promise)) return hotReply(req, page, DETAIL_CACHE);
        return page.then((e) => hotReply(req, e, DETAIL_CACHE));
      }
      let cur: SearchCursor;
      try {
        cur = deps.codec.decode<SearchCursor>(scope, raw);
      } catch (err) {
        // the same words with another topic or edition: say which one the cursor belongs to
        const others: { scope: string; what: string }[] = [];
        for (const c of [null, ...CATEGORIES]) {
          for (const r of [null, ...FEED_REGIONS]) {
            others.push({ scope: `search:${JSON.stringify([q, c, r])}`, what: `this search with ${c === null ? 'no category' : `category=${c}`} and ${r === null ? 'no region' : `region=${r}`}` });
          }
        }
        cursorErrorToHttp(explainCursorScope(err, deps.codec, raw, others));
      }
      if (typeof cur.r !== 'number' || typeof cur.i !== 'string' || typeof cur.n !== 'number') {
        cursorErrorToHttp(new InvalidCursorError('malformed'));
      }
      return render(q, category, region, lang, limit, scope, cur).then((body) => cachedReply(req, body, etagOf(body), DETAIL_CACHE));
    }),
  );
}
