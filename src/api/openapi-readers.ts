import { FEED_CATEGORIES, FEED_REGIONS, LANGUAGES } from '../actors/model/index.js';

/**
 * The OpenAPI paths and schemas of the reader features of issue 24 (editions, saved stories,
 * read state, Atom feeds out, Local), merged into openapi.ts's document. Kept apart so the
 * document's file stays small.
 */

type Schema = Record<string, unknown>;
const str: Schema = { type: 'string' };

const dateTime: Schema = { type: 'string', format: 'date-time' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required });
const error = (description: string): Schema => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const ok = (name: string, description = 'OK'): Schema => ({ description, headers: { ETag: { schema: str }, 'Cache-Control': { schema: str } }, content: { 'application/json': { schema: ref(name) } } });
const common = { 400: error('invalid parameter'), 429: error('rate limited; see Retry-After') };
const badToken = error('invalid_token: the Authorization header is not "Bearer <reader token>"; the message says what is wrong');
const reader = { security: [{ reader: [] }, { readerCookie: [] }] };
const storyId = { name: 'story_id', in: 'path', required: true, description: 'story id', schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$' } };
const noStory = error('not_found: no such story');
const named = (ids: readonly string[]): Schema => ({ type: 'array', items: obj({ id: { type: 'string', enum: [...ids] }, name: str }) });

export const readerSchemas: Record<string, Schema> = {
  Editions: obj({
    regions: { ...named(FEED_REGIONS), description: 'editions, global (the World edition) first: the region= of feeds, search, trending and breaking' },
    categories: { ...named(FEED_CATEGORIES), description: 'sections, top first: the category= of feeds' },
    languages: { type: 'array', description: 'languages a reader may choose', items: obj({ id: { type: 'string', enum: [...LANGUAGES] }, name: str, native: { type: 'string', description: 'the name in the language itself' } }) },
  }),
  SavedItem: { allOf: [ref('FeedItem'), obj({ saved_at: dateTime })] },
  SavedList: obj({ items: { type: 'array', description: 'newest saved first; stories gone since (retention) are left out', items: ref('SavedItem') } }),
  Saved: obj({ story_id: str, saved_at: dateTime }),
  FeedKey: obj({ url: { type: 'string', description: 'the private Atom URL of For you, key included: shown once (only a hash of the key is kept)' }, created_at: dateTime }),
  FeedKeyState: obj({ active: { type: 'boolean' }, created_at: { type: ['string', 'null'], format: 'date-time' } }),
  City: obj({ id: { type: 'string', description: '<iso code>-<name slug>, e.g. fr-lyon' }, name: str, country: { type: 'string', description: 'ISO 3166-1 alpha-2' }, country_name: str, region: { type: 'string', enum: [...FEED_REGIONS] } }),
  CityList: obj({ items: { type: 'array', items: ref('City') } }),
  LocalItem: { allOf: [ref('FeedItem'), obj({ near: { type: 'string', enum: ['city', 'country'], description: 'city: the story names the city; country: it is placed in the city\'s country (the gazetteer has no coordinates)' } })] },
  Local: obj({ city: ref('City'), items: { type: 'array', items: ref('LocalItem') } }),
  MyCity: obj({ city: { oneOf: [ref('City'), { type: 'null' }] } }),
  ReadList: obj({ story_ids: { type: 'array', description: 'the stories read, most recently first (at most 200)', items: str } }),
};

const atom = (description: string): Schema => ({
  description,
  headers: { ETag: { schema: str }, 'Cache-Control': { schema: str } },
  content: { 'application/atom+xml': { schema: { type: 'string', description: 'Atom 1.0 (RFC 4287); entries lead to the story page (/story/{id}) and carry the lead\'s publisher (author), time (published), snippet (summary), picture (enclosure link and media:thumbnail) and category; the report at its publisher is the related link' } } },
});
const q = (name: string, description: string, schema: Schema, required = false): Schema => ({ name, in: 'query', required, description, schema });
const feedParams = [
  q('region', 'edition', { type: 'string', enum: [...FEED_REGIONS] }),
  q('category', 'topic, or top', { type: 'string', enum: [...FEED_CATEGORIES] }),
  q('limit', 'entries, 1-50', { type: 'integer', minimum: 1, maximum: 50, default: 20 }),
];
const notModified = { 304: { description: 'not modified (If-None-Match)' } };

export const readerPaths: Record<string, Schema> = {
  '/v1/local/cities': {
    get: {
      summary: 'Cities of the gazetteer a reader may choose for Local, by name prefix (accents and case ignored), alphabetical',
      parameters: [q('q', 'name prefix; empty lists from the start', str), q('limit', '1-100', { type: 'integer', minimum: 1, maximum: 100, default: 20 })],
      responses: { 200: ok('CityList'), ...common },
    },
  },
  '/v1/local': {
    get: {
      summary: 'Local: stories naming the city first, then stories placed in its country, each ranked as For you ranks without affinity (from the city\'s edition and the World edition). Without city=, the reader\'s city (PUT /v1/me/local); none is 400 no_city',
      parameters: [q('city', 'a city id (GET /v1/local/cities); unknown is 400 invalid_city', str), q('limit', '1-50', { type: 'integer', minimum: 1, maximum: 50, default: 20 })],
      responses: { 200: ok('Local'), 401: badToken, ...common },
    },
  },
  '/v1/me/local': {
    get: { ...reader, summary: 'The reader\'s Local city, or null', responses: { 200: ok('MyCity'), 401: badToken, ...common } },
    put: {
      ...reader,
      summary: 'Choose (or with null, clear) the reader\'s Local city',
      requestBody: { required: true, content: { 'application/json': { schema: obj({ city: { type: ['string', 'null'] } }) } } },
      responses: { 200: ok('MyCity'), 401: badToken, 413: error('body over 4 KB'), ...common },
    },
  },
  '/v1/feed.atom': {
    get: {
      summary: 'A feed (the /v1/feed parameters) as Atom; rel="next" links the next page. Cache-Control public, max-age=300. for= is refused (400 invalid_for): For you has a private URL',
      parameters: [...feedParams, q('lang', 'only stories whose lead is in this language', { type: 'string', enum: [...LANGUAGES] }), q('cursor', 'opaque cursor (from the rel="next" link)', str), q('related', 'accepted for parity with /v1/feed; entries carry the lead only', { type: 'string', enum: ['true', 'false'] })],
      responses: { 200: atom('Atom feed'), ...notModified, ...common },
    },
  },
  '/v1/search.atom': {
    get: {
      summary: 'The first page of a search as Atom (one entry per story)',
      parameters: [q('q', 'query, 1-200 characters', str, true), q('category', 'topic filter', { type: 'string', enum: FEED_CATEGORIES.filter((c) => c !== 'top') }), q('region', 'edition', { type: 'string', enum: [...FEED_REGIONS] }), q('lang', 'only articles in this language', { type: 'string', enum: [...LANGUAGES] }), q('limit', 'entries, 1-50', { type: 'integer', minimum: 1, maximum: 50, default: 20 })],
      responses: { 200: atom('Atom feed'), ...notModified, ...common },
    },
  },
  '/v1/stories/{id}.atom': {
    get: {
      summary: 'Full Coverage as Atom, as it grows: the story\'s articles (newest 100), each entry leading to the report (/r/{article_id}) with the story page as its related link',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'story id', schema: str }],
      responses: { 200: atom('Atom feed'), ...notModified, 404: noStory, ...common },
    },
  },
  '/v1/me/feed.atom': {
    get: {
      summary: 'For you as Atom through a private URL (a feed reader sends no cookie): the key names the reader. Cache-Control private, max-age=300',
      parameters: [q('key', 'the private feed key (POST /v1/me/feed-key)', str, true), ...feedParams, q('hide_read', 'true: leave out the stories the reader has read', { type: 'string', enum: ['true', 'false'] })],
      responses: { 200: atom('Atom feed'), ...notModified, 401: error('invalid_feed_key: missing, malformed, unknown or revoked key'), ...common },
    },
  },
  '/v1/me/feed-key': {
    get: { ...reader, summary: 'Whether the reader has a private feed URL, and since when (the key itself is never shown again)', responses: { 200: ok('FeedKeyState'), 401: badToken, ...common } },
    post: { ...reader, summary: 'Issue the private For you feed URL; a new one revokes the previous', responses: { 201: ok('FeedKey', 'issued'), 401: badToken, ...common } },
    delete: { ...reader, summary: 'Revoke the private feed URL', responses: { 204: { description: 'revoked (also when there was none)' }, 401: badToken, ...common } },
  },
  '/v1/editions': {
    get: { summary: 'The editions (regions), sections (categories) and languages a client can ask for, with their names', responses: { 200: ok('Editions'), ...common } },
  },
  '/v1/me/saved': {
    get: { ...reader, summary: 'The reader\'s saved stories as feed items, newest saved first', responses: { 200: ok('SavedList'), 401: badToken, ...common } },
  },
  '/v1/me/saved/{story_id}': {
    put: { ...reader, summary: 'Save a story (saving it again keeps the first saved_at); at most 1,000 kept, the oldest go', parameters: [storyId], responses: { 200: ok('Saved'), 401: badToken, 404: noStory, ...common } },
    delete: { ...reader, summary: 'Unsave a story', parameters: [storyId], responses: { 204: { description: 'not saved (also when it was not)' }, 401: badToken, ...common } },
  },
  '/v1/me/read': {
    get: { ...reader, summary: 'The stories the reader has read (opened), most recently first', responses: { 200: ok('ReadList'), 401: badToken, ...common } },
  },
  '/v1/me/read/{story_id}': {
    put: { ...reader, summary: 'Mark a story read (following an article\'s /r/ link does it too); /v1/feed?for=me&hide_read=true leaves it out', parameters: [storyId], responses: { 204: { description: 'read' }, 401: badToken, 404: noStory, ...common } },
    delete: { ...reader, summary: 'Mark a story unread', parameters: [storyId], responses: { 204: { description: 'unread (also when it was not read)' }, 401: badToken, ...common } },
  },
};



