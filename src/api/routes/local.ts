import { readerCity, setReaderCity } from '../../actors/store/reader-lists.js';
import { cityById, searchCities, type LocalCity } from '../local/cities.js';
import { localItems } from '../local/local.js';
import { badRequest, parseLimit, readQuery } from '../params.js';
import { readerOf } from '../readers/identity.js';
import { HttpError, json, type Handler, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { FEED_CACHE, jsonCached, NO_STORE, type ApiDeps } from './common.js';
import { readerFor, withCookie } from './me.js';

const PRIVATE = { 'cache-control': NO_STORE, vary: 'cookie, authorization' };

function cityOf(raw: unknown): LocalCity {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 100) throw badRequest('invalid_city', 'city must be a city id from GET /v1/local/cities (e.g. "fr-lyon")');
  const c = cityById(raw);
  if (!c) throw badRequest('invalid_city', `unknown city "${raw.replace(/[^\x20-\x7e]/g, '?')}"; GET /v1/local/cities?q= lists the cities by name`);
  return c;
}

/**
 * Local news (issue 24):
 *   GET /v1/local/cities?q=&limit=   cities of the gazetteer by name prefix → {items: [LocalCity]}
 *   GET /v1/local?city=&limit=       {city, items: [FeedItem & {near}]}; without city=, the reader's
 *   GET/PUT /v1/me/local             the reader's city ({city: id | null}), kept in PostgreSQL
 * Items come from the city's edition's candidate pool and the World edition's (the stories
 * For you re-ranks), stories naming the city before those placed in its country.
 */
export function registerLocalRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const personal = deps.personal;
  if (!personal) return;
  router.get(
    '/v1/local/cities',
    wrap((req) => {
      const p = readQuery(req.query, ['q', 'limit']);
      const q = p.get('q') ?? '';
      if (q.length > 100) throw badRequest('invalid_query', 'q is at most 100 characters');
      return jsonCached(req, { items: searchCities(q, parseLimit(p.get('limit'), 20, 1, 100)) }, 'public, max-age=3600');
    }),
  );
  const local = async (city: LocalCity, limit: number) => {
    const pools = await Promise.all([personal.pool(city.region, 'top'), personal.pool('global', 'top')]);
    return { city, items: localItems(pools, city, limit) };
  };
  router.get(
    '/v1/local',
    wrap(async (req: Request) => {
      const p = readQuery(req.query, ['city', 'limit']);
      const limit = parseLimit(p.get('limit'), 20, 1, 50);
      if (p.has('city')) return jsonCached(req, await local(cityOf(p.get('city')), limit), FEED_CACHE);
      const reader = readerOf(req);
      const id = reader ? await readerCity(deps.sql, reader.id) : null;
      if (id === null) throw badRequest('no_city', 'no city: give city= (GET /v1/local/cities lists them), or choose one with PUT /v1/me/local');
      const city = cityById(id);
      if (!city) throw badRequest('invalid_city', `the city you chose ("${id}") is no longer known; choose another with PUT /v1/me/local`);
      return json(await local(city, limit), 200, PRIVATE);
    }),
  );
  router.get(
    '/v1/me/local',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const id = setCookie === null ? await readerCity(deps.sql, reader.id) : null;
      return withCookie(json({ city: id === null ? null : (cityById(id) ?? null) }, 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'PUT',
    '/v1/me/local',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const buf = await req.body();
      if (buf.length > 4096) throw new HttpError(413, 'payload_too_large', 'the request body exceeds 4096 bytes');
      let body: unknown;
      try {
        body = JSON.parse(buf.toString('utf8'));
      } catch {
        throw badRequest('invalid_json', 'expected a JSON object {"city": "<city id>" | null}');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body) || !('city' in body) || Object.keys(body).length !== 1) {
        throw badRequest('invalid_body', 'expected a JSON object {"city": "<city id>" | null}');
      }
      const raw = (body as { city: unknown }).city;
      const city = raw === null ? null : cityOf(raw);
      await setReaderCity(deps.sql, reader.id, city?.id ?? null);
      return withCookie(json({ city }, 200, PRIVATE), setCookie);
    }),
  );
}
