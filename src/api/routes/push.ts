import { PushEndpointError, type PushSubscriptions } from '../../actors/push/index.js';
import { readQuery } from '../params.js';
import { parsePushBody, PUSH_BODY_LIMIT, type PushDefaults } from '../push/request.js';
import { readerOf } from '../readers/identity.js';
import { emptyLists } from '../readers/interests.js';
import { checkKnownInterests } from '../readers/known.js';
import { HttpError, json, type Handler, type Request } from '../reply.js';
import type { Router } from '../router.js';
import { NO_STORE, jsonCached, type ApiDeps } from './common.js';
import { readerFor, withCookie } from './me.js';

/** What the push routes need from the push component. */
export interface PushRoutesDeps {
  /** the VAPID public key (base64url of the 65-byte point) */
  publicKey: string;
  defaults: PushDefaults;
  subscriptions: PushSubscriptions;
}

const PRIVATE = { 'cache-control': NO_STORE, vary: 'cookie, authorization' };

/**
 * Push alerts (README *Push alerts*): `GET /v1/push/key` (the VAPID public key a browser
 * subscribes with), `GET`/`POST`/`DELETE /v1/me/push` (the reader's subscriptions: list, add or
 * replace one, remove one or all, or the one a notification's stop URL names). The service worker
 * that shows the notifications (`/sw.js`) is served by the web routes, push or not: it also keeps
 * the app readable offline.
 */
export function registerPushRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const push = deps.push;
  if (!push) return;
  const key = { public_key: push.publicKey };
  router.get('/v1/push/key', wrap((req) => (readQuery(req.query, []), jsonCached(req, key, 'public, max-age=3600'))));
  router.get(
    '/v1/me/push',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      return withCookie(json({ subscriptions: await push.subscriptions.list(reader.id) }, 200, PRIVATE), setCookie);
    }),
  );
  router.post(
    '/v1/me/push',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const input = parsePushBody(await smallJson(req), push.defaults);
      // places must name something this node knows, as For you's do (what the reader's subscriptions have already is not asked again)
      if (input.prefs.places.length > 0) {
        const had = setCookie === null ? (await push.subscriptions.list(reader.id)).flatMap((s) => s.places) : [];
        await checkKnownInterests(deps.sql, { follow: { ...emptyLists(), places: input.prefs.places }, hide: emptyLists() }, { follow: { ...emptyLists(), places: had }, hide: emptyLists() });
      }
      try {
        const { view, created } = await push.subscriptions.subscribe(reader.id, input);
        return withCookie(json(view, created ? 201 : 200, PRIVATE), setCookie);
      } catch (err) {
        if (err instanceof PushEndpointError) throw new HttpError(400, 'invalid_endpoint', err.message, { cause: err });
        throw err;
      }
    }),
  );
  router.add(
    'DELETE',
    '/v1/me/push',
    wrap(async (req) => {
      const q = readQuery(req.query, ['stop', 'endpoint']);
      const stop = q.get('stop');
      if (stop !== undefined) {
        // a notification's one-click stop: the token is the authority, no reader needed
        await push.subscriptions.stop(stop);
        return { status: 204, headers: PRIVATE };
      }
      const reader = readerOf(req);
      let endpoint = q.get('endpoint') ?? null;
      const buf = await req.body();
      if (buf.length > PUSH_BODY_LIMIT) throw new HttpError(413, 'payload_too_large', `the request body exceeds ${PUSH_BODY_LIMIT} bytes`);
      if (buf.length > 0) {
        const b = await req.json<unknown>();
        if (b === null || typeof b !== 'object' || Array.isArray(b) || Object.keys(b).some((k) => k !== 'endpoint')) throw new HttpError(400, 'invalid_body', 'expected {"endpoint": URL} or no body');
        const e = (b as { endpoint?: unknown }).endpoint;
        if (e !== undefined && typeof e !== 'string') throw new HttpError(400, 'invalid_endpoint', 'endpoint must be a string');
        if (typeof e === 'string') endpoint = e;
      }
      if (reader !== null) await push.subscriptions.unsubscribe(reader.id, endpoint);
      return { status: 204, headers: PRIVATE };
    }),
  );
}

async function smallJson(req: Request): Promise<unknown> {
  const buf = await req.body();
  if (buf.length > PUSH_BODY_LIMIT) throw new HttpError(413, 'payload_too_large', `the request body exceeds ${PUSH_BODY_LIMIT} bytes`);
  if (buf.length === 0) throw new HttpError(400, 'invalid_body', 'expected the PushSubscription JSON and what to be told about');
  return req.json();
}
