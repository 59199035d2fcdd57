/**
 * `/ui/foryou.js`: the For you tab (`/for-you`). The reader's interests come from `GET /v1/me`
 * (the server knows the reader by its cookie) and are replaced whole with `PUT /v1/me`: topics,
 * publishers (by id), names and places to follow or hide; each story card gets "more / fewer like
 * this" controls, and under them the alert switches (push.js). A node without reader profiles
 * answers 404: the tab says so, keeps the controls visible but off, and shows top stories. Text through `el` only, never markup.
 */
export const FORYOU_JS = String.raw`
import { CATEGORIES, CATEGORY_LABELS, api, el, problem } from './dom.js?v=__V__';
import { storyCard } from './cards.js?v=__V__';
import { pagedList, query } from './feed.js?v=__V__';
import { alertsPanel } from './push.js?v=__V__';

const KINDS = ['categories', 'publishers', 'entities', 'places'];
const KIND_LABELS = { categories: 'Topic', publishers: 'Publisher', entities: 'Name', places: 'Place' };
/** publisher ids seen on cards, for naming followed publishers */
const publisherNames = new Map();

function emptyInterests() {
  const o = {};
  for (const k of KINDS) o[k] = [];
  return o;
}
function normalise(me) {
  const out = { follow: emptyInterests(), hide: emptyInterests() };
  for (const side of ['follow', 'hide']) for (const k of KINDS) {
    const v = me && me[side] && me[side][k];
    if (Array.isArray(v)) out[side][k] = v.filter((x) => typeof x === 'string');
  }
  return out;
}

export function forYouView(route) {
  const panel = el('section', { class: 'panel interests', 'aria-label': 'Your interests' });
  const feedBox = el('div', { class: 'foryou-feed' });
  // push alerts for breaking news and for what the reader follows (push.js)
  const alerts = alertsPanel(() => interests.follow);
  const node = el('div', { class: 'view foryou-view' },
    el('div', { class: 'view-head' }, el('h1', { text: 'For you' }), el('p', { class: 'sub', text: 'Stories picked by what you follow and hide' })),
    el('div', { class: 'columns' }, feedBox, el('aside', { class: 'side' }, panel, alerts.node)));
  let me = null; // null = no reader profiles on this node
  let interests = { follow: emptyInterests(), hide: emptyInterests() };
  let list = null;
  let saving = false;
  const notice = el('p', { class: 'notice', role: 'status' });

  const has = (side, kind, value) => interests[side][kind].includes(value);

  async function change(side, kind, value, on) {
    if (!me || saving) return;
    const next = normalise(interests);
    const other = side === 'follow' ? 'hide' : 'follow';
    next[side][kind] = next[side][kind].filter((v) => v !== value);
    if (on) {
      next[side][kind].push(value);
      next[other][kind] = next[other][kind].filter((v) => v !== value); // following undoes hiding, and back
    }
    saving = true;
    notice.textContent = 'Saving…';
    const r = await api('/v1/me', { method: 'PUT', json: next });
    saving = false;
    if (!r.ok) {
      notice.textContent = 'Not saved: ' + problem(r) + '.';
      return;
    }
    interests = normalise(r.body && r.body.follow ? r.body : next);
    notice.textContent = 'Saved. Your stories are updated.';
    alerts.sync();
    drawPanel();
    loadFeed();
  }

  function toggle(side, kind, value, label) {
    const on = has(side, kind, value);
    return el('button', { type: 'button', class: 'toggle ' + side, 'aria-pressed': String(on), disabled: !me, 'data-kind': kind, 'data-value': value,
      onclick: () => change(side, kind, value, !on), text: label });
  }

  function chips(side) {
    const items = [];
    for (const k of KINDS) for (const v of interests[side][k]) {
      const name = k === 'publishers' ? publisherNames.get(v) || v : k === 'categories' ? CATEGORY_LABELS[v] || v : v;
      items.push(el('li', { class: 'chip ' + side },
        el('span', { class: 'chip-kind', text: KIND_LABELS[k] }), el('span', { text: name }),
        el('button', { type: 'button', class: 'chip-x', 'aria-label': 'Remove ' + name, disabled: !me, onclick: () => change(side, k, v, false), text: '×' })));
    }
    return items.length ? el('ul', { class: 'chips' }, items) : el('p', { class: 'panel-note', text: side === 'follow' ? 'Nothing followed yet.' : 'Nothing hidden.' });
  }

  function addForm() {
    const input = el('input', { type: 'text', name: 'interest', maxlength: 100, placeholder: 'A name or a place, e.g. Nairobi', 'aria-label': 'A name or a place', disabled: !me });
    const kind = el('select', { 'aria-label': 'Kind', disabled: !me }, el('option', { value: 'entities', text: 'Name' }), el('option', { value: 'places', text: 'Place' }));
    const go = (side) => (e) => {
      e.preventDefault();
      const v = input.value.trim();
      if (v) change(side, kind.value, v, true);
    };
    return el('form', { class: 'add-interest', onsubmit: go('follow') }, input, kind,
      el('div', { class: 'add-buttons' },
        el('button', { type: 'submit', class: 'primary', disabled: !me, text: 'Follow' }),
        el('button', { type: 'button', disabled: !me, onclick: go('hide'), text: 'Hide' })));
  }

  function drawPanel() {
    panel.replaceChildren(
      el('h2', { text: 'Your interests' }), notice,
      el('h3', { text: 'Topics' }),
      el('ul', { class: 'topic-toggles' }, CATEGORIES.map((c) => el('li', {}, el('span', { class: 'topic-name', text: CATEGORY_LABELS[c] }),
        toggle('follow', 'categories', c, 'Follow'), toggle('hide', 'categories', c, 'Hide')))),
      el('h3', { text: 'Following' }), chips('follow'),
      el('h3', { text: 'Hidden' }), chips('hide'),
      el('h3', { text: 'Add a name or place' }), addForm(),
      me ? el('button', { type: 'button', class: 'link-button forget', onclick: forget, text: 'Forget me (interests and reading history)' }) : null);
  }

  async function forget() {
    const r = await api('/v1/me', { method: 'DELETE' });
    if (!r.ok && r.status !== 204) {
      notice.textContent = 'Not forgotten: ' + problem(r) + '.';
      return;
    }
    interests = { follow: emptyInterests(), hide: emptyInterests() };
    notice.textContent = 'Forgotten. This browser starts afresh.';
    drawPanel();
    loadFeed();
  }

  /** "more / fewer like this" on every card */
  function menu(it) {
    publisherNames.set(it.publisher_id, it.publisher_name);
    const item = (label, side, kind, value) => el('button', { type: 'button', role: 'menuitem', disabled: !me || !value, onclick: (e) => {
      e.target.closest('details').open = false;
      change(side, kind, value, true);
    }, text: label });
    return el('details', { class: 'card-menu' },
      el('summary', { 'aria-label': 'More or fewer stories like this', title: 'More or fewer like this', text: '⋯' }),
      el('div', { class: 'menu', role: 'menu' },
        item('More from ' + it.publisher_name, 'follow', 'publishers', it.publisher_id),
        item('Fewer from ' + it.publisher_name, 'hide', 'publishers', it.publisher_id),
        it.category ? item('More ' + CATEGORY_LABELS[it.category] + ' stories', 'follow', 'categories', it.category) : null,
        it.category ? item('Fewer ' + CATEGORY_LABELS[it.category] + ' stories', 'hide', 'categories', it.category) : null));
  }

  function loadFeed() {
    if (list) list.dispose();
    const region = route.region;
    list = pagedList({
      url: (cursor) => '/v1/feed?' + (me ? query({ for: 'me', cursor, related: 'true' }) : query({ region, cursor, related: 'true' })),
      card: (it) => storyCard(it, { region, menu }),
      empty: () => el('div', { class: 'empty' }, el('p', { text: 'No stories match your interests yet. Follow a few topics, or hide fewer.' })),
    });
    feedBox.replaceChildren(list.node);
    return list.ready;
  }

  const view = { node, title: 'For you', dispose() { if (list) list.dispose(); } };
  view.ready = api('/v1/me').then((r) => {
    if (r.ok && r.body) {
      me = r.body;
      interests = normalise(r.body);
    } else {
      me = null;
      notice.className = 'notice warn';
      notice.textContent = r.status === 404
        ? 'Personalisation is not available on this server: it keeps no reader profiles (/v1/me answered 404). Showing top stories instead.'
        : 'Your interests could not be loaded (' + problem(r) + '). Showing top stories instead.';
    }
    drawPanel();
    return loadFeed();
  });
  return view;
}
`;
