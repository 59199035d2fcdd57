/**
 * `/sw.js`: the service worker behind push alerts. It shows each push as a notification (the
 * payload is the JSON the node encrypted: title, body, the story's path, a tag per story and a
 * stop URL), opens or focuses the story page on a click, and offers "Stop these alerts", which
 * calls the stop URL and unsubscribes the browser. When the browser renews a subscription, the
 * new one is posted with the old one's preferences. Only same-origin paths are ever opened or
 * called. Kept as a string (no backquote or dollar-brace: it lives in a template literal).
 */
export const SERVICE_WORKER_JS = String.raw`
'use strict';

/** A same-origin URL for a path from a payload, or null. */
function ours(path) {
  try {
    const u = new URL(path, self.location.origin);
    return u.origin === self.location.origin ? u : null;
  } catch (e) {
    return null;
  }
}

self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener('push', function (event) {
  let d = {};
  try { d = event.data ? event.data.json() : {}; } catch (e) { d = {}; }
  const title = typeof d.title === 'string' && d.title ? d.title : 'newsagg';
  const stop = typeof d.stop_url === 'string' && ours(d.stop_url) ? d.stop_url : null;
  const options = {
    body: typeof d.body === 'string' ? d.body : '',
    data: { url: typeof d.url === 'string' ? d.url : '/', stop_url: stop },
    actions: stop ? [{ action: 'stop', title: 'Stop these alerts' }] : [],
  };
  if (typeof d.tag === 'string' && d.tag) options.tag = d.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', function (event) {
  const n = event.notification;
  const data = n.data || {};
  n.close();
  if (event.action === 'stop') {
    const stop = data.stop_url ? ours(data.stop_url) : null;
    event.waitUntil((stop ? fetch(stop.href, { method: 'DELETE', credentials: 'same-origin' }) : Promise.resolve())
      .then(function () { return self.registration.pushManager.getSubscription(); })
      .then(function (s) { return s ? s.unsubscribe() : false; })
      .catch(function () { return false; }));
    return;
  }
  const url = ours(data.url || '/') || ours('/');
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (list) {
    for (const c of list) if (c.url === url.href && 'focus' in c) return c.focus();
    return self.clients.openWindow(url.href);
  }));
});

self.addEventListener('pushsubscriptionchange', function (event) {
  event.waitUntil((async function () {
    const old = event.oldSubscription;
    const list = await fetch('/v1/me/push', { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; });
    const had = list && Array.isArray(list.subscriptions) && old ? list.subscriptions.find(function (s) { return s.endpoint === old.endpoint; }) : null;
    if (!had) return;
    const key = await fetch('/v1/push/key').then(function (r) { return r.json(); });
    const raw = atob(key.public_key.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const sub = event.newSubscription || await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    const body = Object.assign(sub.toJSON(), {
      breaking: had.breaking, stories: had.stories, topics: had.topics, places: had.places, threshold: had.threshold,
      quiet_hours: had.quiet_hours, tz_offset_minutes: had.tz_offset_minutes, daily_cap: had.daily_cap,
    });
    await fetch('/v1/me/push', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await fetch('/v1/me/push', { method: 'DELETE', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint: old.endpoint }) });
  })().catch(function () { return false; }));
});
`;
