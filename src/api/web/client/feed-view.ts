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
import { language, t, tn } from './i18n.js';

function emptyFeed(region: FeedRegion, category: FeedCategory): HTMLElement {
  if (region === 'global' && category === 'top') return sourcesHelp();
  const what = category === 'top' ? t('feed.emptyAll', { region: regionName(region)! }) : t('feed.emptySection', { section: categoryName(category)!, region: regionName(region)! });
  return el('div', { class: 'empty' },
    el('h2', { text: t('feed.emptyTitle') }),
    el('p', {}, what, el('a', { href: feedPath('global', category), 'data-nav': '', text: t('feed.seeWorld') }), '.'));
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
          el('span', { class: 'rank-meta' }, it.publisher_name + ' · ', el('span', { class: 'coverage-count', text: String(it.coverage_count) }), tn('feed.articles', it.coverage_count)))))));
  };
  api<Page<FeedItem>>('/v1/trending?' + query({ region: region === 'global' ? null : region, limit: 6 })).then((r) => {
    if (r.ok && r.body && Array.isArray(r.body.items) && r.body.items.length) return fill(t('feed.trending'), r.body.items.slice(0, 6));
    const items = firstPage && Array.isArray(firstPage.items) ? [...firstPage.items].sort((a, b) => b.coverage_count - a.coverage_count).slice(0, 5) : [];
    fill(t('feed.mostCovered'), items, t('feed.mostCoveredNote'));
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
  const title = categoryName(category)!;
  const node = el('div', { class: 'view feed-view' },
    el('div', { class: 'view-head' }, el('h1', { text: title }),
      el('p', { class: 'sub', text: regionName(region) + ' · ' + new Date().toLocaleDateString(language(), { weekday: 'long', day: 'numeric', month: 'long' }) })),
    el('div', { class: 'columns' }, list.node, side));
  return { node, ready: list.ready, dispose: list.dispose, title: title + (region === 'global' ? '' : ' · ' + regionName(region)) };
}
