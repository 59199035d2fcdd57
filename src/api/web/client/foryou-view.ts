/**
 * The For you tab (`/for-you`). The reader's interests come from `GET /v1/me` (the server knows
 * the reader by its cookie) and are replaced whole with `PUT /v1/me`: topics, publishers (by
 * id), names and places to follow or hide; each story card gets "more / fewer like this"
 * controls, and under them the alert switches (push.ts). A node without reader profiles answers
 * 404: the tab says so, keeps the controls visible but off, and shows top stories. Text through
 * `el` only, never markup.
 */
import { api, problem } from './api.js';
import { storyCard } from './cards.js';
import { el } from './dom.js';
import { pagedList, query, type PagedList } from './paged-list.js';
import { alertsPanel } from './push.js';
import { CATEGORIES, categoryName } from './taxonomy.js';
import type { FeedItem, InterestKind, InterestSet, Interests } from './types.js';
import type { RouteOf, View } from './view.js';
import { t, type MessageKey } from './i18n.js';

type Side = 'follow' | 'hide';
/** whether For you leaves out stories already read (this browser's choice; the read stories are the server's) */
const HIDE_READ_KEY = 'newsagg_hide_read';
const hideRead = (): boolean => !!localStorage.getItem(HIDE_READ_KEY);
const KINDS: readonly InterestKind[] = ['categories', 'publishers', 'entities', 'places'];
const KIND_LABELS: Record<InterestKind, MessageKey> = { categories: 'foryou.kindTopic', publishers: 'foryou.kindPublisher', entities: 'foryou.kindName', places: 'foryou.kindPlace' };
/** publisher ids seen on cards, for naming followed publishers */
const publisherNames = new Map<string, string>();

function emptyInterests(): InterestSet {
  return { categories: [], publishers: [], entities: [], places: [] };
}

/** Interests as the server sent them, or empty: only lists of strings are kept. */
function normalise(me: unknown): Interests {
  const out: Interests = { follow: emptyInterests(), hide: emptyInterests() };
  const m = me as Partial<Record<Side, Partial<Record<InterestKind, unknown>>>> | null;
  for (const side of ['follow', 'hide'] as const) for (const k of KINDS) {
    const v = m && m[side] && m[side]![k];
    if (Array.isArray(v)) out[side][k] = v.filter((x): x is string => typeof x === 'string');
  }
  return out;
}

