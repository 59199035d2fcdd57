import { CATEGORY_NAMES, FEED_CATEGORIES, FEED_REGIONS, LANGUAGE_NAMES, LANGUAGES, REGION_NAMES } from '../../actors/model/index.js';
import { readQuery } from '../params.js';
import type { Handler } from '../reply.js';
import type { Router } from '../router.js';
import { jsonCached } from './common.js';

/** What `GET /v1/editions` answers: every edition, section and language a client may ask for, with the names readers see. */
export interface Editions {
  regions: { id: string; name: string }[];
  categories: { id: string; name: string }[];
  languages: { id: string; name: string; native: string }[];
}

/** The editions document, from the one taxonomy (model/taxonomy.ts): built once, it never changes while a node runs. */
const EDITIONS_BODY: Editions = {
  regions: FEED_REGIONS.map((id) => ({ id, name: REGION_NAMES[id] })),
  categories: FEED_CATEGORIES.map((id) => ({ id, name: CATEGORY_NAMES[id] })),
  languages: LANGUAGES.map((id) => ({ id, ...LANGUAGE_NAMES[id] })),
};

/** `GET /v1/editions`: so clients stop copying enums from the OpenAPI document. Cacheable for an hour. */
export function registerEditionRoutes(router: Router, wrap: (h: Handler) => Handler): void {
  router.get(
    '/v1/editions',
    wrap((req) => {
      readQuery(req.query, []);
      return jsonCached(req, EDITIONS_BODY, 'public, max-age=3600');
    }),
  );
}
