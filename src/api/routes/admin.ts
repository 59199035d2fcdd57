import { regionForCountry } from '../../actors/enrich/gazetteer.js';
import { OpmlInvalidError } from '../../actors/publisher/errors.js';
import { addPublishers, getPublishers, listPublishers, removePublisher, type PublisherRow } from '../../actors/store/publishers.js';
import { CATEGORIES } from '../../actors/model/index.js';
import { badRequest, parseCursor, parseId, parseLimit, readQuery } from '../params.js';
import { HttpError, json, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, bearerToken, sameSecret, type ApiDeps } from './common.js';
import { cursorErrorToHttp } from './feed.js';
import { publishersOpml, httpUrl, readOpmlOutlines, publisherIdFor, toNewPublisher } from './opml.js';

const PRIVATE = { 'cache-control': NO_STORE };

/**
 * Admin routes behind `Authorization: Bearer <NEWSAGG_ADMIN_TOKEN>`; without a configured token
 * they are not registered, so they answer 404 like any unknown path.
 *   GET    /v1/publishers?cursor=&limit=   publishers with polling status, keyset-paged by id
 *   POST   /v1/publishers                  {name?, feed_url, site_url?, country?, category?, tier?} → 201
 *   GET    /v1/publishers/:id              one publisher
 *   DELETE /v1/publishers/:id              204
 *   GET    /v1/opml                        every publisher as OPML 2.0
 *   POST   /v1/opml                        import an OPML body → {added, existing, rejected}
 */
export function registerAdminRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const token = deps.adminToken;
  if (!token) return;
  const now = deps.now ?? Date.now;
  const admin = (h: Handler): Handler =>
    wrap((req) => {
      const given = bearerToken(req);
      if (given === null || !sameSecret(given, token)) {
        throw new HttpError(401, 'unauthorized', 'a valid admin bearer token is required', { headers: { 'www-authenticate': 'Bearer realm="newsagg-admin"', ...PRIVATE } });
      }
      return h(req);
    });
  const changed = (added: string[], removed: string[]) => {
    if (added.length || removed.length) deps.onPublishersChanged?.({ added, removed });
  };

  router.get(
    '/v1/publishers',
    admin(async (req) => {
      const p = readQuery(req.query, ['cursor', 'limit']);
      const limit = parseLimit(p.get('limit'), 100, 1, 500);
      const raw = parseCursor(p.get('cursor'));
      let after: string | null = null;
      if (raw) {
        try {
          after = String(deps.codec.decode<{ a: string }>('publishers', raw).a);
        } catch (err) {
          cursorErrorToHttp(err);
        }
      }
      const rows = await listPublishers(deps.sql, { after, limit: limit + 1 });
      const items = rows.slice(0, limit);
      const next = rows.length > limit ? deps.codec.encode('publishers', { a: items[items.length - 1]!.id }) : null;
      return json({ items: items.map((r) => publicPublisher(r, deps.ownerOf)), next_cursor: next }, 200, PRIVATE);
    }),
  );

  router.post(
    '/v1/publishers',
    admin(async (req) => {
      readQuery(req.query, []);
      let body = await req.json<Record<string, unknown>>();
      // only a site given: discover its feed, else its news sitemap
      if (body && typeof body === 'object' && !Array.isArray(body) && body.feed_url === undefined && typeof body.site_url === 'string' && deps.findSource) {
        const site = httpUrl(body.site_url);
        if (!site) throw badRequest('invalid_body', 'site_url must be an absolute http(s) URL');
        const source = await deps.findSource(site);
        if (!source) throw new HttpError(422, 'no_feed_found', 'the site offers no feed and no news sitemap');
        body = { ...body, feed_url: source.url };
      }
      const np = validateNewPublisher(body);
      const added = await addPublishers(deps.sql, [np]);
      if (added.length === 0) throw new HttpError(409, 'conflict', 'a publisher with this feed URL already exists');
      changed(added, []);
      const [row] = await getPublishers(deps.sql, added);
      return json(publicPublisher(row!, deps.ownerOf), 201, { ...PRIVATE, location: `/v1/publishers/${encodeURIComponent(row!.id)}` });
    }),
  );

  router.get(
    '/v1/publishers/:id',
    admin(async (req) => {
      readQuery(req.query, []);
      const [row] = await getPublishers(deps.sql, [parseId(req.params.id)]);
      if (!row) throw new HttpError(404, 'not_found', 'no such publisher');
      return json(publicPublisher(row, deps.ownerOf), 200, PRIVATE);
    }),
  );

  router.add(
    'DELETE',
    '/v1/publishers/:id',
    admin(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.id);
      if (!(await removePublisher(deps.sql, id))) throw new HttpError(404, 'not_found', 'no such publisher');
      changed([], [id]);
      return { status: 204, headers: PRIVATE };
    }),
  );

  router.get(
    '/v1/opml',
    admin(async (req) => {
      readQuery(req.query, []);
      const all: PublisherRow[] = [];
      for (let after: string | null = null; ; ) {
        const page = await listPublishers(deps.sql, { after, limit: 1000 });
        all.push(...page);
        if (page.length < 1000) break;
        after = page[page.length - 1]!.id;
      }
      return { status: 200, headers: { 'content-type': 'text/x-opml; charset=utf-8', 'content-disposition': 'attachment; filename="newsagg-publishers.opml"', ...PRIVATE }, body: publishersOpml('newsagg publishers', all, now()) };
    }),
  );

  router.post(
    '/v1/opml',
    admin(async (req) => {
      readQuery(req.query, []);
      const text = (await req.body()).toString('utf8');
      let parsed;
      try {
        parsed = readOpmlOutlines(text);
      } catch (err) {
        if (err instanceof OpmlInvalidError) throw new HttpError(400, 'invalid_opml', err.message, { cause: err });
        throw err;
      }
      const list = parsed.outlines.map((o) => toNewPublisher(o, regionForCountry(o.country)));
      const added: string[] = [];
      for (let i = 0; i < list.length; i += 1000) added.push(...(await addPublishers(deps.sql, list.slice(i, i + 1000))));
      changed(added, []);
      return json({ added: added.length, existing: list.length - added.length, rejected: parsed.rejected }, 200, PRIVATE);
    }),
  );
}