export function forYouView(route: RouteOf<'foryou'>): View {
  const panel = el('section', { class: 'panel interests', 'aria-label': t('foryou.interests') });
  const feedBox = el('div', { class: 'foryou-feed' });
  // push alerts for breaking news and for what the reader follows (push.ts)
  const alerts = alertsPanel(() => interests.follow);
  const node = el('div', { class: 'view foryou-view' },
    el('div', { class: 'view-head' }, el('h1', { text: t('foryou.title') }), el('p', { class: 'sub', text: t('foryou.sub') })),
    el('div', { class: 'columns' }, feedBox, el('aside', { class: 'side' }, panel, alerts.node)));
  let me: unknown = null; // null = no reader profiles on this node
  let interests: Interests = { follow: emptyInterests(), hide: emptyInterests() };
  let list: PagedList | null = null;
  let saving = false;
  const notice = el('p', { class: 'notice', role: 'status' });

  const has = (side: Side, kind: InterestKind, value: string) => interests[side][kind].includes(value);

  async function change(side: Side, kind: InterestKind, value: string, on: boolean): Promise<void> {
    if (!me || saving) return;
    const next = normalise(interests);
    const other: Side = side === 'follow' ? 'hide' : 'follow';
    next[side][kind] = next[side][kind].filter((v) => v !== value);
    if (on) {
      next[side][kind].push(value);
      next[other][kind] = next[other][kind].filter((v) => v !== value); // following undoes hiding, and back
    }
    saving = true;
    notice.textContent = t('foryou.saving');
    const r = await api<Interests>('/v1/me', { method: 'PUT', json: next });
    saving = false;
    if (!r.ok) {
      notice.textContent = t('foryou.notSaved', { problem: problem(r) });
      return;
    }
    interests = normalise(r.body && r.body.follow ? r.body : next);
    notice.textContent = t('foryou.saved');
    alerts.sync();
    drawPanel();
    loadFeed();
  }

  function toggle(side: Side, kind: InterestKind, value: string, label: string): HTMLButtonElement {
    const on = has(side, kind, value);
    return el('button', { type: 'button', class: 'toggle ' + side, 'aria-pressed': String(on), disabled: !me, 'data-kind': kind, 'data-value': value,
      onclick: () => change(side, kind, value, !on), text: label });
  }

  function chips(side: Side): HTMLElement {
    const items: HTMLElement[] = [];
    for (const k of KINDS) for (const v of interests[side][k]) {
      const name = k === 'publishers' ? publisherNames.get(v) || v : k === 'categories' ? categoryName(v) || v : v;
      items.push(el('li', { class: 'chip ' + side },
        el('span', { class: 'chip-kind', text: t(KIND_LABELS[k]) }), el('span', { text: name }),
        el('button', { type: 'button', class: 'chip-x', 'aria-label': t('foryou.remove', { name }), disabled: !me, onclick: () => change(side, k, v, false), text: '×' })));
    }
    return items.length ? el('ul', { class: 'chips' }, items) : el('p', { class: 'panel-note', text: side === 'follow' ? t('foryou.noneFollowed') : t('foryou.noneHidden') });
  }

  function addForm(): HTMLFormElement {
    const input = el('input', { type: 'text', name: 'interest', maxlength: 100, placeholder: 'A name or a place, e.g. Nairobi', 'aria-label': 'A name or a place', disabled: !me });
    const kind = el('select', { 'aria-label': t('foryou.kind'), disabled: !me }, el('option', { value: 'entities', text: t('foryou.kindName') }), el('option', { value: 'places', text: t('foryou.kindPlace') }));
    const go = (side: Side) => (e: Event) => {
      e.preventDefault();
      const v = input.value.trim();
      if (v) change(side, kind.value as InterestKind, v, true);
    };
    return el('form', { class: 'add-interest', onsubmit: go('follow') }, input, kind,
      el('div', { class: 'add-buttons' },
        el('button', { type: 'submit', class: 'primary', disabled: !me, text: t('foryou.follow') }),
        el('button', { type: 'button', disabled: !me, onclick: go('hide'), text: t('foryou.hide') })));
  }

  function drawPanel(): void {
    panel.replaceChildren(
      el('h2', { text: t('foryou.interests') }), notice,
      el('h3', { text: t('foryou.topics') }),
      el('ul', { class: 'topic-toggles' }, CATEGORIES.map((c) => el('li', {}, el('span', { class: 'topic-name', text: categoryName(c)! }),
        toggle('follow', 'categories', c, t('foryou.follow')), toggle('hide', 'categories', c, t('foryou.hide'))))),
      el('h3', { text: t('foryou.following') }), chips('follow'),
      el('h3', { text: t('foryou.hidden') }), chips('hide'),
      el('h3', { text: t('foryou.add') }), addForm(),
      el('label', { class: 'hide-read' }, el('input', { type: 'checkbox', id: 'hide-read', checked: hideRead(), disabled: !me, onchange: (e) => {
        localStorage.setItem(HIDE_READ_KEY, (e.target as HTMLInputElement).checked ? '1' : '');
        loadFeed();
      } }), ' Hide stories I have read'),
      ...(me ? [el('button', { type: 'button', class: 'link-button forget', onclick: forget, text: t('foryou.forget') })] : []));
  }

  async function forget(): Promise<void> {
    const r = await api('/v1/me', { method: 'DELETE' });
    if (!r.ok && r.status !== 204) {
      notice.textContent = t('foryou.notForgotten', { problem: problem(r) });
      return;
    }
    interests = { follow: emptyInterests(), hide: emptyInterests() };
    notice.textContent = t('foryou.forgotten');
    drawPanel();
    loadFeed();
  }

  /** "more / fewer like this" on every card */
  function menu(it: FeedItem): HTMLElement {
    publisherNames.set(it.publisher_id, it.publisher_name);
    const item = (label: string, side: Side, kind: InterestKind, value: string | null) => el('button', { type: 'button', role: 'menuitem', disabled: !me || !value, onclick: (e) => {
      ((e.target as Element).closest('details') as HTMLDetailsElement).open = false;
      if (value) change(side, kind, value, true);
    }, text: label });
    const topic = categoryName(it.category);
    return el('details', { class: 'card-menu' },
      el('summary', { 'aria-label': t('foryou.menu'), title: t('foryou.menuShort'), text: '⋯' }),
      el('div', { class: 'menu', role: 'menu' },
        item(t('foryou.moreFrom', { publisher: it.publisher_name }), 'follow', 'publishers', it.publisher_id),
        item(t('foryou.fewerFrom', { publisher: it.publisher_name }), 'hide', 'publishers', it.publisher_id),
        it.category ? item(t('foryou.moreTopic', { section: topic ?? '' }), 'follow', 'categories', it.category) : null,
        it.category ? item(t('foryou.fewerTopic', { section: topic ?? '' }), 'hide', 'categories', it.category) : null));
  }

  function loadFeed(): Promise<void> {
    if (list) list.dispose();
    const region = route.region;
    list = pagedList<FeedItem>({
      url: (cursor) => '/v1/feed?' + (me ? query({ for: 'me', cursor, related: 'true', hide_read: hideRead() ? 'true' : null }) : query({ region, cursor, related: 'true' })),
      card: (it) => storyCard(it, { region, menu }),
      empty: () => el('div', { class: 'empty' }, el('p', { text: t('foryou.empty') })),
    });
    feedBox.replaceChildren(list.node);
    return list.ready;
  }

  const view: View = { node, title: t('foryou.title'), dispose() { if (list) list.dispose(); }, ready: Promise.resolve() };
  view.ready = api<Interests>('/v1/me').then((r) => {
    if (r.ok && r.body) {
      me = r.body;
      interests = normalise(r.body);
    } else {
      me = null;
      notice.className = 'notice warn';
      notice.textContent = r.status === 404
        ? t('foryou.unavailable')
        : t('foryou.error', { problem: problem(r) });
    }
    drawPanel();
    return loadFeed();
  });
  return view;
}
