/**
 * The service worker behind push alerts (bundled as `/sw.js`, served at the root so its scope is
 * the whole app). It shows each push as a notification (the payload is the JSON the node
 * encrypted: title, body, the story's path, a tag per story and a stop URL), opens or focuses the
 * story page on a click, and offers "Stop these alerts", which calls the stop URL and unsubscribes
 * the browser. When the browser renews a subscription, the new one is posted with the old one's
 * preferences. Only same-origin paths are ever opened or called. It also keeps the app readable
 * offline: the shell, the bundles, the last front pages and the saved stories (see offline.ts).
 */
import { keepKey, networkFirst } from './offline.js';

const sw = self as unknown as ServiceWorkerGlobalScope;

/** A push's payload as the node sends it (each field checked before use). */
interface Payload {
  title?: unknown;
  body?: unknown;
  url?: unknown;
  tag?: unknown;
  stop_url?: unknown;
}

/** A subscription's preferences as `GET /v1/me/push` lists them. */
interface Kept {
  endpoint: string;
  breaking: boolean;
  stories: string[];
  topics: string[];
  places: string[];
  threshold?: number;
  quiet_hours?: unknown;
  tz_offset_minutes?: number;
  daily_cap?: number;
}

/** The subscription change event (not in TypeScript's library). */
interface SubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscription | null;
  newSubscription: PushSubscription | null;
}

/** A same-origin URL for a path from a payload, or null. */
function ours(path: string): URL | null {
  try {
    const u = new URL(path, sw.location.origin);
    return u.origin === sw.location.origin ? u : null;
  } catch {
    return null;
  }
}

sw.addEventListener('install', () => { sw.skipWaiting(); });
sw.addEventListener('activate', (event) => { event.waitUntil(sw.clients.claim()); });

sw.addEventListener('fetch', (event) => {
  const key = keepKey(event.request, sw.location.origin);
  if (key === null) return;
  event.respondWith(networkFirst(event.request, key, (p) => event.waitUntil(p)));
});

sw.addEventListener('push', (event) => {
  let d: Payload = {};
  try { d = event.data ? (event.data.json() as Payload) : {}; } catch { d = {}; }
  const title = typeof d.title === 'string' && d.title ? d.title : 'newsagg';
  const stop = typeof d.stop_url === 'string' && ours(d.stop_url) ? d.stop_url : null;
  const options: NotificationOptions & { actions: { action: string; title: string }[] } = {
    body: typeof d.body === 'string' ? d.body : '',
    data: { url: typeof d.url === 'string' ? d.url : '/', stop_url: stop },
    actions: stop ? [{ action: 'stop', title: 'Stop these alerts' }] : [],
  };
  if (typeof d.tag === 'string' && d.tag) options.tag = d.tag;
  event.waitUntil(sw.registration.showNotification(title, options));
});

sw.addEventListener('notificationclick', (event) => {
  const n = event.notification;
  const data = (n.data || {}) as { url?: string; stop_url?: string | null };
  n.close();
  if (event.action === 'stop') {
    const stop = data.stop_url ? ours(data.stop_url) : null;
    event.waitUntil((stop ? fetch(stop.href, { method: 'DELETE', credentials: 'same-origin' }) : Promise.resolve())
      .then(() => sw.registration.pushManager.getSubscription())
      .then((s) => (s ? s.unsubscribe() : false))
      .catch(() => false));
    return;
  }
  const url = (ours(data.url || '/') || ours('/'))!;
  event.waitUntil(sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
    for (const c of list) if (c.url === url.href && 'focus' in c) return c.focus();
    return sw.clients.openWindow(url.href);
  }));
});

sw.addEventListener('pushsubscriptionchange', (e) => {
  const event = e as SubscriptionChangeEvent;
  event.waitUntil((async () => {
    const old = event.oldSubscription;
    const list = await fetch('/v1/me/push', { credentials: 'same-origin' }).then((r) => (r.ok ? (r.json() as Promise<{ subscriptions?: Kept[] }>) : null)).catch(() => null);
    const had = list && Array.isArray(list.subscriptions) && old ? list.subscriptions.find((s) => s.endpoint === old.endpoint) : null;
    if (!had || !old) return;
    const key = (await fetch('/v1/push/key').then((r) => r.json())) as { public_key: string };
    const raw = atob(key.public_key.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const sub = event.newSubscription || await sw.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    const body = Object.assign(sub.toJSON(), {
      breaking: had.breaking, stories: had.stories, topics: had.topics, places: had.places, threshold: had.threshold,
      quiet_hours: had.quiet_hours, tz_offset_minutes: had.tz_offset_minutes, daily_cap: had.daily_cap,
    });
    await fetch('/v1/me/push', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await fetch('/v1/me/push', { method: 'DELETE', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint: old.endpoint }) });
  })().catch(() => false));
});

export {};
