/**
 * The front page of an edition and section: its stories as cards (paged, each story once),
 * the Trending panel beside them, and an empty state that says where to look or how to add
 * sources. Text through `el` only, never markup.
 */
import { api } from './api.js';
import { storyCard } from './cards.js';
import { el, feedPath, storyPath } from './dom.js';
import { pagedList, query } from './paged-list.js';
import { sourcesHelp } from './sources.js';
import { categoryName, regionName, type FeedCategory, type FeedRegion } from './taxonomy.js';
import type { FeedItem, Page } from './types.js';
import type { RouteOf, View, ViewContext } from './view.js';

function emptyFeed(region: FeedRegion, category: FeedCategory): HTMLElement {
  if (region === 'global' && category === 'top') return sourcesHelp();
  const what = category === 'top' ? 'stories' : categoryName(category) + ' stories';
  return el('div', { class: 'empty' },
    el('h2', { text: 'Nothing here yet' }),
    el('p', {}, 'No ' + what + ' in the ' + regionName(region) + ' yet. ', el('a', { href: feedPath('global', category), 'data-nav': '', text: 'See the World edition' }), '.'));
}

/** Trending (when this node offers it), else the most covered stories of the first page. */
function sidePanel(side: HTMLElement, region: FeedRegion, firstPage: Page<FeedItem> | null): void {
  const fill = (title: string, items: FeedItem[], note?: string) => {
    if (!items.length) return;
    side.replaceChildren(el('section', { class: 'panel trending', 'aria-label': title },
      el('h2', { text: title }),
      note ? el('p', { class: 'panel-note', text: note }) : null,
      el('ol', { class: 'rank-list' }, items.map((it) =>
        el('li', { 'data-story-id': it.story_id },
          el('a', { class: 'rank-title', href: storyPath(it.story_id, region), 'data-nav': '', text: it.title }),
          el('span', { class: 'rank-meta' }, it.publisher_name + ' · ', el('span', { class: 'coverage-count', text: String(it.coverage_count) }), ' articles'))))));
  };
  api<Page<FeedItem>>('/v1/trending?' + query({ region: region === 'global' ? null : region, limit: 6 })).then((r) => {
    if (r.ok && r.body && Array.isArray(r.body.items) && r.body.items.length) return fill('Trending', r.body.items.slice(0, 6));
    const items = firstPage && Array.isArray(firstPage.items) ? [...firstPage.items].sort((a, b) => b.coverage_count - a.coverage_count).slice(0, 5) : [];
    fill('Most covered', items, 'Stories told by the most outlets right now');
  });
}

export function feedView(route: RouteOf<'feed'>, ctx: ViewContext): View {
  const { region, category } = route;
  const side = el('aside', { class: 'side' });
  const list = pagedList<FeedItem>({
    url: (cursor) => '/v1/feed?' + query({ region, category, cursor, related: 'true' }),
    card: (it) => storyCard(it, { region }),
    empty: () => emptyFeed(region, category),
    onFirst: (page) => sidePanel(side, region, page),
    revalidate: !!(ctx && ctx.revalidate),
  });
  const title = category === 'top' ? 'Top stories' : categoryName(category)!;
  const node = el('div', { class: 'view feed-view' },
    el('div', { class: 'view-head' }, el('h1', { text: title }),
      el('p', { class: 'sub', text: regionName(region) + ' · ' + new Date().toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' }) })),
    el('div', { class: 'columns' }, list.node, side));
  return { node, ready: list.ready, dispose: list.dispose, title: title + (region === 'global' ? '' : ' · ' + regionName(region)) };
}
