import { CATEGORIES, EDITIONS, LANGUAGES } from '../actors/model/index.js';
import { readerPaths, readerSchemas } from './openapi-readers.js';
import { FEED_CATEGORIES, FEED_REGIONS } from './params.js';

/**
 * The OpenAPI 3.1 document of the public HTTP API, as data (served at `/v1/openapi.json`).
 * Tests validate real responses against these schemas, so a change to a route's shape that is
 * not made here too fails CI. Keep DESIGN §6 and the README in step with it.
 */

type Schema = Record<string, unknown>;
const str: Schema = { type: 'string' };
const strOrNull: Schema = { type: ['string', 'null'] };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const dateTimeOrNull: Schema = { type: ['string', 'null'], format: 'date-time' };
const int: Schema = { type: 'integer' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** `/r/{article_id}` on every article view: records the click, then redirects to source_url */
const clickUrl: Schema = { type: 'string', pattern: '^/r/', description: 'the tracked link (/r/{article_id}): records the click, then redirects (302) to source_url' };
/** `region` of a feed, trending or breaking item */
const edition: Schema = {
  type: 'string',
  enum: [...FEED_REGIONS],
  description: 'the edition the item is listed under: on /v1/feed, /v1/trending and /v1/breaking with region=R it is R; without a region (the global lists) and in live frames, the story\'s home edition (where it happened, else the first edition carrying it, else global). Never the lead publisher\'s country',
};
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required });

/** What a push subscription alerts about (README *Push alerts*). */
const pushPrefs: Record<string, Schema> = {
  breaking: { type: 'boolean', description: 'every story that starts breaking' },
  stories: { type: 'array', maxItems: 100, description: 'followed story ids: new articles alert, at most once per --push-story-throttle-minutes', items: str },
  topics: { type: 'array', description: 'followed categories: a story of one alerts once when it reaches threshold articles', items: { type: 'string', enum: [...CATEGORIES] } },
  places: { type: 'array', maxItems: 20, description: 'followed places by name (matched as in For you), with the same threshold', items: str },
  threshold: { type: 'integer', minimum: 2, maximum: 100_000, description: 'articles a story of a followed topic or place needs (default --push-topic-threshold)' },
  quiet_hours: { oneOf: [obj({ start: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }, end: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } }), { type: 'null' }], description: 'local time with nothing sent; null for none (default --push-quiet-hours)' },
  tz_offset_minutes: { type: 'integer', minimum: -840, maximum: 840, description: 'the reader\'s time zone, minutes east of UTC (default 0)' },
  daily_cap: { type: 'integer', minimum: 1, description: 'alerts per local day at most, up to --push-daily-cap (its default)' },
};

