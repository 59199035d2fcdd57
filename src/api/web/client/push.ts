/**
 * Opting in to push alerts from the page. The first switch turned on registers the service
 * worker (`/sw.js`), asks for permission, subscribes the browser with the node's VAPID key
 * (`GET /v1/push/key`) and posts the subscription with what to be told about (`POST /v1/me/push`,
 * with the browser's time zone); later changes post the same subscription with new preferences.
 * Controls: "Alert me about this story" on a story page; on For you, breaking news, the topics and
 * places followed, and "Stop all alerts" (`DELETE /v1/me/push`, and the browser unsubscribes).
 * A browser without Web Push shows none of them.
 */
import { api, problem } from './api.js';
import { el } from './dom.js';
import type { InterestSet } from './types.js';

/** What a subscription is told about, as `GET /v1/me/push` lists it and `POST /v1/me/push` takes it. */
export interface PushPrefs {
  endpoint?: string;
  breaking: boolean;
  stories: string[];
  topics: string[];
  places: string[];
  threshold?: number;
  daily_cap?: number;
  quiet_hours?: { start: string; end: string } | null;
  tz_offset_minutes?: number;
}

export const pushSupported = (): boolean => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function keyBytes(b64: string): Uint8Array<ArrayBuffer> {
  const raw = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** This browser's subscription and what the node keeps for it (its preferences), or nulls. */
async function current(): Promise<{ sub: PushSubscription | null; prefs: PushPrefs | null }> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return { sub: null, prefs: null };
  const r = await api<{ subscriptions?: PushPrefs[] }>('/v1/me/push', { cache: 'no-store' });
  const list = r.ok && r.body && Array.isArray(r.body.subscriptions) ? r.body.subscriptions : [];
  return { sub, prefs: list.find((s) => s.endpoint === sub.endpoint) || null };
}

/** Changes what this browser is alerted about (change(prefs) edits a copy), subscribing it first when needed; the saved preferences. */
async function update(change: (p: PushPrefs) => void): Promise<PushPrefs> {
  if (Notification.permission === 'denied') throw new Error('notifications are blocked for this site in the browser');
  let { sub, prefs } = await current();
  if (!sub) {
    if ((await Notification.requestPermission()) !== 'granted') throw new Error('notifications were not allowed');
    const reg = await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    const k = await api<{ public_key: string }>('/v1/push/key');
    if (!k.ok || !k.body) throw new Error(problem(k));
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(k.body.public_key) });
  }
  const p: Partial<PushPrefs> = prefs || {};
  const next: PushPrefs = { breaking: !!p.breaking, stories: p.stories || [], topics: p.topics || [], places: p.places || [] };
  if (p.threshold) next.threshold = p.threshold;
  if (p.daily_cap) next.daily_cap = p.daily_cap;
  if (p.quiet_hours !== undefined) next.quiet_hours = p.quiet_hours;
  change(next);
  next.tz_offset_minutes = -new Date().getTimezoneOffset();
  const r = await api<PushPrefs>('/v1/me/push', { method: 'POST', json: Object.assign(sub.toJSON(), next) });
  if (!r.ok || !r.body) throw new Error(problem(r));
  return r.body;
}

/** A pressed-or-not switch whose click runs turn(on) (resolving to the saved state); a line under it says what went wrong. */
function switchButton(labelOn: string, labelOff: string, isOn: (p: PushPrefs) => boolean, turn: (on: boolean) => Promise<boolean>): HTMLElement {
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
      note.textContent = 'Alerts not changed: ' + (err instanceof Error ? err.message : String(err)) + '.';
    }
    btn.disabled = false;
  });
  return el('span', { class: 'alert-control' }, btn, note);
}

/** "Alert me about this story" for a story page, or null where the browser has no Web Push. */
export function storyAlertControl(storyId: string): HTMLElement | null {
  if (!pushSupported()) return null;
  return switchButton('Alerts on for this story', 'Alert me about this story', (p) => p.stories.includes(storyId), async (on) => {
    const saved = await update((p) => {
      p.stories = p.stories.filter((s) => s !== storyId);
      if (on) p.stories = p.stories.concat([storyId]).slice(-100);
    });
    return saved.stories.includes(storyId);
  });
}

export interface AlertsPanel {
  node: HTMLElement;
  /** carries changed interests over to the alerts, when topic alerts are on */
  sync(): void;
}

/** For you's alert switches: breaking news, and the topics and places the reader follows (followed() gives them now). */
export function alertsPanel(followed: () => Partial<InterestSet>): AlertsPanel {
  const node = el('section', { class: 'panel alerts', 'aria-label': 'Alerts' }, el('h2', { text: 'Alerts' }));
  if (!pushSupported()) {
    node.append(el('p', { class: 'panel-note', text: 'This browser cannot show alerts.' }));
    return { node, sync() {} };
  }
  let topicsOn = false;
  const pick = (p: PushPrefs) => {
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
      const saved = await update((p) => {
        if (on) pick(p);
        else {
          p.topics = [];
          p.places = [];
        }
      });
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
