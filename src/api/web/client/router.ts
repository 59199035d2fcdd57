/**
 * The router. Every view has a real URL (`/?region=&category=`, `/for-you`, `/search?q=`,
 * `/story/:id`, `/admin`) that the server answers with the same shell, so reload, Back and
 * shared links work; in-app links carry `data-nav` and move with the History API. Views left by
 * Back are kept for a while, so going back shows the same stories at the same scroll position.
 *
 * Contract with the live module (live.ts, a bundle of its own): `newsagg:view` is dispatched on
 * document at start and whenever the view changes (`{region, category, storyId}`), and
 * `newsagg:refresh` on document reloads the current view.
 */
import { adminView } from './admin-view.js';
import { $, el, feedPath } from './dom.js';
import { feedView } from './feed-view.js';
import { forYouView } from './foryou-view.js';
import { localView } from './local-view.js';
import { savedView } from './saved-view.js';
import { searchView } from './search-view.js';
import { storyView } from './story-view.js';
import { CATEGORIES, FEED_CATEGORIES, FEED_REGIONS, categoryName, regionName } from './taxonomy.js';
import { missingView, type ViewRoute, type View, type ViewContext } from './view.js';
import { t } from './i18n.js';

const KEEP_VIEWS = 8;

function pick<T extends string>(v: string | null, list: readonly T[], dflt: T): T {
  return v !== null && (list as readonly string[]).includes(v) ? (v as T) : dflt;
}

/** The view a URL names. */
export function routeOf(loc: Location): ViewRoute {
  const p = new URLSearchParams(loc.search);
  // the edition is in the URL (none = the World edition), so a shared link shows what its sender saw
  const region = pick(p.get('region'), FEED_REGIONS, 'global');
  const path = loc.pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') return { name: 'feed', region, category: pick(p.get('category'), FEED_CATEGORIES, 'top') };
  if (path === '/search') return { name: 'search', region, q: (p.get('q') || '').trim().slice(0, 200) };
  if (path === '/for-you') return { name: 'foryou', region };
  if (path === '/saved') return { name: 'saved', region };
  if (path === '/local') return { name: 'local', region };
  if (path === '/admin') return { name: 'admin', region };
  const m = /^\/story\/([^/]+)$/.exec(path);
  if (m) {
    try {
      return { name: 'story', region, id: decodeURIComponent(m[1]!) };
    } catch {
      return { name: 'missing', region };
    }
  }
  return { name: 'missing', region };
}

interface Entry {
  key: string | undefined;
  url: string;
  route: ViewRoute;
  view: View;
  scrollY: number;
}
interface HistoryState {
  key?: string;
  scrollY?: number;
}

const kept = new Map<string | undefined, Entry>(); // history key -> the view left there
let current: Entry | null = null;

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function build(route: ViewRoute, revalidate: boolean): View {
  const ctx: ViewContext = {
    revalidate,
    setTitle: (t) => (document.title = t + ' · newsagg'),
    // a story page marks its section in the nav once the story is loaded (if still shown)
    setCategory: (c) => {
      if (route.name === 'story') route.category = c || 'top';
      if (current && current.route === route) markNav(route);
    },
    region: () => route.region,
  };
  switch (route.name) {
    case 'feed': return feedView(route, ctx);
    case 'search': return searchView(route);
    case 'story': return storyView(route, ctx);
    case 'foryou': return forYouView(route);
    case 'saved': return savedView(route);
    case 'local': return localView(route);
    case 'admin': return adminView();
    default: return missingView();
  }
}