const schemas: Record<string, Schema> = {
  Error: obj({ error: obj({ code: str, message: str }) }),
  RelatedHeadline: obj({ article_id: str, title: str, publisher_name: str, click_url: clickUrl }),
  FeedItem: obj(
    {
      article_id: str, story_id: str, title: str, summary: strOrNull, thumbnail_url: strOrNull, publisher_id: str, publisher_name: str,
      published_at: dateTime, source_url: str, click_url: clickUrl, category: { type: ['string', 'null'], enum: [...CATEGORIES, null] },
      secondary_category: { type: ['string', 'null'], enum: [...CATEGORIES, null], description: 'a second category of the story, else null (absent in items cached by an older version)' },
      region: edition,
      coverage_count: int,
      related: { type: 'array', maxItems: 3, description: 'up to 3 headlines of other publishers, newest first; /r/{article_id} leads to each', items: ref('RelatedHeadline') },
    },
    ['article_id', 'story_id', 'title', 'summary', 'thumbnail_url', 'publisher_name', 'published_at', 'source_url', 'click_url', 'category', 'region', 'coverage_count'],
  ),
  FeedPage: obj({ items: { type: 'array', items: ref('FeedItem') }, next_cursor: strOrNull }),
  BreakingItem: { allOf: [ref('FeedItem'), obj({ breaking_since: dateTime })] },
  BreakingList: obj({ items: { type: 'array', items: ref('BreakingItem') } }),
  TrendingItem: { allOf: [ref('FeedItem'), obj({ trend_score: { type: 'number' } })] },
  TrendingPage: obj({ items: { type: 'array', items: ref('TrendingItem') } }),
  Interests: obj({
    categories: { type: 'array', items: { type: 'string', enum: [...CATEGORIES] } },
    entities: { type: 'array', items: str },
    publishers: { type: 'array', items: str },
    places: { type: 'array', items: str },
  }),
  InterestsUpdate: obj(
    {
      follow: obj({ categories: { type: 'array', items: { type: 'string', enum: [...CATEGORIES] } }, entities: { type: 'array', items: str }, publishers: { type: 'array', items: str }, places: { type: 'array', items: str } }, []),
      hide: obj({ categories: { type: 'array', items: { type: 'string', enum: [...CATEGORIES] } }, entities: { type: 'array', items: str }, publishers: { type: 'array', items: str }, places: { type: 'array', items: str } }, []),
    },
    [],
  ),
  Me: obj({ reader_id: str, follow: ref('Interests'), hide: ref('Interests'), history_size: int }),
  PushKey: obj({ public_key: { type: 'string', description: 'the VAPID public key: base64url of the 65-byte uncompressed P-256 point (applicationServerKey)' } }),
  PushPrefs: obj(pushPrefs),
  PushSubscription: { allOf: [obj({ id: str, endpoint: str, created_at: dateTime }), ref('PushPrefs')] },
  PushSubscriptionList: obj({ subscriptions: { type: 'array', items: ref('PushSubscription') } }),
  PushSubscribe: obj(
    {
      endpoint: { type: 'string', maxLength: 2048, description: 'the push service URL: https (a host the SSRF guard accepts)' },
      expirationTime: { type: ['number', 'null'] },
      keys: obj({ p256dh: { type: 'string', description: 'base64url, 65-byte P-256 point' }, auth: { type: 'string', description: 'base64url, 16 bytes' } }),
      ...pushPrefs,
    },
    ['endpoint', 'keys'],
  ),
  Catalogue: obj({
    first_run: { type: 'boolean' },
    publishers: int,
    can_import: { type: 'boolean' },
    catalogue: obj({
      total: int,
      editions: {
        type: 'array',
        items: obj({ region: str, publishers: { ...int, description: 'the edition\'s own publishers' }, adds: { ...int, description: 'how many choosing the edition adds: its own and the global ones' } }),
      },
    }),
    sources: obj({
      total: int,
      polled: { ...int, description: 'publishers polled at least once' },
      ok: { ...int, description: 'publishers whose last poll answered' },
      failing: { ...int, description: 'publishers whose last poll failed' },
      reasons: {
        type: 'array',
        description: 'failing publishers by reason, most first',
        items: obj({
          reason: { type: 'string', enum: ['dns', 'network', 'refused', 'timeout', 'tls', 'blocked', 'robots', 'rate_limited', 'http_error', 'not_a_feed', 'other'] },
          publishers: int,
          message: str,
        }),
      },
      offline: { type: 'boolean', description: 'every polled source failed, for reasons that mean this machine reaches no one (DNS, no route)' },
    }),
  }),
  CatalogueImport: obj({ added: int, offered: int }),
  Article: obj({
    id: str, article_id: { type: 'string', description: 'the same as id: the name feed, trending and breaking items use for it' }, story_id: strOrNull, title: str, summary: strOrNull, thumbnail_url: strOrNull, publisher_id: str, publisher_name: str,
    published_at: dateTime, source_url: str, click_url: clickUrl, category: strOrNull,
    secondary_category: { type: ['string', 'null'], enum: [...CATEGORIES, null], description: 'a second category the article is likely about too, else null; a wire copy carries its original\'s' },
    region: strOrNull, language: strOrNull, duplicate_of: strOrNull,
  }),
  StorySummary: obj({ id: str, title: str, article_count: int, publisher_count: int, updated_at: dateTime }),
  ArticleDetail: obj({
    article: ref('Article'),
    story: { oneOf: [ref('StorySummary'), { type: 'null' }] },
    related: { type: 'array', items: ref('Article') },
  }),
  Story: obj({
    id: str, title: str, lead_article_id: strOrNull, article_count: int, publisher_count: int, first_seen: dateTime,
    updated_at: dateTime, category: strOrNull,
    secondary_category: { type: ['string', 'null'], enum: [...CATEGORIES, null], description: 'a second category of the story (its lead\'s), else null' },
    regions: { type: 'array', items: str }, home_regions: { type: 'array', items: str },
  }),
  StoryPublisher: obj({ id: str, name: str, article_count: int }),
  StoryArticle: { allOf: [ref('Article'), obj({ display_title: str })] },
  TimelineEntry: obj({ at: dateTime, article_id: str, article_count: int }),
  RegionCoverage: obj({ region: str, article_count: int, article_ids: { type: 'array', items: str } }),
  StoryDetail: obj({
    story: ref('Story'),
    articles: { type: 'array', items: ref('StoryArticle') },
    publishers: { type: 'array', items: ref('StoryPublisher') },
    timeline: { type: 'array', description: 'how the story developed, oldest first: up to 6 stretches of time, each through one report', items: ref('TimelineEntry') },
    top_coverage: { type: 'array', description: 'ids of up to 5 other reports, one per publisher, most authoritative first', items: str },
    by_region: { type: 'array', description: 'articles by region, most covered first', items: ref('RegionCoverage') },
  }),
  SearchItem: { allOf: [ref('Article'), obj({ rank: { type: 'number' }, matches: int, coverage_count: int })] },
  SearchPage: obj({ items: { type: 'array', items: ref('SearchItem') }, next_cursor: strOrNull }),
  Publisher: obj({
    id: str, name: str, feed_url: str, site_url: strOrNull, country: strOrNull, region: strOrNull, category: strOrNull, tier: int,
    last_polled_at: dateTimeOrNull, last_success_at: dateTimeOrNull, next_poll_at: dateTimeOrNull, not_modified_count: int,
    fetch_count: int, article_count: int, failures: int, circuit: { type: 'string', enum: ['closed', 'open', 'half_open'] },
    circuit_reason: strOrNull, websub_hub: strOrNull,
    entries_skipped: { type: 'integer', description: 'new feed entries left out on purpose since the publisher was added: published before the retention period (--retention-days), or past the most entries read from one document (8,192)' },
    owner: { type: ['string', 'null'], description: 'id of the node polling this publisher (--node-id; in a cluster, the owner of its publisher shard); null when no node polls it' },
    accelerated_until: { ...dateTimeOrNull, description: 'polled faster for breaking news (every --breaking-accelerate-interval-seconds, or slower where many accelerated feeds share its host) until this instant: it covered the breaking story\'s region or topic in the last day; null when not accelerated' },
  }),
  PublisherPage: obj({ items: { type: 'array', items: ref('Publisher') }, next_cursor: strOrNull }),
  RejectedArticle: obj({
    id: int, url: str, publisher_id: strOrNull,
    reason: { type: 'string', enum: ['invalid_article', 'invalid_url', 'too_large', 'cluster_failed', 'storage_rejected'] },
    code: str, message: str, attempts: int, first_at: dateTime, last_at: dateTime,
    article: { ...strOrNull, description: 'the refused article as JSON text, when known' },
  }),
  RejectedPage: obj({ items: { type: 'array', items: ref('RejectedArticle') }, next_cursor: strOrNull }),
  NewPublisher: obj(
    { name: str, feed_url: str, site_url: str, country: str, category: { type: 'string', enum: [...CATEGORIES] }, tier: int },
    ['feed_url'],
  ),
  OpmlImport: obj({ added: int, existing: int, rejected: { type: 'array', items: obj({ text: str, reason: str }) } }),
  Health: obj({ status: str }),
  Readiness: obj(
    {
      status: { type: 'string', enum: ['ready', 'degraded', 'unavailable', 'draining'] },
      checks: { type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'degraded', 'failed'] } },
      degraded: { type: 'object', description: 'status degraded: why, by check (sources: every source this node polled lately failed)', additionalProperties: str },
      failed: { type: 'array', items: str },
    },
    ['status', 'checks'],
  ),
};

