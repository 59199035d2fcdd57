import { storyArticles } from '../../actors/store/articles.js';
import { displayTitle } from '../../actors/store/display-title.js';
import type { FeedItem } from '../../actors/store/feed-items.js';
import { feedKeyIssued, readerOfFeedKey, revokeFeedKey, setFeedKey } from '../../actors/store/reader-lists.js';
import { searchArticles } from '../../actors/store/search.js';
import { getStories } from '../../actors/store/stories.js';
import { articleEntryId, atomFeed, ATOM_TYPE, storyEntryId, type AtomEntry } from '../atom.js';
import type { FeedQuery } from '../feed.js';
import { etagOf } from '../hot-cache.js';
import { FEED_CATEGORIES, FEED_REGIONS, parseCursor, parseEnum, parseId, parseLimit, parseSearchText, readQuery } from '../params.js';
import { mintToken } from '../readers/identity.js';
import { withReadHidden } from '../readers/profile.js';
import { HttpError, json, type Handler, type Reply, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { CATEGORIES, CATEGORY_NAMES, LANGUAGES, REGION_NAMES, type FeedCategory, type FeedRegion } from '../../actors/model/index.js';
import { cachedReply, NO_STORE, publicArticle, viaHttps, type ApiDeps } from './common.js';
import { cursorErrorToHttp } from './feed.js';
import { readerFor, withCookie } from './me.js';

/**
 * Feeds out (issue 24): every view as Atom 1.0 for feed readers.
 *   GET /v1/feed.atom            the /v1/feed parameters (region, category, cursor, limit, related)
 *   GET /v1/search.atom?q=       the first page of a search (category, region, limit)
 *   GET /v1/stories/:id.atom     Full Coverage as it grows: the story's articles, newest first
 *   GET /v1/me/feed.atom?key=    For you, through a private URL (region, category, limit, hide_read)
 *   POST/GET/DELETE /v1/me/feed-key   issue (revoking the last), show, revoke that URL's key
 * Entries lead to the story page and carry the lead's publisher, time, snippet and picture.
 * ETag and If-None-Match (304) on all; public ones may be cached 5 minutes, the private one by
 * the reader's client only.
 */

/** Public Atom documents: feed readers poll every 15-60 minutes; a CDN may keep them 5. */
export const ATOM_CACHE = 'public, max-age=300, stale-while-revalidate=600';
const PRIVATE_ATOM_CACHE = 'private, max-age=300';
const PRIVATE = { 'cache-control': NO_STORE, vary: 'cookie, authorization' };
/** what a private feed key looks like (mintToken: 22 base64url characters) */
const FEED_KEY = /^[A-Za-z0-9_-]{22}$/;
/** the most articles a story's feed carries (newest) */
const STORY_ENTRIES = 100;
/** a Host header we are willing to write into links */
const HOST = /^(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/;

/** The absolute origin links are written against: the request's Host, https when a trusted proxy says so. */
export function publicOrigin(req: Request, deps: Pick<ApiDeps, 'trustProxy'>): string {
  const host = req.header('host');
  if (!host || !HOST.test(host)) throw new HttpError(400, 'invalid_host', 'a feed needs a valid Host header to write its links against');
  return `${viaHttps(req, deps.trustProxy) ? 'https' : 'http'}://${host}`;
}

const abs = (origin: string, path: string | null | undefined): string | null => {
  if (!path) return null;
  try {
    const u = new URL(path, origin + '/');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
};
const storyPage = (origin: string, id: string): string => `${origin}/story/${encodeURIComponent(id)}`;
const qs = (params: Record<string, string | number | null | undefined>): string => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};

/** A feed item (a story through its lead) as an entry. */
export function itemEntry(origin: string, it: Pick<FeedItem, 'story_id' | 'title' | 'publisher_name' | 'published_at' | 'summary' | 'thumbnail_url' | 'category' | 'click_url'>): AtomEntry {
  return {
    id: storyEntryId(it.story_id), title: it.title, link: storyPage(origin, it.story_id), source: abs(origin, it.click_url), publisher: it.publisher_name,
    published: it.published_at, summary: it.summary, image: abs(origin, it.thumbnail_url), category: it.category,
  };
}

function atomReply(req: Request, body: string, cacheControl: string): Reply {
  return cachedReply(req, body, etagOf(body), cacheControl, ATOM_TYPE);
}

/** The Atom view of a story (`/v1/stories/:id.atom`, dispatched from the story route). */
export async function storyAtom(req: Request, deps: ApiDeps, rawId: string): Promise<Reply> {
  readQuery(req.query, []);
  const id = parseId(rawId);
  const origin = publicOrigin(req, deps);
  const [story] = await getStories(deps.sql, [id]);
  if (!story) throw new HttpError(404, 'not_found', `no such story: ${id}`);
  const rows = await storyArticles(deps.sql, id, STORY_ENTRIES);
  const lead = rows.find((a) => a.id === story.lead_article_id) ?? rows[0];
  const title = lead ? displayTitle(lead.title, lead.publisher_name) : story.title;
  const entries = rows.map((r): AtomEntry => {
    const a = publicArticle(r);
    return {
      id: articleEntryId(a.id), title: a.title, link: abs(origin, a.click_url)!, source: storyPage(origin, id), publisher: a.publisher_name,
      published: a.published_at, summary: a.summary, image: abs(origin, a.thumbnail_url), category: a.category,
    };
  });
  const self = `${origin}/v1/stories/${encodeURIComponent(id)}.atom`;
  return atomReply(req, atomFeed({ id: self, title: `Full Coverage: ${title}`, subtitle: `${story.article_count} articles from ${story.publisher_count} publishers`, self, alternate: storyPage(origin, id), entries }), ATOM_CACHE);
}

export function registerAtomRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  router.get(
    '/v1/feed.atom',
    wrap(async (req) => {
      const p = readQuery(req.query, ['region', 'category', 'cursor', 'limit', 'related', 'for', 'lang']);
      if (p.has('for')) throw new HttpError(400, 'invalid_for', 'For you as Atom has a private URL of its own: POST /v1/me/feed-key issues it');
      const origin = publicOrigin(req, deps);
      const q: FeedQuery = {
        region: parseEnum('region', p.get('region'), FEED_REGIONS, 'global'),
        category: parseEnum('category', p.get('category'), FEED_CATEGORIES, 'top'),
        cursor: parseCursor(p.get('cursor')),
        limit: parseLimit(p.get('limit'), 20, 1, 50),
        lang: parseEnum('lang', p.get('lang'), LANGUAGES, null),
      };
      parseEnum('related', p.get('related'), ['true', 'false'], 'false');
      const page = await deps.feed.page(q).catch(cursorErrorToHttp);
      const view = { region: q.region === 'global' ? null : q.region, category: q.category === 'top' ? null : q.category, lang: q.lang };
      const id = `${origin}/v1/feed.atom${qs(view)}`;
      const limit = q.limit === 20 ? null : q.limit;
      return atomReply(req, atomFeed({
        id,
        title: `${CATEGORY_NAMES[q.category as FeedCategory]} · ${REGION_NAMES[q.region as FeedRegion]} · newsagg`,
        self: `${origin}/v1/feed.atom${qs({ ...view, limit, cursor: q.cursor })}`,
        alternate: `${origin}/${qs(view)}`,
        next: page.next_cursor ? `${origin}/v1/feed.atom${qs({ ...view, limit, cursor: page.next_cursor })}` : null,
        entries: page.items.map((it) => itemEntry(origin, it)),
      }), ATOM_CACHE);
    }),
  );
  router.get(
    '/v1/search.atom',
    wrap(async (req) => {
      const p = readQuery(req.query, ['q', 'category', 'region', 'lang', 'limit']);
      const q = parseSearchText(p.get('q'));
      const category = parseEnum('category', p.get('category'), CATEGORIES, null);
      const region = parseEnum('region', p.get('region'), FEED_REGIONS, null);
      const lang = parseEnum('lang', p.get('lang'), LANGUAGES, null);
      const limit = parseLimit(p.get('limit'), 20, 1, 50);
      const origin = publicOrigin(req, deps);
      const hits = await searchArticles(deps.sql, { q, category, region, lang, limit, now: (deps.now ?? Date.now)() });
      const view = { q, category, region, lang };
      return atomReply(req, atomFeed({
        id: `${origin}/v1/search.atom${qs(view)}`,
        title: `Search: ${q} · newsagg`,
        self: `${origin}/v1/search.atom${qs({ ...view, limit: limit === 20 ? null : limit })}`,
        alternate: `${origin}/search${qs({ q, region })}`,
        entries: hits.map((h) => {
          const a = publicArticle(h);
          return itemEntry(origin, { ...a, story_id: a.story_id ?? a.id });
        }),
      }), ATOM_CACHE);
    }),
  );
  registerPrivateFeed(router, deps, wrap);
}

/** For you as Atom, behind a revocable key in the URL (a feed reader sends no cookie). */
function registerPrivateFeed(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const { profiles, personal } = deps;
  if (!profiles || !personal) return;
  const urlOf = (req: Request, key: string) => `${publicOrigin(req, deps)}/v1/me/feed.atom?key=${key}`;
  router.post(
    '/v1/me/feed-key',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const key = mintToken();
      const url = urlOf(req, key);
      await setFeedKey(deps.sql, reader.id, key);
      const created_at = (await feedKeyIssued(deps.sql, reader.id)) ?? new Date().toISOString();
      return withCookie(json({ url, created_at }, 201, PRIVATE), setCookie);
    }),
  );
  router.get(
    '/v1/me/feed-key',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const created_at = setCookie === null ? await feedKeyIssued(deps.sql, reader.id) : null;
      // the key itself is not kept (only its hash): a lost URL is replaced, never shown again
      return withCookie(json({ active: created_at !== null, created_at }, 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'DELETE',
    '/v1/me/feed-key',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      if (setCookie === null) await revokeFeedKey(deps.sql, reader.id);
      return withCookie({ status: 204, headers: PRIVATE }, setCookie);
    }),
  );
  router.get(
    '/v1/me/feed.atom',
    wrap(async (req) => {
      const p = readQuery(req.query, ['key', 'region', 'category', 'limit', 'hide_read']);
      const key = p.get('key');
      if (!key) throw new HttpError(401, 'invalid_feed_key', 'this private feed needs its key (?key=): POST /v1/me/feed-key issues the URL');
      if (!FEED_KEY.test(key)) throw new HttpError(401, 'invalid_feed_key', 'a feed key is 22 characters of A-Z a-z 0-9 - _; this one is not');
      const q: FeedQuery = {
        region: parseEnum('region', p.get('region'), FEED_REGIONS, 'global'),
        category: parseEnum('category', p.get('category'), FEED_CATEGORIES, 'top'),
        cursor: null,
        limit: parseLimit(p.get('limit'), 20, 1, 50),
      };
      const hideRead = parseEnum('hide_read', p.get('hide_read'), ['true', 'false'], 'false') === 'true';
      const origin = publicOrigin(req, deps);
      const readerId = await readerOfFeedKey(deps.sql, key);
      if (readerId === null) throw new HttpError(401, 'invalid_feed_key', 'this feed key is unknown or was revoked; POST /v1/me/feed-key issues a new URL');
      const profile = await profiles.get(readerId);
      const page = await personal.page(hideRead ? withReadHidden(profile) : profile, q, false);
      const items = (JSON.parse(page.body.toString('utf8')) as { items: FeedItem[] }).items;
      const view = { region: q.region === 'global' ? null : q.region, category: q.category === 'top' ? null : q.category };
      const self = `${origin}/v1/feed.atom${qs(view)}`.replace('/v1/feed.atom', '/v1/me/feed.atom');
      return atomReply(req, atomFeed({
        // the id names the reader's feed, never its key (ids are shown by feed readers, keys must not be)
        id: `urn:newsagg:for-you:${readerId}${qs(view)}`,
        title: 'For you · newsagg',
        self,
        alternate: `${origin}/for-you`,
        entries: items.map((it) => itemEntry(origin, it)),
      }), PRIVATE_ATOM_CACHE);
    }),
  );
}
