/**
 * The web UI's entry script (served as `/app.js`, an ES module): the router. Every view has a real
 * URL (`/?region=&category=`, `/for-you`, `/search?q=`, `/story/:id`, `/admin`) that the server
 * answers with the same shell, so reload, Back and shared links work; in-app links carry
 * `data-nav` and move with the History API. Views left by Back are kept for a while, so going
 * back shows the same stories at the same scroll position. Contract with the live module
 * (`/live.js`, separate): `newsagg:view` is dispatched on document at start and whenever the view
 * changes (`{region, category, storyId}`), and `newsagg:refresh` on document reloads the current
 * view. Kept as a string so the build ships it without a bundler; it must contain no backquote
 * or dollar-brace (it lives in a template literal).
 */
export const CLIENT_JS = String.raw`
import { $, CATEGORIES, CATEGORY_LABELS, REGIONS, REGION_LABELS, el, feedPath } from './ui/dom.js?v=__V__';
import { feedView, searchView } from './ui/feed.js?v=__V__';
import { storyView } from './ui/story.js?v=__V__';
import { forYouView } from './ui/foryou.js?v=__V__';
import { adminView } from './ui/admin.js?v=__V__';

const KEEP_VIEWS = 8;

/** The view a URL names. */
function routeOf(loc) {
  const p = new URLSearchParams(loc.search);
  const pick = (v, list, dflt) => (list.includes(v) ? v : dflt);
  // the edition is in the URL (none = the World edition), so a shared link shows what its sender saw
  const region = pick(p.get('region'), REGIONS, 'global');
  const path = loc.pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') return { name: 'feed', region, category: pick(p.get('category'), ['top', ...CATEGORIES], 'top') };
  if (path === '/search') return { name: 'search', region, q: (p.get('q') || '').trim().slice(0, 200) };
  if (path === '/for-you') return { name: 'foryou', region };
  if (path === '/admin') return { name: 'admin', region };
  const m = /^\/story\/([^/]+)$/.exec(path);
  if (m) {
    try {
      return { name: 'story', region, id: decodeURIComponent(m[1]) };
    } catch {
      return { name: 'missing', region };
    }
  }
  return { name: 'missing', region };
}

const kept = new Map(); // history key -> {view, url}
let current = null; // {key, view, route}

function newKey() {
  return Math.random().toString(36).slice(2, 10);
}

function missingView() {
  return { node: el('div', { class: 'view' }, el('div', { class: 'view-head' }, el('h1', { text: 'Page not found' }), el('p', {}, el('a', { href: '/', 'data-nav': '', text: 'Go to top stories' })))), ready: Promise.resolve(), dispose() {}, title: 'Not found' };
}

function build(route, revalidate) {
  const ctx = {
    revalidate,
    setTitle: (t) => (document.title = t + ' · newsagg'),
    // a story page marks its section in the nav once the story is loaded (if still shown)
    setCategory: (c) => {
      route.category = c || 'top';
      if (current && current.route === route) markNav(route);
    },
    region: () => route.region,
  };
  switch (route.name) {
    case 'feed': return feedView(route, ctx);
    case 'search': return searchView(route, ctx);
    case 'story': return storyView(route, ctx);
    case 'foryou': return forYouView(route, ctx);
    case 'admin': return adminView(route, ctx);
    default: return missingView();
  }
}

/** Nav state: the section tab, edition menu and search box say where the reader is. */
function markNav(route) {
  const active = route.name === 'feed' ? route.category : route.name === 'foryou' ? 'for-you' : route.name === 'story' ? route.category || null : null;
  for (const a of document.querySelectorAll('#sections a')) {
    const v = a.dataset.section;
    a.href = v === 'for-you' ? '/for-you' + (route.region === 'global' ? '' : '?region=' + route.region) : feedPath(route.region, v);
    if (v === active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  $('edition').value = route.region;
  if (route.name === 'search') $('q').value = route.q;
  else if (document.activeElement !== $('q')) $('q').value = '';
}

function announce(route) {
  const detail = {
    region: route.region,
    category: route.name === 'feed' ? route.category : 'top',
    storyId: route.name === 'story' ? route.id : null,
  };
  document.dispatchEvent(new CustomEvent('newsagg:view', { detail }));
}

/** Shows the view of the current URL: the kept one (Back/Forward) at its scroll position, or a fresh one. */
function show(opts) {
  const o = opts || {};
  const state = history.state || {};
  const route = routeOf(location);
  if (current) {
    current.view.node.remove();
    current.scrollY = window.scrollY;
    if (o.drop) current.view.dispose();
    else kept.set(current.key, current);
  }
  let entry = o.fresh ? null : kept.get(state.key);
  kept.delete(state.key);
  if (entry && entry.url !== location.href) {
    entry.view.dispose();
    entry = null;
  }
  const restored = !!entry;
  if (!entry) {
    entry = { key: state.key, url: location.href, route, view: build(route, !!o.revalidate), scrollY: typeof state.scrollY === 'number' ? state.scrollY : 0 };
  }
  while (kept.size > KEEP_VIEWS) {
    const [oldest, e] = kept.entries().next().value;
    e.view.dispose();
    kept.delete(oldest);
  }
  current = entry;
  $('view').replaceChildren(entry.view.node);
  document.title = entry.view.title + ' · newsagg';
  markNav(entry.route);
  announce(entry.route);
  const y = o.top ? 0 : entry.scrollY;
  window.scrollTo(0, y);
  // a fresh view fills asynchronously (a reload): restore the position once its first content is in
  if (!restored && y > 0) Promise.resolve(entry.view.ready).then(() => { if (current === entry) window.scrollTo(0, y); });
}

/** The scroll position goes into the history entry too, so a reload comes back to it. */
function remember() {
  history.replaceState({ ...(history.state || {}), scrollY: window.scrollY }, '');
}
let scrollTimer = 0;
function onScroll() {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(remember, 250);
}

export function navigate(url) {
  clearTimeout(scrollTimer);
  remember();
  history.pushState({ key: newKey(), scrollY: 0 }, '', url);
  show({ top: true });
}

/** Same-origin links to app pages move in-app; new tabs, modified clicks and other pages stay normal. */
function onClick(e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest('a[data-nav]');
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

function init() {
  history.scrollRestoration = 'manual';
  const sections = $('sections');
  sections.append(el('a', { href: '/', 'data-nav': '', 'data-section': 'top', text: 'Top stories' }));
  sections.append(el('a', { href: '/for-you', 'data-nav': '', 'data-section': 'for-you', text: 'For you' }));
  sections.append(el('span', { class: 'nav-sep', 'aria-hidden': 'true' }));
  for (const c of CATEGORIES) sections.append(el('a', { href: feedPath('global', c), 'data-nav': '', 'data-section': c, text: CATEGORY_LABELS[c] }));
  const edition = $('edition');
  for (const r of REGIONS) edition.append(el('option', { value: r, text: REGION_LABELS[r] }));
  edition.addEventListener('change', () => {
    const route = routeOf(location);
    navigate(feedPath(edition.value, route.name === 'feed' ? route.category : 'top'));
  });
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = $('q').value.trim();
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

init();
`;
