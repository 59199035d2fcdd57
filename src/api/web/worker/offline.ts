/**
 * The app offline. The service worker answers a few requests network first and keeps a copy of
 * each good answer; when the network is gone it answers from those copies:
 * - pages (navigations): the shell, one copy for every app path (they are all the same page);
 * - the bundles (`/app.js`, `/live.js`, `/app.css`), by path, whatever build asked;
 * - the API answers a reader needs to read on: the first page of every front page asked for
 *   (`/v1/feed` without a cursor, by its whole URL), the trending panel, the saved stories
 *   (`/v1/me/saved`) and the last STORY_PAGES Full Coverage pages opened (`/v1/stories/:id`).
 * An answer from a copy carries `x-newsagg-offline: 1`, so the page can say it is offline. Every
 * other request goes to the network untouched. The cache holds one entry per URL, so it stays small.
 */

const CACHE = 'newsagg-offline-v1';
const SHELL = '/__shell';
const BUNDLES = new Set(['/app.js', '/live.js', '/app.css']);
export const OFFLINE_HEADER = 'x-newsagg-offline';
/** Full Coverage pages kept (the oldest kept goes first). */
export const STORY_PAGES = 30;
const STORY = /^\/v1\/stories\/[^/]+$/;

/** The cache key for a request the worker keeps, or null for one it leaves alone. */
export function keepKey(req: Request, origin: string): string | null {
  if (req.method !== 'GET') return null;
  const u = new URL(req.url);
  if (u.origin !== origin) return null;
  if (req.mode === 'navigate') return SHELL;
  if (BUNDLES.has(u.pathname)) return u.pathname;
  if (u.pathname === '/v1/feed' && !u.searchParams.has('cursor')) return u.pathname + u.search;
  if (u.pathname === '/v1/trending' || u.pathname === '/v1/me/saved') return u.pathname + u.search;
  if (STORY.test(u.pathname) && !u.search) return u.pathname;
  return null;
}

/** Keeps only the newest STORY_PAGES story pages (keys come back in the order they were put). */
async function trimStories(c: Cache): Promise<void> {
  const stories = (await c.keys()).filter((r) => STORY.test(new URL(r.url).pathname));
  for (const r of stories.slice(0, Math.max(0, stories.length - STORY_PAGES))) await c.delete(r);
}

/** A kept copy, marked as such. */
async function fromCache(key: string): Promise<Response | null> {
  const c = await caches.open(CACHE);
  const hit = await c.match(key);
  if (!hit) return null;
  const headers = new Headers(hit.headers);
  headers.set(OFFLINE_HEADER, '1');
  return new Response(await hit.blob(), { status: hit.status, statusText: hit.statusText, headers });
}

/** Network first; a good answer is kept, a failed fetch is answered from the copy (or fails as it would have). */
export async function networkFirst(req: Request, key: string, wait: (p: Promise<unknown>) => void): Promise<Response> {
  try {
    const res = await fetch(req);
    if (res.status === 200) {
      const copy = res.clone();
      wait(caches.open(CACHE).then(async (c) => {
        await c.delete(key);
        await c.put(key, copy);
        if (STORY.test(key)) await trimStories(c);
      }).catch(() => undefined));
    }
    return res;
  } catch (err) {
    const hit = await fromCache(key);
    if (hit) return hit;
    throw err;
  }
}