const p = (name: string, description: string, schema: Schema, required = false): Schema => ({ name, in: 'query', required, description, schema });
const pathId = (description: string): Schema => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' } });
const limit = (max: number, dflt: number) => p('limit', `page size, 1–${max}`, { type: 'integer', minimum: 1, maximum: max, default: dflt });
const cursor = p('cursor', 'opaque cursor from next_cursor of the previous page', str);
const region = p('region', 'edition', { type: 'string', enum: [...FEED_REGIONS] });
const error = (description: string): Schema => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const ok = (name: string, description = 'OK'): Schema => ({
  description,
  headers: { ETag: { schema: str }, 'Cache-Control': { schema: str } },
  content: { 'application/json': { schema: ref(name) } },
});
const common = { 400: error('invalid parameter'), 429: error('rate limited; see Retry-After') };
/** a reader route given an Authorization header that names no reader: never a new reader in its place */
const badToken = error('invalid_token: the Authorization header is not "Bearer <reader token>" (16-256 of A-Z a-z 0-9 . _ ~ + / = -); the message says what is wrong');
const admin = { security: [{ bearer: [] }] };
const reader = { security: [{ reader: [] }, { readerCookie: [] }] };

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'newsagg API',
    version: '1.0.0',
    description: 'Feeds of stories, personalised feeds, trending, Full Coverage, search and publisher administration. Errors are `{"error": {"code", "message"}}`.',
  },
  paths: {
    '/v1/feed': {
      get: {
        summary: 'One item per story (its lead), diversity enforced',
        parameters: [
          region, p('category', 'topic, or top', { type: 'string', enum: [...FEED_CATEGORIES] }), cursor, limit(50, 20),
          p('related', 'true: items carry up to 3 headlines of other publishers (related)', { type: 'string', enum: ['true', 'false'], default: 'false' }),
          p('for', 'me: the calling reader\'s personalised order (reader token or newsagg_reader cookie; without either, the unpersonalised order and the cookie)', { type: 'string', enum: ['me'] }),
          p('lang', 'only stories whose lead is in this language (ISO 639-1; GET /v1/editions lists them); not with for=me (400 invalid_lang). Cursors are the language\'s own', { type: 'string', enum: [...LANGUAGES] }),
          p('hide_read', 'with for=me, true: leave out the stories the reader has read (PUT /v1/me/read/{story_id}, or followed /r/ links); without for=me, 400 invalid_hide_read', { type: 'string', enum: ['true', 'false'], default: 'false' }),
        ],
        responses: { 200: ok('FeedPage'), 304: { description: 'not modified' }, 401: badToken, ...common },
      },
    },
    '/v1/breaking': {
      get: {
        summary: 'Stories breaking now, newest first; without region, all editions',
        parameters: [region],
        responses: { 200: ok('BreakingList'), 304: { description: 'not modified' }, ...common },
      },
    },
    '/v1/live': {
      get: {
        summary: 'WebSocket (upgrade): subscribe to breaking, breaking:{region}, feed:{region}:{category}, story:{id}; see the README',
        responses: { 101: { description: 'switching protocols' }, 426: error('not a WebSocket upgrade'), 429: error('too many live connections open, or opened too fast, from this client (Retry-After); code too_many_connections or rate_limited') },
      },
    },
    '/v1/trending': {
      get: {
        summary: 'Stories trending in an edition: coverage velocity, clicks, recency',
        parameters: [region, limit(50, 20)],
        responses: { 200: ok('TrendingPage'), ...common },
      },
    },
    '/v1/me': {
      get: { ...reader, summary: 'The calling reader: interests and how many clicks are remembered (a caller with neither token nor cookie becomes a reader)', responses: { 200: ok('Me'), 401: badToken, ...common } },
      put: {
        ...reader,
        summary: 'Replace the reader\'s interests (a missing key is an empty list). Entries must name what the node knows: 400 unknown_publisher (publishers by id), unknown_place, unknown_entity, each naming the entries',
        requestBody: { required: true, content: { 'application/json': { schema: ref('InterestsUpdate') } } },
        responses: { 200: ok('Me'), 401: badToken, 413: error('body over 64 KB'), ...common },
      },
      delete: { ...reader, summary: 'Forget the reader: interests and reading history', responses: { 204: { description: 'forgotten' }, 401: badToken, ...common } },
    },
    '/v1/push/key': {
      get: { summary: 'The VAPID public key browsers subscribe with (one per deployment)', responses: { 200: ok('PushKey'), ...common } },
    },
    '/v1/me/push': {
      get: { ...reader, summary: 'The reader\'s push subscriptions with their preferences', responses: { 200: ok('PushSubscriptionList'), 401: badToken, ...common } },
      post: {
        ...reader,
        summary: 'Add a push subscription (the browser\'s PushSubscription JSON) with what to be told about, or replace the preferences of a known endpoint',
        requestBody: { required: true, content: { 'application/json': { schema: ref('PushSubscribe') } } },
        responses: { 200: ok('PushSubscription', 'replaced'), 201: ok('PushSubscription', 'created'), 401: badToken, 413: error('body over 8 KB'), ...common },
      },
      delete: {
        ...reader,
        summary: 'Stop push alerts: the subscription a notification\'s stop URL names (?stop=, no reader needed), the reader\'s one endpoint (?endpoint= or {"endpoint"}), or all of the reader\'s',
        parameters: [p('stop', 'the stop token a notification carries', str), p('endpoint', 'one of the reader\'s endpoints', str)],
        responses: { 204: { description: 'stopped (also when nothing matched)' }, 401: badToken, ...common },
      },
    },
    '/sw.js': { get: { summary: 'The service worker: shows push alerts and opens their story, and keeps the shell, the last front pages and the saved stories for reading offline', responses: { 200: { description: 'JavaScript', content: { 'text/javascript': { schema: str } } } } } },
    '/manifest.webmanifest': { get: { summary: 'The web app manifest (name, icon, start URL, standalone display, theme colours)', responses: { 200: { description: 'Web app manifest', content: { 'application/manifest+json': { schema: { type: 'object' } } } } } } },
    '/icon.svg': { get: { summary: "The app's icon (scalable)", responses: { 200: { description: 'SVG', content: { 'image/svg+xml': { schema: str } } } } } },
    '/v1/articles/{id}': {
      get: { summary: 'An article with related articles of its story', parameters: [pathId('article id')], responses: { 200: ok('ArticleDetail'), 404: error('no such article'), ...common } },
    },
    '/v1/stories/{id}': {
      get: { summary: 'Full Coverage: every article and publisher of a story, a timeline, top coverage and coverage by region', parameters: [pathId('story id')], responses: { 200: ok('StoryDetail'), 404: error('no such story'), ...common } },
    },
    '/v1/search': {
      get: {
        summary: 'Full-text search (websearch syntax), title over snippet, blended with recency; one result per story (its best-matching article)',
        parameters: [
          p('q', 'query, 1–200 characters', str, true), p('category', 'topic filter', { type: 'string', enum: [...CATEGORIES] }), region,
          p('lang', 'only articles in this language; the query is parsed with its text-search configuration (without it, each article is matched and ranked by the query parsed in its own language)', { type: 'string', enum: [...LANGUAGES] }),
          cursor, limit(50, 20),
        ],
        responses: { 200: ok('SearchPage'), ...common },
      },
    },
    '/r/{id}': {
      get: {
        summary: 'Records the click and redirects to the article at its publisher',
        parameters: [pathId('article id')],
        responses: { 302: { description: 'redirect to the stored source URL', headers: { Location: { schema: str } } }, 404: error('no such article'), ...common },
      },
    },
    '/v1/catalogue': {
      get: { summary: 'The shipped catalogue of real publishers per edition, and whether this node has none yet (first run)', responses: { 200: ok('Catalogue'), ...common } },
      post: {
        ...admin,
        summary: 'Add an edition of the catalogue (plus its global feeds); without an admin token configured, only while the node has no publishers',
        requestBody: { required: true, content: { 'application/json': { schema: obj({ region: { type: 'string', enum: ['all', ...EDITIONS] } }) } } },
        responses: { 200: ok('CatalogueImport'), 401: error('missing or wrong token'), 403: error('not a first run and no admin token configured'), ...common },
      },
    },
    '/v1/publishers': {
      get: { ...admin, summary: 'Publishers with polling status', parameters: [cursor, limit(500, 100)], responses: { 200: ok('PublisherPage'), 401: error('missing or wrong token'), ...common } },
      post: {
        ...admin,
        summary: 'Add a publisher',
        requestBody: { required: true, content: { 'application/json': { schema: ref('NewPublisher') } } },
        responses: { 201: ok('Publisher', 'created'), 401: error('missing or wrong token'), 409: error('feed URL already present'), 422: error('only a site URL was given and the site offers no feed and no news sitemap'), ...common },
      },
    },
    '/v1/publishers/{id}': {
      get: { ...admin, summary: 'One publisher', parameters: [pathId('publisher id')], responses: { 200: ok('Publisher'), 401: error('missing or wrong token'), 404: error('no such publisher'), ...common } },
      delete: { ...admin, summary: 'Remove a publisher', parameters: [pathId('publisher id')], responses: { 204: { description: 'removed' }, 401: error('missing or wrong token'), 404: error('no such publisher'), ...common } },
    },
    '/v1/rejected-articles': {
      get: {
        ...admin,
        summary: 'Articles ingest set aside instead of storing, newest first, with the reason',
        parameters: [p('reason', 'only this reason', { type: 'string', enum: ['invalid_article', 'invalid_url', 'too_large', 'cluster_failed', 'storage_rejected'] }), cursor, limit(500, 50)],
        responses: { 200: ok('RejectedPage'), 401: error('missing or wrong token'), ...common },
      },
    },
    '/v1/opml': {
      get: { ...admin, summary: 'Export publishers as OPML 2.0', responses: { 200: { description: 'OPML', content: { 'text/x-opml': { schema: str } } }, 401: error('missing or wrong token') } },
      post: {
        ...admin,
        summary: 'Import publishers from OPML',
        requestBody: { required: true, content: { 'text/x-opml': { schema: str } } },
        responses: { 200: ok('OpmlImport'), 400: error('not OPML'), 401: error('missing or wrong token') },
      },
    },
    '/healthz': { get: { summary: 'The process answers', responses: { 200: ok('Health') } } },
    '/readyz': {
      get: {
        summary: 'Storage and cache answer, and ingest makes progress. 200 ready, or 200 degraded when every news source this node polls fails (it still serves; the body says why); 503 names the failed checks',
        responses: { 200: ok('Readiness'), 503: ok('Readiness', 'not ready') },
      },
    },
    '/metrics': { get: { summary: 'Prometheus text format', responses: { 200: { description: 'metrics', content: { 'text/plain': { schema: str } } } } } },
    ...readerPaths,
    '/v1/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } } } },
  },
  components: {
    schemas: { ...schemas, ...readerSchemas },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'NEWSAGG_ADMIN_TOKEN; admin routes are off without one' },
      reader: { type: 'http', scheme: 'bearer', description: 'a reader token: any 16-256 URL-safe characters the client keeps secret (an API token, or the newsagg_reader cookie value)' },
      readerCookie: { type: 'apiKey', in: 'cookie', name: 'newsagg_reader', description: 'set by the server on the first response to a caller with neither token nor cookie' },
    },
  },
} as const;
