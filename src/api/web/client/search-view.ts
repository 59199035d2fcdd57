/**
 * Search results (`/search?q=`): each story once, shown through its best-matching article,
 * paged like the feed. Text through `el` only, never markup.
 */
import { resultCard } from './cards.js';
import { el } from './dom.js';
import { pagedList, query } from './paged-list.js';
import type { SearchHit } from './types.js';
import type { RouteOf, View } from './view.js';
import { t } from './i18n.js';

export function searchView(route: RouteOf<'search'>): View {
  const q = route.q;
  if (!q) {
    const node = el('div', { class: 'view search-view' }, el('div', { class: 'view-head' }, el('h1', { text: t('search.title') }), el('p', { class: 'sub', text: t('search.hint') })));
    return { node, ready: Promise.resolve(), dispose() {}, title: t('search.title') };
  }
  const h1 = el('h1', { text: t('search.results', { q }) });
  const sub = el('p', { class: 'sub', text: t('search.sub') });
  const list = pagedList<SearchHit>({
    label: t('search.label'),
    url: (cursor) => '/v1/search?' + query({ q, cursor }),
    card: (a) => resultCard(a, route.region),
    endText: t('search.end'),
    empty: () => el('div', { class: 'empty' }, el('p', { text: t('search.empty') })),
    onFirst: (page) => {
      if (page && page.items.length === 0) {
        h1.textContent = t('search.noResults', { q });
        sub.textContent = '';
      }
    },
  });
  const node = el('div', { class: 'view search-view' }, el('div', { class: 'view-head' }, h1, sub), el('div', { class: 'columns single' }, list.node));
  return { node, ready: list.ready, dispose: list.dispose, title: q + ' · ' + t('search.title') };
}