/** The admin view of a publisher: status fields, never its persisted actor state or secrets. */
export function publicPublisher(p: PublisherRow, ownerOf?: (id: string) => string | null): Record<string, unknown> {
  return {
    id: p.id, name: p.name, feed_url: p.feed_url, site_url: p.site_url, country: p.country, region: p.region, category: p.category,
    tier: p.tier, last_polled_at: p.last_polled_at, last_success_at: p.last_success_at, next_poll_at: p.next_poll_at,
    not_modified_count: p.not_modified_count, fetch_count: p.fetch_count, article_count: p.article_count, failures: p.failures,
    circuit: p.circuit, circuit_reason: p.circuit_reason, websub_hub: p.websub_hub, entries_skipped: p.entries_skipped, owner: ownerOf?.(p.id) ?? null,
    accelerated_until: p.accelerated_until ?? null,
  };
}

function validateNewPublisher(body: unknown): ReturnType<typeof toNewPublisher> & { tier: number } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalid_body', 'expected a JSON object');
  const b = body as Record<string, unknown>;
  const allowed = ['name', 'feed_url', 'site_url', 'country', 'category', 'tier'];
  for (const k of Object.keys(b)) if (!allowed.includes(k)) throw badRequest('invalid_body', `unknown field "${k.slice(0, 40)}"`);
  const str = (k: string, max: number): string | null => {
    const v = b[k];
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string' || v.length > max) throw badRequest('invalid_body', `${k} must be a string of at most ${max} characters`);
    return v.trim();
  };
  const feed = httpUrl(str('feed_url', 2048) ?? '');
  if (!feed) throw badRequest('invalid_body', 'feed_url must be an absolute http(s) URL');
  const site = str('site_url', 2048);
  if (site !== null && !httpUrl(site)) throw badRequest('invalid_body', 'site_url must be an absolute http(s) URL');
  const country = str('country', 2);
  if (country !== null && !/^[A-Za-z]{2}$/.test(country)) throw badRequest('invalid_body', 'country must be an ISO 3166-1 alpha-2 code');
  const category = str('category', 40);
  if (category !== null && !(CATEGORIES as readonly string[]).includes(category)) throw badRequest('invalid_body', `category must be one of: ${CATEGORIES.join(', ')}`);
  const tier = b.tier === undefined ? 2 : b.tier;
  if (typeof tier !== 'number' || !Number.isInteger(tier) || tier < 1 || tier > 3) throw badRequest('invalid_body', 'tier must be 1, 2 or 3');
  const name = str('name', 200) ?? new URL(feed).hostname;
  return {
    id: publisherIdFor(feed), name, feed_url: feed, site_url: site === null ? null : httpUrl(site), country: country?.toUpperCase() ?? null,
    region: regionForCountry(country), category, tier,
  };
}

