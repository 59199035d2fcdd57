/**
 * `/ui/push.js`: opting in to push alerts from the page. The first switch turned on registers the
 * service worker (`/sw.js`), asks for permission, subscribes the browser with the node's VAPID key
 * (`GET /v1/push/key`) and posts the subscription with what to be told about (`POST /v1/me/push`,
 * with the browser's time zone); later changes post the same subscription with new preferences.
 * Controls: "Alert me about this story" on a story page; on For you, breaking news, the topics and
 * places followed, and "Stop all alerts" (`DELETE /v1/me/push`, and the browser unsubscribes).
 * A browser without Web Push shows none of them. Kept as a string (no backquote or dollar-brace).
 */
export const PUSH_JS = String.raw`
import { api, el, problem } from './dom.js?v=__V__';

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function keyBytes(b64) {
  const raw = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** This browser's subscription and what the node keeps for it (its preferences), or nulls. */
async function current() {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return { sub: null, prefs: null };
  const r = await api('/v1/me/push', { cache: 'no-store' });
  const list = r.ok && r.body && Array.isArray(r.body.subscriptions) ? r.body.subscriptions : [];
  return { sub, prefs: list.find((s) => s.endpoint === sub.endpoint) || null };
}

/** Changes what this browser is alerted about (change(prefs) edits a copy), subscribing it first when needed; the saved preferences. */
async function update(change) {
  if (Notification.permission === 'denied') throw new Error('notifications are blocked for this site in the browser');
  let { sub, prefs } = await current();
  if (!sub) {
    if ((await Notification.requestPermission()) !== 'granted') throw new Error('notifications were not allowed');
    const reg = await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    const k = await api('/v1/push/key');
    if (!k.ok || !k.body) throw new Error(problem(k));
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(k.body.public_key) });
  }
  const p = prefs || {};
  const next = { breaking: !!p.breaking, stories: p.stories || [], topics: p.topics || [], places: p.places || [] };
  if (p.threshold) next.threshold = p.threshold;
  if (p.daily_cap) next.daily_cap = p.daily_cap;
  if (p.quiet_hours !== undefined) next.quiet_hours = p.quiet_hours;
  change(next);
  next.tz_offset_minutes = -new Date().getTimezoneOffset();
  const r = await api('/v1/me/push', { method: 'POST', json: Object.assign(sub.toJSON(), next) });
  if (!r.ok || !r.body) throw new Error(problem(r));
  return r.body;
}

/** A pressed-or-not switch whose click runs turn(on) (resolving to the saved state); a line under it says what went wrong. */
function switchButton(labelOn, labelOff, isOn, turn) {
  const btn = el('button', { type: 'button', class: 'toggle follow alert-toggle', 'aria-pressed': 'false' });
  const note = el('span', { class: 'notice alert-note', role: 'status' });
  let on = false;
  const show = () => {
    btn.setAttribute('aria-pressed', String(on));
    btn.textContent = on ? labelOn : labelOff;
  };
  show();
  current().then((c) => {
    on = !!(c.prefs && isOn(c.prefs));
    show();
  }).catch(() => {});
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    note.textContent = '';
    try {
      on = await turn(!on);
      show();
    } catch (err) {
      note.textContent = 'Alerts not changed: ' + err.message + '.';
    }
    btn.disabled = false;
  });
  return el('span', { class: 'alert-control' }, btn, note);
}

/** "Alert me about this story" for a story page, or null where the browser has no Web Push. */
export function storyAlertControl(storyId) {
  if (!pushSupported()) return null;
  return switchButton('Alerts on for this story', 'Alert me about this story', (p) => p.stories.includes(storyId), async (on) => {
    const saved = await update((p) => {
      p.stories = p.stories.filter((s) => s !== storyId);
      if (on) p.stories = p.stories.concat([storyId]).slice(-100);
    });
    return saved.stories.includes(storyId);
  });
}

/**
 * For you's alert switches: breaking news, and the topics and places the reader follows
 * (followed() gives them now); call its sync() after interests change to carry them over.
 */
export function alertsPanel(followed) {
  const node = el('section', { class: 'panel alerts', 'aria-label': 'Alerts' }, el('h2', { text: 'Alerts' }));
  if (!pushSupported()) {
    node.append(el('p', { class: 'panel-note', text: 'This browser cannot show alerts.' }));
    return { node, sync() {} };
  }
  let topicsOn = false;
  const pick = (p) => {
    const f = followed();
    p.topics = (f.categories || []).slice(0, 8);
    p.places = (f.places || []).slice(0, 20);
  };
  const stop = el('button', { type: 'button', class: 'link-button', text: 'Stop all alerts' });
  const stopped = el('p', { class: 'notice', role: 'status' });
  stop.addEventListener('click', async () => {
    const r = await api('/v1/me/push', { method: 'DELETE' });
    const c = await current().catch(() => ({ sub: null }));
    if (c.sub) await c.sub.unsubscribe().catch(() => false);
    stopped.textContent = r.ok || r.status === 204 ? 'Alerts stopped.' : 'Not stopped: ' + problem(r) + '.';
  });
  node.append(
    el('p', { class: 'panel-note', text: 'Notifications even with no tab open: quiet at night, a few a day at most.' }),
    el('p', {}, switchButton('Breaking news: on', 'Breaking news: off', (p) => p.breaking, async (on) => (await update((p) => { p.breaking = on; })).breaking)),
    el('p', {}, switchButton('Topics and places you follow: on', 'Topics and places you follow: off', (p) => (topicsOn = p.topics.length + p.places.length > 0), async (on) => {
      const f = followed();
      if (on && (f.categories || []).length + (f.places || []).length === 0) throw new Error('follow a topic or a place first');
      const saved = await update((p) => (on ? pick(p) : ((p.topics = []), (p.places = []))));
      return (topicsOn = saved.topics.length + saved.places.length > 0);
    })),
    stop, stopped);
  return {
    node,
    sync() {
      if (topicsOn) update(pick).catch(() => {});
    },
  };
}
`;
