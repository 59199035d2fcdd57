/**
 * The live module (bundled as `/live.js`, a script of its own): one WebSocket to `/v1/live` for
 * the breaking banner, live coverage counts and the "N new stories" pill. It talks to the main
 * client only through the DOM and two events, so either can change alone:
 *
 * - the page has `#breaking` (the banner) and `#new-stories` (the pill), both `hidden` at first;
 * - every story card's root carries `data-story-id`; its coverage count sits in `.coverage-count`;
 * - the main client dispatches `newsagg:view` ({region, category, storyId}) at start and on every
 *   view change; this module subscribes to the matching topics;
 * - a click on the pill dispatches `newsagg:refresh`; the main client reloads the view.
 *
 * Publisher text only ever goes through `textContent`. Errors stay quiet (no console output);
 * the socket reconnects with a growing delay.
 */
import { $, el } from './dom.js';
import { liveCount, liveText } from './messages/live.js';

/** What the page is showing, as the live module needs it. */
interface LiveView {
  region: string;
  category: string | null;
  storyId: string | null;
}

/** A story in a breaking frame. */
interface BreakingStory {
  story_id: string;
  title: string;
  coverage_count: number;
  breaking_since: string;
}

/** A story in a story frame (its count changed, or it is new in a feed). */
interface StoryUpdate {
  story_id: string;
  coverage_count: number;
  published_at: string;
}

const live = {
  ws: null as WebSocket | null,
  /** topics the server has (or is being asked for) on the current socket */
  subscribed: new Set<string>(),
  view: null as LiveView | null,
  /** when the current view was loaded: later stories not on the page are "new" */
  viewAt: Date.now(),
  retryMs: 2000,
  /** story ids of new stories not yet on the page */
  fresh: new Set<string>(),
  /** story id -> breaking item, active ones only */
  breaking: new Map<string, BreakingStory>(),
};

/** The view from the address when the main client has not said yet: /?region=&category=, /story/:id. */
function viewFromLocation(): LiveView {
  const p = new URLSearchParams(location.search);
  const m = /^\/story\/([^/]+)$/.exec(location.pathname);
  return { region: p.get('region') || 'global', category: p.get('q') ? null : (p.get('category') || 'top'), storyId: m ? decodeURIComponent(m[1]!) : null };
}

function topicsFor(v: LiveView | null): Set<string> {
  const out = new Set<string>();
  const region = v && v.region ? v.region : 'global';
  out.add(region === 'global' ? 'breaking' : 'breaking:' + region);
  if (v && v.category) out.add('feed:' + region + ':' + v.category);
  if (v && v.storyId) out.add('story:' + v.storyId);
  return out;
}

function send(frame: object): void {
  if (live.ws && live.ws.readyState === 1) live.ws.send(JSON.stringify(frame));
}

/** Brings the socket's subscriptions in line with the view. */
function sync(): void {
  const want = topicsFor(live.view);
  const drop = [...live.subscribed].filter((t) => !want.has(t));
  const add = [...want].filter((t) => !live.subscribed.has(t));
  if (!live.ws || live.ws.readyState !== 1) return;
  if (drop.length) send({ type: 'unsubscribe', topics: drop });
  if (add.length) send({ type: 'subscribe', topics: add });
  live.subscribed = want;
}

function renderBanner(): void {
  const b = $('breaking');
  if (!b) return;
  const items = [...live.breaking.values()].sort((x, y) => Date.parse(y.breaking_since) - Date.parse(x.breaking_since));
  if (items.length === 0) {
    b.hidden = true;
    b.replaceChildren();
    return;
  }
  const top = items[0]!;
  const count = top.coverage_count > 1 ? el('span', { class: 'breaking-coverage' }, ' · ', el('span', { class: 'coverage-count', text: String(top.coverage_count) }), liveCount('articles', top.coverage_count, document.documentElement.lang)) : '';
  b.replaceChildren(
    el('strong', { text: liveText('breaking', document.documentElement.lang) }), ' ',
    el('a', { href: '/story/' + encodeURIComponent(top.story_id), text: top.title }),
    count,
  );
  b.setAttribute('data-story-id', top.story_id);
  b.hidden = false;
}

function renderPill(): void {
  const p = $('new-stories');
  if (!p) return;
  const n = live.fresh.size;
  p.hidden = n === 0;
  p.textContent = n === 0 ? '' : liveCount('newStories', n, document.documentElement.lang);
}

function onStory(s: StoryUpdate): void {
  const cards = document.querySelectorAll('[data-story-id="' + CSS.escape(s.story_id) + '"]');
  for (const card of cards) {
    for (const c of card.querySelectorAll('.coverage-count')) c.textContent = String(s.coverage_count);
  }
  const shown = live.breaking.get(s.story_id);
  if (shown) live.breaking.set(s.story_id, { ...shown, coverage_count: s.coverage_count });
  // a story of this feed that is not on the page and was published since the view loaded
  const onPage = [...cards].some((c) => c.id !== 'breaking');
  if (!onPage && live.view && live.view.category && !live.view.storyId && Date.parse(s.published_at) >= live.viewAt - 60000) {
    live.fresh.add(s.story_id);
    renderPill();
  }
}

function onMessage(ev: MessageEvent): void {
  let m: { type?: unknown; active?: unknown; story?: { story_id?: unknown } } | null;
  try {
    m = JSON.parse(String(ev.data));
  } catch {
    return;
  }
  if (!m || typeof m !== 'object') return;
  if (m.type === 'breaking' && m.story && typeof m.story.story_id === 'string') {
    if (m.active === false) live.breaking.delete(m.story.story_id);
    else live.breaking.set(m.story.story_id, m.story as BreakingStory);
    renderBanner();
  } else if (m.type === 'story' && m.story && typeof m.story.story_id === 'string') {
    onStory(m.story as StoryUpdate);
  }
}

function connect(): void {
  if (!('WebSocket' in window)) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/live');
  } catch {
    return;
  }
  live.ws = ws;
  live.subscribed = new Set();
  ws.onopen = () => {
    live.retryMs = 2000;
    sync();
  };
  ws.onmessage = onMessage;
  ws.onerror = () => {};
  ws.onclose = () => {
    if (live.ws !== ws) return;
    live.ws = null;
    const delay = live.retryMs * (0.75 + Math.random() / 2);
    live.retryMs = Math.min(60000, live.retryMs * 2);
    setTimeout(connect, delay);
  };
}

document.addEventListener('newsagg:view', (e) => {
  const d: Partial<LiveView> = (e as CustomEvent<Partial<LiveView> | null>).detail || {};
  live.view = { region: d.region || 'global', category: d.category || null, storyId: d.storyId || null };
  live.viewAt = Date.now();
  live.fresh.clear();
  renderPill();
  sync();
});

const pill = $('new-stories');
if (pill) {
  pill.addEventListener('click', () => {
    live.fresh.clear();
    renderPill();
    document.dispatchEvent(new CustomEvent('newsagg:refresh'));
  });
}

// keeps the connection alive through proxies, and finds out when it died
setInterval(() => send({ type: 'ping' }), 25000);
if (!live.view) live.view = viewFromLocation();
connect();
