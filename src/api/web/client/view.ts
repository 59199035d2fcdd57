/**
 * What the router and the views agree on: a route (what a URL names), a view (a node filled
 * asynchronously, kept while Back may return to it) and the context a view may call back.
 */
import { el } from './dom.js';
import type { FeedCategory, FeedRegion } from './taxonomy.js';
import { t } from './i18n.js';

export type ViewRoute =
  | { name: 'feed'; region: FeedRegion; category: FeedCategory }
  | { name: 'search'; region: FeedRegion; q: string }
  | { name: 'story'; region: FeedRegion; id: string; /** the story's section, once loaded */ category?: string }
  | { name: 'foryou'; region: FeedRegion }
  | { name: 'saved'; region: FeedRegion }
  | { name: 'local'; region: FeedRegion }
  | { name: 'admin'; region: FeedRegion }
  | { name: 'missing'; region: FeedRegion };

export type RouteOf<N extends ViewRoute['name']> = Extract<ViewRoute, { name: N }>;

export interface View {
  node: HTMLElement;
  /** settles once the first content is in (the router restores the scroll position then) */
  ready: Promise<unknown>;
  dispose(): void;
  title: string;
}

export interface ViewContext {
  /** a reload the reader asked for: cached pages are revalidated */
  revalidate: boolean;
  setTitle(title: string): void;
  /** a story page marks its section in the nav once the story is loaded */
  setCategory(category: string | null): void;
  region(): FeedRegion;
}

export function missingView(): View {
  const node = el('div', { class: 'view' }, el('div', { class: 'view-head' }, el('h1', { text: t('missing.title') }), el('p', {}, el('a', { href: '/', 'data-nav': '', text: t('missing.home') }))));
  return { node, ready: Promise.resolve(), dispose() {}, title: t('missing.short') };
}
