import { CATALOGUE_CHOICES, catalogueSummary, importCatalogue, loadCatalogue, publisherCount } from '../../actors/publisher/catalogue.js';
import { FAILURE_REASONS, OFFLINE_REASONS, reasonList, type FailureReason } from '../../actors/publisher/source-health.js';
import { publisherHealth } from '../../actors/store/publishers.js';
import type { Sql } from '../../runtime/sql.js';
import { badRequest, readQuery } from '../params.js';
import { HttpError, json, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, bearerToken, sameSecret, type ApiDeps } from './common.js';

const PRIVATE = { 'cache-control': NO_STORE };
/** how long the sources' summary is reused (it reads the whole publishers table) */
const SOURCES_TTL_MS = 5_000;

/** What the first-run and admin pages say about the sources: how many answer, how many fail and why. */
export interface SourcesView {
  total: number;
  polled: number;
  ok: number;
  failing: number;
  reasons: { reason: FailureReason; publishers: number; message: string }[];
  /** every polled source failed, and only for reasons that mean this machine reaches no one */
  offline: boolean;
}

export async function sourcesView(sql: Sql): Promise<SourcesView> {
  const h = await publisherHealth(sql, FAILURE_REASONS);
  const reasons = reasonList(h.byReason as Map<FailureReason, number>);
  const offline = h.failing > 0 && h.ok === 0 && reasons.every((r) => OFFLINE_REASONS.has(r.reason));
  return { total: h.total, polled: h.polled, ok: h.ok, failing: h.failing, reasons, offline };
}

/**
 * The first-run path to real news:
 *   GET  /v1/catalogue   what the shipped catalogue offers per edition, and whether this node has
 *                        no publishers yet (`first_run`), so a client can offer the choice
 *   POST /v1/catalogue   `{"region": "us"|"uk"|"eu"|"apac"|"latam"|"mea"|"global"|"all"}` adds that
 *                        edition's publishers (plus the global ones) → `{added, offered}`
 * POST needs the admin token when one is configured; without one it is allowed only while the
 * node has no publishers at all (a fresh `start`), so anyone can pick the first sources and
 * nobody can add more afterwards.
 */
export function registerCatalogueRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const now = deps.now ?? Date.now;
  let sources: { at: number; view: Promise<SourcesView> } | null = null;
  const currentSources = (): Promise<SourcesView> => {
    if (sources === null || now() - sources.at > SOURCES_TTL_MS) {
      const view = sourcesView(deps.sql);
      sources = { at: now(), view };
      view.catch(() => (sources = null));
    }
    return sources.view;
  };
  router.get(
    '/v1/catalogue',
    wrap(async (req) => {
      readQuery(req.query, []);
      const [publishers, view] = await Promise.all([publisherCount(deps.sql), currentSources()]);
      const entries = loadCatalogue();
      return json({
        first_run: publishers === 0,
        publishers,
        can_import: publishers === 0 || !!deps.adminToken,
        catalogue: { total: entries.length, editions: catalogueSummary(entries) },
        sources: view,
      }, 200, PRIVATE);
    }),
  );
  router.post(
    '/v1/catalogue',
    wrap(async (req) => {
      readQuery(req.query, []);
      const token = deps.adminToken;
      if (token) {
        const given = bearerToken(req);
        if (given === null || !sameSecret(given, token)) {
          throw new HttpError(401, 'unauthorized', 'a valid admin bearer token is required', { headers: { 'www-authenticate': 'Bearer realm="newsagg-admin"', ...PRIVATE } });
        }
      }
      const buf = await req.body();
      if (buf.length > 1024) throw new HttpError(413, 'payload_too_large', 'the request body exceeds 1024 bytes');
      const body = await req.json<unknown>();
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalid_body', 'expected a JSON object {"region": ...}');
      const keys = Object.keys(body);
      const region = (body as Record<string, unknown>).region;
      if (keys.some((k) => k !== 'region') || typeof region !== 'string' || !CATALOGUE_CHOICES.includes(region)) {
        throw badRequest('invalid_region', `region must be one of: ${CATALOGUE_CHOICES.join(', ')}`);
      }
      if (!token && (await publisherCount(deps.sql)) > 0) {
        throw new HttpError(403, 'not_first_run', 'this node already has publishers; adding more needs the admin token (--admin-token)', { headers: PRIVATE });
      }
      const { added, offered } = await importCatalogue(deps.sql, region);
      sources = null;
      if (added.length) deps.onPublishersChanged?.({ added, removed: [] });
      deps.log?.info({ region, added: added.length, offered }, 'catalogue imported');
      return json({ added: added.length, offered }, 200, PRIVATE);
    }),
  );
}
