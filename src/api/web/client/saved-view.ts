/**
 * The Saved section (`/saved`): the reader's saved stories as cards, newest saved first, from
 * `GET /v1/me/saved`; unsaving a story takes its card away. Text through `el` only, never markup.
 */
import { api, problem } from './api.js';
import { storyCard } from './cards.js';
import { el } from './dom.js';
import type { FeedItem } from './types.js';
import type { RouteOf, View } from './view.js';
import { t } from './i18n.js';

export function savedView(route: RouteOf<'saved'>): View {
  const list = el('div', { class: 'story-list saved-list', id: 'feed' });
  const status = el('p', { class: 'status loading', role: 'status', text: t('saved.loading') });
  const node = el('div', { class: 'view saved-view' },
    el('div', { class: 'view-head' }, el('h1', { text: t('saved.title') }), el('p', { class: 'sub', text: t('saved.sub') })),
    status, list);
  const onSaved = (e: Event) => {
    const d = (e as CustomEvent<{ storyId: string; saved: boolean }>).detail;
    if (!d.saved) for (const c of list.querySelectorAll<HTMLElement>('[data-story-id]')) if (c.dataset.storyId === d.storyId) c.remove();
    if (!list.childElementCount) status.replaceChildren(empty());
  };
  document.addEventListener('newsagg:saved', onSaved);
  const empty = () => el('span', { text: t('saved.empty') });
  const view: View = { node, title: t('saved.title'), dispose() { document.removeEventListener('newsagg:saved', onSaved); }, ready: Promise.resolve() };
  view.ready = api<{ items: FeedItem[] }>('/v1/me/saved', { cache: 'no-store' }).then((r) => {
    if (!r.ok || !r.body || !Array.isArray(r.body.items)) {
      status.className = 'status error';
      status.textContent = r.status === 404 ? t('saved.unavailable') : t('saved.error', { problem: problem(r) });
      return;
    }
    status.className = 'status';
    status.replaceChildren(r.body.items.length ? '' : empty());
    list.replaceChildren(...r.body.items.map((it) => storyCard(it, { region: route.region })));
  });
  return view;
}