/** Nav state: the section tab, edition menu and search box say where the reader is. */
function markNav(route: ViewRoute): void {
  const active = route.name === 'feed' ? route.category : route.name === 'foryou' ? 'for-you' : route.name === 'saved' ? 'saved' : route.name === 'local' ? 'local' : route.name === 'story' ? route.category || null : null;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#sections a')) {
    const v = a.dataset.section;
    a.href = v === 'for-you' || v === 'saved' || v === 'local' ? '/' + v + (route.region === 'global' ? '' : '?region=' + route.region) : feedPath(route.region, v);
    if (v === active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  $<HTMLSelectElement>('edition').value = route.region;
  const q = $<HTMLInputElement>('q');
  if (route.name === 'search') q.value = route.q;
  else if (document.activeElement !== q) q.value = '';
}

function announce(route: ViewRoute): void {
  const detail = {
    region: route.region,
    category: route.name === 'feed' ? route.category : 'top',
    storyId: route.name === 'story' ? route.id : null,
  };
  document.dispatchEvent(new CustomEvent('newsagg:view', { detail }));
}

interface ShowOptions {
  /** dispose of the view left instead of keeping it for Back */
  drop?: boolean;
  /** build a new view even if one is kept for this entry */
  fresh?: boolean;
  top?: boolean;
  revalidate?: boolean;
}

/** Shows the view of the current URL: the kept one (Back/Forward) at its scroll position, or a fresh one. */
function show(opts?: ShowOptions): void {
  const o = opts ?? {};
  const state: HistoryState = history.state || {};
  const route = routeOf(location);
  if (current) {
    current.view.node.remove();
    current.scrollY = window.scrollY;
    if (o.drop) current.view.dispose();
    else kept.set(current.key, current);
  }
  let entry = o.fresh ? undefined : kept.get(state.key);
  kept.delete(state.key);
  if (entry && entry.url !== location.href) {
    entry.view.dispose();
    entry = undefined;
  }
  const restored = !!entry;
  if (!entry) {
    entry = { key: state.key, url: location.href, route, view: build(route, !!o.revalidate), scrollY: typeof state.scrollY === 'number' ? state.scrollY : 0 };
  }
  while (kept.size > KEEP_VIEWS) {
    const [oldest, e] = kept.entries().next().value!;
    e.view.dispose();
    kept.delete(oldest);
  }
  const shown = entry;
  current = shown;
  $('view').replaceChildren(shown.view.node);
  document.title = shown.view.title + ' · newsagg';
  markNav(shown.route);
  announce(shown.route);
  const y = o.top ? 0 : shown.scrollY;
  window.scrollTo(0, y);
  // a fresh view fills asynchronously (a reload): restore the position once its first content is in
  if (!restored && y > 0) Promise.resolve(shown.view.ready).then(() => { if (current === shown) window.scrollTo(0, y); });
}

/** The scroll position goes into the history entry too, so a reload comes back to it. */
function remember(): void {
  history.replaceState({ ...(history.state || {}), scrollY: window.scrollY }, '');
}
let scrollTimer = 0;
function onScroll(): void {
  clearTimeout(scrollTimer);
  scrollTimer = window.setTimeout(remember, 250);
}

export function navigate(url: string): void {
  clearTimeout(scrollTimer);
  remember();
  history.pushState({ key: newKey(), scrollY: 0 }, '', url);
  show({ top: true });
}

/** Same-origin links to app pages move in-app; new tabs, modified clicks and other pages stay normal. */
function onClick(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element).closest<HTMLAnchorElement>('a[data-nav]');
  if (!a || a.target) return;
  const u = new URL(a.href, location.href);
  if (u.origin !== location.origin) return;
  e.preventDefault();
  if (u.href === location.href) {
    show({ drop: true, top: true, fresh: true });
    return;
  }
  navigate(u.pathname + u.search);
}

/** Fills the masthead (sections, editions), wires search and links, and shows the first view. */
export function startRouter(): void {
  history.scrollRestoration = 'manual';
  const sections = $('sections');
  sections.append(el('a', { href: '/', 'data-nav': '', 'data-section': 'top', text: t('nav.top') }));
  sections.append(el('a', { href: '/for-you', 'data-nav': '', 'data-section': 'for-you', text: t('nav.forYou') }));
  sections.append(el('a', { href: '/local', 'data-nav': '', 'data-section': 'local', text: t('nav.local') }));
  sections.append(el('a', { href: '/saved', 'data-nav': '', 'data-section': 'saved', text: t('nav.saved') }));
  sections.append(el('span', { class: 'nav-sep', 'aria-hidden': 'true' }));
  for (const c of CATEGORIES) sections.append(el('a', { href: feedPath('global', c), 'data-nav': '', 'data-section': c, text: categoryName(c)! }));
  const edition = $<HTMLSelectElement>('edition');
  for (const r of FEED_REGIONS) edition.append(el('option', { value: r, text: regionName(r)! }));
  edition.addEventListener('change', () => {
    const route = routeOf(location);
    navigate(feedPath(edition.value, route.name === 'feed' ? route.category : 'top'));
  });
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = $<HTMLInputElement>('q').value.trim();
    const region = routeOf(location).region;
    if (q) navigate('/search?q=' + encodeURIComponent(q) + (region === 'global' ? '' : '&region=' + region));
  });
  document.addEventListener('click', onClick);
  window.addEventListener('popstate', () => show());
  window.addEventListener('pagehide', remember);
  window.addEventListener('scroll', onScroll, { passive: true });
  document.addEventListener('newsagg:refresh', () => show({ drop: true, fresh: true, top: true, revalidate: true }));
  if (!history.state || !history.state.key) history.replaceState({ key: newKey(), scrollY: 0 }, '');
  show();
}
