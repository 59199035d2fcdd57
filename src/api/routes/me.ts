import { parseInterests, storedInterests } from '../readers/interests.js';
import { checkKnownInterests } from '../readers/known.js';
import { clearedReaderCookie, newReader, readerIfAny, readerOf, type Reader } from '../readers/identity.js';
import { readQuery } from '../params.js';
import { HttpError, json, type Handler, type Reply, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, viaHttps, type ApiDeps } from './common.js';

/** A `PUT /v1/me` body larger than this is refused before parsing (interests are small). */
export const ME_BODY_LIMIT = 64 * 1024;

const PRIVATE = { 'cache-control': NO_STORE, vary: 'cookie, authorization' };

/**
 * The calling reader, or a new one with the cookie that makes the caller it. A token that names
 * no reader is a 401 (see readerOf): a refused token never turns into a new reader.
 */
export function readerFor(req: Request, deps: Pick<ApiDeps, 'trustProxy'>): { reader: Reader; setCookie: string | null } {
  const r = readerOf(req);
  if (r !== null) return { reader: r, setCookie: null };
  return newReader(viaHttps(req, deps.trustProxy));
}

/**
 * `readerFor` for routes that serve anyone (pages, click redirects): a caller presenting a token
 * this node refuses gets its answer as nobody (reader null, no cookie: its identity stays its own
 * business); one presenting nothing becomes a reader as usual.
 */
export function readerForAnyone(req: Request, deps: Pick<ApiDeps, 'trustProxy'>): { reader: Reader | null; setCookie: string | null } {
  const r = readerIfAny(req);
  if (r !== null) return { reader: r, setCookie: null };
  if (req.header('authorization') !== undefined) return { reader: null, setCookie: null };
  return newReader(viaHttps(req, deps.trustProxy));
}

/** `reply` with the reader cookie added (the reply becomes private: a shared cache must not hand it to others). */
export function withCookie(reply: Reply, setCookie: string | null): Reply {
  if (setCookie === null) return reply;
  const cc = reply.headers?.['cache-control'];
  const headers: Record<string, string> = { ...reply.headers, 'set-cookie': setCookie };
  if (cc === undefined || cc.includes('public')) headers['cache-control'] = cc ? cc.replace('public', 'private') : NO_STORE;
  return { status: reply.status ?? 200, headers, ...(reply.body !== undefined ? { body: reply.body } : {}) };
}

/**
 * Readers (DESIGN §6): `GET /v1/me` (interests and how many clicks are remembered), `PUT /v1/me`
 * `{follow, hide}` (replaces the interests), `DELETE /v1/me` (forgets the reader and its
 * history). A caller that sent neither a reader token nor the cookie becomes a new reader: the
 * reply sets the cookie.
 */
export function registerReaderRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const profiles = deps.profiles;
  if (!profiles) return;
  router.get(
    '/v1/me',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      return withCookie(json(await profiles.describe(reader.id), 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'PUT',
    '/v1/me',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const interests = parseInterests(await smallJson(req));
      // names no one knows are refused (what the reader has already is not asked again)
      const before = setCookie === null ? await profiles.describe(reader.id) : null;
      await checkKnownInterests(deps.sql, interests, storedInterests(before?.follow, before?.hide));
      return withCookie(json(await profiles.setInterests(reader.id, interests), 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'DELETE',
    '/v1/me',
    wrap(async (req) => {
      readQuery(req.query, []);
      const reader = readerOf(req);
      if (reader !== null) await profiles.forget(reader.id);
      const headers: Record<string, string> = { ...PRIVATE };
      if (reader?.from === 'cookie') headers['set-cookie'] = clearedReaderCookie(viaHttps(req, deps.trustProxy));
      return { status: 204, headers };
    }),
  );
}

async function smallJson(req: Request): Promise<unknown> {
  const buf = await req.body();
  if (buf.length > ME_BODY_LIMIT) throw new HttpError(413, 'payload_too_large', `the request body exceeds ${ME_BODY_LIMIT} bytes`);
  if (buf.length === 0) throw new HttpError(400, 'invalid_body', 'expected a JSON object {follow, hide}');
  return req.json();
}
