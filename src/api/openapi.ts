import { CATEGORIES } from '../actors/store/feed-items.js';
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
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required });

const schemas: Record<string, Schema> = {
  Error: obj({ error: obj({ code: str, message: str }) }),
  FeedItem: obj({
    article_id: str, story_id: str, title: str, summary: strOrNull, thumbnail_url: strOrNull, publisher_name: str,
    published_at: dateTime, source_url: str, category: { type: ['string', 'null'], enum: [...CATEGORIES, null] },
    region: strOrNull, coverage_count: int,
  }),
  FeedPage: obj({ items: { type: 'array', items: ref('FeedItem') }, next_cursor: strOrNull }),
  Article: obj({
    id: str, story_id: strOrNull, title: str, summary: strOrNull, thumbnail_url: strOrNull, publisher_id: str, publisher_name: str,
    published_at: dateTime, source_url: str, click_url: str, category: strOrNull, region: strOrNull, language: strOrNull,
    duplicate_of: strOrNull,
  }),
  StorySummary: obj({ id: str, title: str, article_count: int, publisher_count: int, updated_at: dateTime }),
  ArticleDetail: obj({
    article: ref('Article'),
    story: { oneOf: [ref('StorySummary'), { type: 'null' }] },
    related: { type: 'array', items: ref('Article') },
  }),
  Story: obj({
    id: str, title: str, lead_article_id: strOrNull, article_count: int, publisher_count: int, first_seen: dateTime,
    updated_at: dateTime, category: strOrNull, regions: { type: 'array', items: str }, home_regions: { type: 'array', items: str },
  }),
  StoryPublisher: obj({ id: str, name: str, article_count: int }),
  StoryDetail: obj({
    story: ref('Story'),
    articles: { type: 'array', items: ref('Article') },
    publishers: { type: 'array', items: ref('StoryPublisher') },
  }),
  SearchItem: { allOf: [ref('Article'), obj({ rank: { type: 'number' } })] },
  SearchPage: obj({ items: { type: 'array', items: ref('SearchItem') }, next_cursor: strOrNull }),
  Publisher: obj({
    id: str, name: str, feed_url: str, site_url: strOrNull, country: strOrNull, region: strOrNull, category: strOrNull, tier: int,
    last_polled_at: dateTimeOrNull, last_success_at: dateTimeOrNull, next_poll_at: dateTimeOrNull, not_modified_count: int,
    fetch_count: int, article_count: int, failures: int, circuit: { type: 'string', enum: ['closed', 'open', 'half_open'] },
    circuit_reason: strOrNull, websub_hub: strOrNull,
  }),
  PublisherPage: obj({ items: { type: 'array', items: ref('Publisher') }, next_cursor: strOrNull }),
  NewPublisher: obj(
    { name: str, feed_url: str, site_url: str, country: str, category: { type: 'string', enum: [...CATEGORIES] }, tier: int },
    ['feed_url'],
  ),
  OpmlImport: obj({ added: int, existing: int, rejected: { type: 'array', items: obj({ text: str, reason: str }) } }),
  Health: obj({ status: str }),
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
const admin = { security: [{ bearer: [] }] };

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'newsagg API',
    version: '1.0.0',
    description: 'Feeds of stories, Full Coverage, search and publisher administration. Errors are `{"error": {"code", "message"}}`.',
  },
  paths: {
    '/v1/feed': {
      get: {
        summary: 'One item per story (its lead), diversity enforced',
        parameters: [region, p('category', 'topic, or top', { type: 'string', enum: [...FEED_CATEGORIES] }), cursor, limit(50, 20)],
        responses: { 200: ok('FeedPage'), 304: { description: 'not modified' }, ...common },
      },
    },
    '/v1/articles/{id}': {
      get: { summary: 'An article with related articles of its story', parameters: [pathId('article id')], responses: { 200: ok('ArticleDetail'), 404: error('no such article'), ...common } },
    },
    '/v1/stories/{id}': {
      get: { summary: 'Full Coverage: every article and publisher of a story', parameters: [pathId('story id')], responses: { 200: ok('StoryDetail'), 404: error('no such story'), ...common } },
    },
    '/v1/search': {
      get: {
        summary: 'Full-text search (websearch syntax), title over snippet, blended with recency',
        parameters: [p('q', 'query, 1–200 characters', str, true), p('category', 'topic filter', { type: 'string', enum: [...CATEGORIES] }), region, cursor, limit(50, 20)],
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
    '/readyz': { get: { summary: 'Storage and cache answer', responses: { 200: ok('Health'), 503: ok('Health', 'not ready') } } },
    '/metrics': { get: { summary: 'Prometheus text format', responses: { 200: { description: 'metrics', content: { 'text/plain': { schema: str } } } } } },
    '/v1/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } } } },
  },
  components: {
    schemas,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'NEWSAGG_ADMIN_TOKEN; admin routes are off without one' } },
  },
} as const;
