import { createHash, timingSafeEqual } from 'node:crypto';
import type { ArticleRow } from '../../actors/store/articles.js';
import { displayTitle } from '../../actors/store/display-title.js';
import { clickUrl } from '../../actors/store/feed-items.js';
import type { Cache } from '../../runtime/cache.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import type { BreakingService } from '../breaking.js';
import type { TrustedProxies } from '../client-address.js';
import { normalizeAddress } from '../client-address.js';
import type { CursorCodec } from '../cursor.js';
import type { FeedService } from '../feed.js';
import type { PersonalFeed } from '../personal/service.js';
import type { Profiles } from '../readers/profiles.js';
import type { TrendingService } from '../trending/service.js';
import type { PushRoutesDeps } from './push.js';
import { etagOf, type HotEntry } from '../hot-cache.js';
import { encodeHeaders, type Reply, type Request } from '../reply.js';

/** What the API routes need from the node. */
export interface ApiDeps {
  sql: Sql;
  cache: Cache;
  feed: FeedService;
  codec: CursorCodec;
  /** bearer token for admin routes; absent/null = admin routes are not registered at all */
  adminToken?: string | null;
  /** per client (known API token, else IP); rps 0 turns limiting off */
  rateLimit: { rps: number; burst: number };
  /** the node's data dir: thumbnails are read from `<dataDir>/thumbs` */
  dataDir: string;
  now?: () => number;
  log?: Logger;
  /** tokens that get their own rate-limit bucket (the admin token always does) */
  apiTokens?: readonly string[];
  /**
   * `--trust-proxy`: requests from these peers have their client address taken from
   * `X-Forwarded-For` (the right-most hop that is not itself trusted). Absent = the socket peer.
   */
  trustProxy?: TrustedProxies | null;
  /** a site URL → its feed or news sitemap (admin: add a publisher by its site alone) */
  findSource?: (siteUrl: string) => Promise<{ url: string; kind: string } | null>;
  /** how long a rendered first page of a search is reused (default SEARCH_HOT_TTL_MS; 0 = never) */
  searchHotTtlMs?: number;
  /** the active breaking set (GET /v1/breaking); absent = one reading SQL through `feed` */
  breaking?: BreakingService;
  /** reader profiles (`/v1/me`, `for=me`, clicks); absent = no reader routes */
  profiles?: Profiles;
  /** the personalised feed (`/v1/feed?for=me`); absent = `for=me` answers the unpersonalised order */
  personal?: PersonalFeed;
  /** `/v1/trending`; absent = not served */
  trending?: TrendingService;
  /** push alerts (`/v1/push/key`, `/v1/me/push`, `/sw.js`); absent = not served */
  push?: PushRoutesDeps;
  /** told after admin routes add or remove publishers, so schedulers need not poll the table */
  onPublishersChanged?: (change: { added: string[]; removed: string[] }) => void;
  /** the id of the node polling a publisher (`--node-id`; its shard's owner in a cluster), null when none */
  ownerOf?: (publisherId: string) => string | null;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Feed pages: a CDN may serve a page for 10 s and a stale one while it refetches. */
export const FEED_CACHE = 'public, max-age=10, stale-while-revalidate=30';
/** Stories, articles and search change more slowly than a client re-asks. */
export const DETAIL_CACHE = 'public, max-age=30, stale-while-revalidate=60';
export const NO_STORE = 'no-store';

/** True when `If-None-Match` names `etag` (a list, weak validators and `*` included). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** A cacheable reply with a pre-rendered body: 304 when the client already has it. */
export function cachedReply(req: Request, body: string | Uint8Array, etag: string, cacheControl: string, type = JSON_TYPE): Reply {
  if (etagMatches(req.header('if-none-match'), etag)) return { status: 304, headers: { etag, 'cache-control': cacheControl } };
  return { status: 200, headers: { 'content-type': type, etag, 'cache-control': cacheControl }, body };
}

/** the two replies of a hot entry, built once: the server only reads a Reply */
const hotReplies = new WeakMap<HotEntry, { ok: Reply; notModified: Reply }>();

/**
 * `cachedReply` for a hot-cache entry (JSON): the replies are built on first use and shared by
 * every request the entry answers, so a cached page allocates nothing per request.
 */
export function hotReply(req: Request, entry: HotEntry, cacheControl: string): Reply {
  let r = hotReplies.get(entry);
  if (r === undefined) {
    const etag = entry.etag;
    const ok = { 'content-type': JSON_TYPE, etag, 'cache-control': cacheControl };
    const notModified = { etag, 'cache-control': cacheControl };
    r = {
      ok: { status: 200, headers: ok, encodedHeaders: encodeHeaders(ok), body: entry.body },
      notModified: { status: 304, headers: notModified, encodedHeaders: encodeHeaders(notModified) },
    };
    hotReplies.set(entry, r);
  }
  const inm = req.header('if-none-match');
  return inm !== undefined && etagMatches(inm, entry.etag) ? r.notModified : r.ok;
}

/** JSON body with an ETag derived from it. */
export function jsonCached(req: Request, data: unknown, cacheControl: string): Reply {
  const body = JSON.stringify(data);
  return cachedReply(req, body, etagOf(body), cacheControl);
}

/**
 * The public view of a stored article: no url hash, simhash or internal fields. Every article
 * view shares one core with feed items: `article_id`, `story_id`, `title`, `summary`,
 * `thumbnail_url`, `publisher_id`, `publisher_name`, `published_at`, `source_url`, `click_url`,
 * `category`, `secondary_category`, `region`; `id` is kept as the article's id too (older clients).
 */
export interface PublicArticle {
  id: string;
  /** the same as `id`: the name feed, trending and breaking items use */
  article_id: string;
  story_id: string | null;
  /** the display title (see displayTitle); the stored title keeps what the publisher sent */
  title: string;
  summary: string | null;
  thumbnail_url: string | null;
  publisher_id: string;
  publisher_name: string;
  published_at: string;
  source_url: string;
  /** the tracked link: records the click, then redirects to source_url */
  click_url: string;
  category: string | null;
  /** a second category the article is likely about too, else null */
  secondary_category: string | null;
  region: string | null;
  language: string | null;
  duplicate_of: string | null;
}

/** What publicArticle reads of a stored article. */
export type PublicSource = Pick<ArticleRow, 'id' | 'story_id' | 'title' | 'snippet' | 'thumbnail_url' | 'publisher_id' | 'published_at' | 'url' | 'category' | 'secondary_category' | 'region' | 'language' | 'duplicate_of'> & {
  publisher_name: string;
};

export function publicArticle(a: PublicSource): PublicArticle {
  return {
    id: a.id,
    article_id: a.id,
    story_id: a.story_id,
    title: displayTitle(a.title, a.publisher_name),
    summary: a.snippet,
    thumbnail_url: a.thumbnail_url,
    publisher_id: a.publisher_id,
    publisher_name: a.publisher_name,
    published_at: a.published_at,
    source_url: a.url,
    click_url: clickUrl(a.id),
    category: a.category,
    secondary_category: a.secondary_category ?? null,
    region: a.region,
    language: a.language,
    duplicate_of: a.duplicate_of,
  };
}

/** Constant-time comparison of a presented secret with the expected one. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(req: Request): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/** The client's address: the socket peer, or, from a trusted proxy, the forwarded client. */
export function clientIp(req: Request, trust: TrustedProxies | null | undefined): string {
  if (!trust) return normalizeAddress(req.ip);
  return trust.clientOf(req.ip, req.header('x-forwarded-for'));
}

/** Whether the client reached us over https: only a trusted proxy can say so. */
export function viaHttps(req: Request, trust: TrustedProxies | null | undefined): boolean {
  if (!trust || !trust.trusts(normalizeAddress(req.ip))) return false;
  const proto = req.header('x-forwarded-proto');
  return proto !== undefined && proto.split(',').pop()!.trim().toLowerCase() === 'https';
}
