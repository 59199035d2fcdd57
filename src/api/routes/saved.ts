import { listedItem, type FeedItem } from '../../actors/store/feed-items.js';
import { markRead, markUnread, readStories, savedStories, saveStory, unsaveStory } from '../../actors/store/reader-lists.js';
import { getStories } from '../../actors/store/stories.js';
import { parseId, readQuery } from '../params.js';
import { HttpError, json, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { readerOf } from '../readers/identity.js';
import { NO_STORE, type ApiDeps } from './common.js';
import { readerFor, withCookie } from './me.js';

const PRIVATE = { 'cache-control': NO_STORE, vary: 'cookie, authorization' };

/** A saved story as `GET /v1/me/saved` lists it: the feed item of its lead, and when it was saved. */
export type SavedItem = FeedItem & { saved_at: string };

/** The story named by the path, or a 404 naming it: a reader saves or reads only what exists. */
async function knownStory(deps: ApiDeps, raw: string | undefined): Promise<string> {
  const id = parseId(raw);
  const [s] = await getStories(deps.sql, [id]);
  if (!s) throw new HttpError(404, 'not_found', `no such story: ${id}`);
  return id;
}

/** The feed items of saved stories, in the order given; stories gone since (retention) are left out. */
export async function savedItems(deps: Pick<ApiDeps, 'feed'>, saved: readonly { story_id: string; saved_at: string }[]): Promise<SavedItem[]> {
  if (saved.length === 0) return [];
  const stories = new Map((await deps.feed.stories(saved.map((s) => s.story_id))).map((s) => [s.item.story_id, s]));
  const out: SavedItem[] = [];
  for (const s of saved) {
    const c = stories.get(s.story_id);
    if (c) out.push({ ...listedItem(c, 'global'), saved_at: s.saved_at });
  }
  return out;
}

/**
 * Saved stories and read state (issue 24), kept by reader id in PostgreSQL so they follow the
 * reader (cookie or token) to every node:
 *   GET    /v1/me/saved             → {items: [FeedItem & {saved_at}]}, newest saved first
 *   PUT    /v1/me/saved/:story_id   → {story_id, saved_at} (again: keeps the first saved_at)
 *   DELETE /v1/me/saved/:story_id   → 204
 *   GET    /v1/me/read              → {story_ids}, most recently read first
 *   PUT    /v1/me/read/:story_id    → 204: the story was opened (following `/r/` does it too)
 *   DELETE /v1/me/read/:story_id    → 204: unread again
 * An unknown story is a 404; a caller with neither token nor cookie becomes a reader.
 */
export function registerSavedRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  const profiles = deps.profiles;
  if (!profiles) return;
  router.get(
    '/v1/me/saved',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const items = setCookie === null ? await savedItems(deps, await savedStories(deps.sql, reader.id)) : [];
      return withCookie(json({ items }, 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'PUT',
    '/v1/me/saved/:story_id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const id = await knownStory(deps, req.params.story_id);
      const saved_at = await saveStory(deps.sql, reader.id, id);
      return withCookie(json({ story_id: id, saved_at }, 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'DELETE',
    '/v1/me/saved/:story_id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.story_id);
      const reader = readerOf(req);
      if (reader !== null) await unsaveStory(deps.sql, reader.id, id);
      return { status: 204, headers: PRIVATE };
    }),
  );
  router.get(
    '/v1/me/read',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const story_ids = setCookie === null ? ((await readStories(deps.sql, [reader.id])).get(reader.id) ?? []) : [];
      return withCookie(json({ story_ids }, 200, PRIVATE), setCookie);
    }),
  );
  router.add(
    'PUT',
    '/v1/me/read/:story_id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const { reader, setCookie } = readerFor(req, deps);
      const id = await knownStory(deps, req.params.story_id);
      await markRead(deps.sql, reader.id, [id]);
      await profiles.changed(reader.id);
      return withCookie({ status: 204, headers: PRIVATE }, setCookie);
    }),
  );
  router.add(
    'DELETE',
    '/v1/me/read/:story_id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.story_id);
      const reader = readerOf(req);
      if (reader !== null && (await markUnread(deps.sql, reader.id, id))) await profiles.changed(reader.id);
      return { status: 204, headers: PRIVATE };
    }),
  );
}
