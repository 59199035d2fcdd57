import { InvalidCursorError } from '../cursor.js';
import type { FeedQuery } from '../feed.js';
import type { HotEntry } from '../hot-cache.js';
import { LANGUAGES } from '../../actors/model/index.js';
import { FEED_CATEGORIES, FEED_REGIONS, parseCursor, parseEnum, parseLimit, readQuery } from '../params.js';
import type { PersonalPage } from '../personal/service.js';
import { withReadHidden, type Profile } from '../readers/profile.js';
import { encodeHeaders, HttpError, type Handler, type Reply, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { cachedReply, etagMatches, FEED_CACHE, hotReply, JSON_TYPE, type ApiDeps } from './common.js';
import { readerFor, withCookie } from './me.js';

/** A personalised page: the reader's browser may keep it but must revalidate; no shared cache may. */
const PERSONAL_CACHE = 'private, no-cache';
const PERSONAL_VARY = 'cookie, authorization';
const PERSONAL_ENCODED = encodeHeaders({ 'content-type': JSON_TYPE, 'cache-control': PERSONAL_CACHE, vary: PERSONAL_VARY });
const ETAG = Buffer.from('etag');

/** A parsed feed query; `forMe` asks for the calling reader's personalised order. */
interface ParsedFeedQuery extends FeedQuery {
  forMe: boolean;
  /** with forMe: leave out the stories the reader has read (PUT /v1/me/read/:story_id) */
  hideRead: boolean;
}

/** How long a first page may be served from its last rendering while a rebuild is in flight. */
const STALE_MS = 30_000;
/** distinct query strings kept parsed */
const PARSED_MAX = 1_000;

/** Maps a cursor the codec rejected to the public 400; anything else passes through. */
export function cursorErrorToHttp(err: unknown): never {
  if (err instanceof InvalidCursorError) throw new HttpError(400, 'invalid_cursor', err.userMessage, { cause: err });
  throw err;
}

/**
 * `GET /v1/feed?region=&category=&cursor=&limit=&related=`: the pre-rendered page from FeedService's hot
 * cache, so a popular first page is one map lookup plus the write; ETag and a short public
 * Cache-Control let a CDN absorb anonymous traffic, and `If-None-Match` answers 304.
 * `&for=me`: the calling reader's page from PersonalFeed (private, never shared by caches).
 */
export function registerFeedRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  // Single flight: when a hot page expires under load, every waiting request would otherwise
  // rebuild it (and its snapshot) at once; identical requests share the one render in progress.
  // First pages also keep their last rendering: while a rebuild is in flight, other readers get
  // that one at once (the page as it was just before the rebuild began) instead of queueing
  // behind it, which is what dominated p99. Its cursor stays valid: snapshots live 30 minutes.
  // Bounded: one entry per region x category x limit.
  const inflight = new Map<string, Promise<HotEntry>>();
  const lastFirst = new Map<string, { entry: HotEntry; at: number }>();
  const now = deps.now ?? Date.now;
  const render = (q: FeedQuery): HotEntry | Promise<HotEntry> => {
    const key = `${q.region}|${q.category}|${q.limit}|${q.cursor ?? ''}|${q.related ? 'r' : ''}|${q.lang ?? ''}`;
    let p = inflight.get(key);
    if (p && q.cursor === null) {
      const last = lastFirst.get(key);
      if (last && now() - last.at < STALE_MS) return last.entry;
    }
    if (!p) {
      // one continuation for both outcomes: this runs on every feed request, hot hits included
      p = deps.feed.render(q).then(
        (entry) => {
          inflight.delete(key);
          if (q.cursor === null) lastFirst.set(key, { entry, at: now() });
          return entry;
        },
        (err: unknown) => {
          inflight.delete(key);
          throw err;
        },
      );
      inflight.set(key, p);
    }
    return p;
  };
  // Query strings seen before, already validated: a popular page's parameters are checked once,
  // not per request. Cursors repeat too (every reader of a first page gets the same one), and
  // their signature is still checked before anything is rendered for them. Bounded.
  const parsed = new Map<string, ParsedFeedQuery>();
  const parse = (req: Request): ParsedFeedQuery => {
    const known = parsed.get(req.rawQuery);
    if (known !== undefined) return known;
    const p = readQuery(req.query, ['region', 'category', 'cursor', 'limit', 'related', 'for', 'hide_read', 'lang']);
    const q: ParsedFeedQuery = {
      region: parseEnum('region', p.get('region'), FEED_REGIONS, 'global'),
      category: parseEnum('category', p.get('category'), FEED_CATEGORIES, 'top'),
      cursor: parseCursor(p.get('cursor')),
      limit: parseLimit(p.get('limit'), 20, 1, 50),
      related: parseEnum('related', p.get('related'), ['true', 'false'], 'false') === 'true',
      forMe: parseEnum('for', p.get('for'), ['me'], null) === 'me',
      hideRead: parseEnum('hide_read', p.get('hide_read'), ['true', 'false'], 'false') === 'true',
      lang: parseEnum('lang', p.get('lang'), LANGUAGES, null),
    };
    if (q.lang !== null && q.forMe) throw new HttpError(400, 'invalid_lang', 'lang= is not offered with for=me: For you ranks every language the reader follows');
    if (q.hideRead && !q.forMe) throw new HttpError(400, 'invalid_hide_read', 'hide_read=true needs for=me: only a reader has stories read');
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(req.rawQuery, q);
    return q;
  };
  const personalReply = (req: Request, page: PersonalPage): Reply => {
    const headers = { 'content-type': JSON_TYPE, etag: page.etag, 'cache-control': PERSONAL_CACHE, vary: PERSONAL_VARY };
    // the constant headers go out pre-encoded; only the ETag is a string
    const encodedHeaders = [...PERSONAL_ENCODED, ETAG, page.etag];
    if (etagMatches(req.header('if-none-match'), page.etag)) return { status: 304, headers, encodedHeaders };
    return { status: 200, headers, encodedHeaders, body: page.body };
  };
  /** `writtenAtOnce`: called from the socket's callback, whose synchronous reply the server writes at once (see PersonalFeed.page) */
  const personalPage = (req: Request, profile: Profile, q: FeedQuery, writtenAtOnce: boolean): Reply | Promise<Reply> => {
    const page = deps.personal!.page(profile, q, writtenAtOnce);
    if (page instanceof Promise) return page.catch(cursorErrorToHttp).then((p) => personalReply(req, p));
    return personalReply(req, page);
  };
  /**
   * `for=me`: the reader's personalised page. A caller that is no reader yet gets the
   * unpersonalised order, and the cookie that makes it one.
   */
  const forMe = (req: Request, q: ParsedFeedQuery): Reply | Promise<Reply> => {
    const { reader, setCookie } = readerFor(req, deps);
    if (setCookie !== null || !deps.personal || !deps.profiles) {
      const page = render(q);
      const reply = (e: HotEntry) => withCookie(cachedReply(req, e.body, e.etag, PERSONAL_CACHE), setCookie);
      return page instanceof Promise ? page.catch(cursorErrorToHttp).then(reply) : reply(page);
    }
    const profile = deps.profiles.get(reader.id);
    const view = (p: Profile): Profile => (q.hideRead ? withReadHidden(p) : p);
    if (profile instanceof Promise) return profile.then((p) => personalPage(req, view(p), q, false)).catch(cursorErrorToHttp);
    try {
      return personalPage(req, view(profile), q, true);
    } catch (err) {
      return cursorErrorToHttp(err);
    }
  };
  router.get(
    '/v1/feed',
    wrap((req) => {
      const q = parse(req);
      if (q.forMe) return forMe(req, q);
      // a fresh hot page answers synchronously: no promise, no abort handler, no cork
      const hot = deps.feed.cached(q);
      if (hot !== null) return hotReply(req, hot, FEED_CACHE);
      const page = render(q); // the last rendering, synchronously, while a rebuild is in flight
      if (!(page instanceof Promise)) return hotReply(req, page, FEED_CACHE);
      return page.catch(cursorErrorToHttp).then((e) => hotReply(req, e, FEED_CACHE));
    }),
  );
}
