/**
 * Search results (`/search?q=`): each story once, shown through its best-matching article,
 * paged like the feed. Text through `el` only, never markup.
 */
import { resultCard } from './cards.js';
import { el } from './dom.js';
import { pagedList, query } from './paged-list.js';
import type { SearchHit } from './types.js';
import type { RouteOf, View } from './view.js';

export function searchView(route: RouteOf<'search'>): View {
  const q = route.q;
  if (!q) {
    const node = el('div', { class: 'view search-view' }, el('div', { class: 'view-head' }, el('h1', { text: 'Search' }), el('p', { class: 'sub', text: 'Type words in the search box above.' })));
    return { node, ready: Promise.resolve(), dispose() {}, title: 'Search' };
  }
  const h1 = el('h1', { text: 'Results for “' + q + '”' });
  const sub = el('p', { class: 'sub', text: 'Each story once, shown through its best-matching article' });
  const list = pagedList<SearchHit>({
    label: 'Search results',
    url: (cursor) => '/v1/search?' + query({ q, cursor }),
    card: (a) => resultCard(a, route.region),
    endText: 'No more results.',
    empty: () => el('div', { class: 'empty' }, el('p', { text: 'Check the spelling, or try fewer or more general words. Quotes find a phrase; a minus sign leaves a word out.' })),
    onFirst: (page) => {
      if (page && page.items.length === 0) {
        h1.textContent = 'No results for “' + q + '”';
        sub.textContent = '';
      }
    },
  });
  const node = el('div', { class: 'view search-view' }, el('div', { class: 'view-head' }, h1, sub), el('div', { class: 'columns single' }, list.node));
  return { node, ready: list.ready, dispose: list.dispose, title: q + ' · Search' };
}
