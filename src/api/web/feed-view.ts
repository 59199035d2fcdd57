/**
 * `/ui/feed.js`: the paged story list (infinite scroll, each story once), the front page of an
 * edition and topic with its Trending panel, search results, and the empty state that tells an
 * operator how to add sources. Text through `el` only, never markup.
 */
export const FEED_JS = String.raw`
import { CATEGORY_LABELS, REGION_LABELS, api, el, feedPath, problem, statusLine, storyPath, onNearEnd } from './dom.js?v=__V__';
import { resultCard, storyCard } from './cards.js?v=__V__';

/**
 * The shipped catalogue of real publishers: GET says what it offers per edition and whether this
 * node may import now (can_import: no publishers yet, or an admin token configured); POST
 * {region} adds an edition's publishers. A node without it answers 404 and nothing is shown.
 */
export const CATALOGUE_URL = '/v1/catalogue';
const TOKEN_KEY = 'newsagg_admin_token';

/** Buttons that add an edition's publishers from the catalogue, with what came of it. */
export function cataloguePicker(info, onAdded) {
  const editions = ((info.catalogue && info.catalogue.editions) || []).filter((e) => e.publishers > 0);
  const say = el('p', { class: 'notice', role: 'status' });
  const add = async (region, button) => {
    button.disabled = true;
    say.className = 'notice';
    say.textContent = 'Adding publishers…';
    const r = await api(CATALOGUE_URL, { method: 'POST', json: { region }, token: sessionStorage.getItem(TOKEN_KEY) || undefined });
    button.disabled = false;
    if (!r.ok) {
      say.className = 'notice warn';
      say.textContent = r.status === 401 ? 'This node has an admin token: enter it on the admin page first.' : 'Not added: ' + problem(r) + '.';
      return;
    }
    say.textContent = 'Added ' + r.body.added + ' of ' + r.body.offered + ' publishers. Their first stories appear within a few minutes.';
    if (onAdded) onAdded(r.body);
  };
  const label = (region) => (region === 'global' ? 'International' : REGION_LABELS[region] || region);
  // a button says what it adds: the edition's own publishers and the international ones
  const count = (n) => n + (n === 1 ? ' publisher' : ' publishers');
  const buttons = editions.map((e) => {
    const adds = typeof e.adds === 'number' ? e.adds : e.publishers;
    const b = el('button', { type: 'button', class: 'toggle', 'data-region': e.region, 'data-adds': String(adds), text: label(e.region) + ' · ' + count(adds) });
    b.addEventListener('click', () => add(e.region, b));
    return b;
  });
  const total = info.catalogue.total || 0;
  const all = el('button', { type: 'button', class: 'toggle', 'data-region': 'all', 'data-adds': String(total), text: 'All · ' + count(total) });
  all.addEventListener('click', () => add('all', all));
  return el('div', { class: 'catalogue' },
    el('p', { class: 'panel-note', text: 'Each edition adds its own publishers and the international ones; the number is what the button adds.' }),
    el('div', { class: 'catalogue-buttons' }, buttons, all), say);
}

/**
 * How this node's sources fare (GET /v1/catalogue's sources), in a sentence or two, or null
 * when there is nothing to say (no sources yet). Says plainly when every source fails, and why:
 * a first run on real news on a machine without network access must not look like "no news yet".
 */
export function sourcesStatus(s) {
  if (!s || !s.total) return null;
  const n = (k, one, many) => k + ' ' + (k === 1 ? one : many);
  const reasons = (s.reasons || []).slice(0, 3).map((r) => el('li', {}, el('strong', { text: n(r.publishers, 'source', 'sources') + ': ' }), r.message));
  if (s.failing > 0 && s.ok === 0) {
    return el('div', { class: 'sources-status bad', role: 'status', 'data-state': s.offline ? 'offline' : 'failing' },
      el('h3', { text: s.offline ? 'This node cannot reach the internet' : 'Every source polled so far failed' }),
      el('p', { text: n(s.total, 'source is', 'sources are') + ' set up, ' + n(s.failing, 'has', 'have') + ' been tried and none answered' +
        (s.polled < s.total ? ' (' + (s.total - s.polled) + ' not tried yet)' : '') + '. Why:' }),
      el('ul', {}, reasons),
      s.offline ? el('p', {}, 'Real news needs internet access. To look around without it, start the node with ', el('code', { text: '--demo' }), ' (simulated publishers).') : null);
  }
  if (s.failing > 0) {
    return el('div', { class: 'sources-status warn', role: 'status', 'data-state': 'some-failing' },
      el('p', { text: n(s.total, 'source', 'sources') + ': ' + s.ok + ' answering, ' + s.failing + ' failing. Why they fail:' }), el('ul', {}, reasons));
  }
  if (s.polled === 0) {
    return el('p', { class: 'sources-status', role: 'status', 'data-state': 'waiting', text: n(s.total, 'source is', 'sources are') + ' set up and not polled yet: the first polls come within a minute.' });
  }
  return el('p', { class: 'sources-status ok', role: 'status', 'data-state': 'ok', text: n(s.total, 'source', 'sources') + ', ' + s.ok + ' answering. New stories appear a few minutes after their first articles arrive.' });
}

export function query(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') p.set(k, v);
  return p.toString();
}

/**
 * Pages of url(cursor) as cards, loading the next page as the end nears; a story already shown
 * is not shown again. onFirst(body, res) runs after the first page (body null when it failed).
 */
export function pagedList(o) {
  // #feed: the story list of the view on screen (views kept for Back are detached, so the id stays unique)
  const list = el('div', { class: 'story-list', id: 'feed' });
  const sentinel = el('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const status = statusLine();
  const node = el('section', { class: 'stories', 'aria-label': o.label || 'Stories' }, list, sentinel, status);
  const seen = new Set();
  let cursor = null;
  let done = false;
  let loading = false;
  let first = true;
  let stopped = false;
  let count = 0;
  let markReady;
  const ready = new Promise((r) => (markReady = r));
  const nearEnd = () => node.isConnected && sentinel.getBoundingClientRect().top < window.innerHeight + 600;

  async function more() {
    if (loading || done || stopped) return;
    loading = true;
    status.className = 'status loading';
    status.textContent = count === 0 ? 'Loading stories…' : 'Loading more…';
    // a reload the reader asked for (the new-stories pill) revalidates: feed pages may be cached for seconds
    const res = await api(o.url(cursor), first && o.revalidate ? { cache: 'no-cache' } : undefined);
    loading = false;
    if (stopped) return;
    if (!res.ok || !res.body || !Array.isArray(res.body.items)) {
      status.className = 'status error';
      status.replaceChildren('Could not load: ' + problem(res) + '. ', el('button', { type: 'button', class: 'link-button', onclick: more, text: 'Try again' }));
      if (first) {
        first = false;
        if (o.onFirst) o.onFirst(null, res);
        markReady();
      }
      return;
    }
    for (const it of res.body.items) {
      const key = it.story_id || it.article_id || it.id;
      if (seen.has(key)) continue;
      seen.add(key);
      list.append(o.card(it));
      count++;
    }
    cursor = res.body.next_cursor;
    done = !cursor;
    status.className = 'status';
    status.textContent = '';
    if (first) {
      first = false;
      if (o.onFirst) o.onFirst(res.body, res);
      markReady();
    }
    if (count === 0 && done) {
      status.className = 'status';
      status.replaceChildren(o.empty());
    } else if (done) {
      status.textContent = o.endText || 'You are all caught up.';
    } else if (nearEnd()) {
      more();
    }
  }
  const stop = onNearEnd(sentinel, more);
  more();
  return { node, ready, dispose() { stopped = true; stop(); } };
}

/** The empty front page: how an operator adds sources. */
export function sourcesHelp() {
  const steps = el('ul', { class: 'steps' },
    el('li', {}, 'Open the ', el('a', { href: '/admin', 'data-nav': '', text: 'admin page' }), ' with the admin token (the node must be started with ',
      el('code', { text: '--admin-token' }), ') to add a feed or site URL, or to import an OPML file.'),
    el('li', {}, 'Or start the node with ', el('code', { text: '--opml feeds.opml' }), ', or stop it and run ', el('code', { text: 'npx newsagg import-opml feeds.opml' }),
      ' in its folder (', el('code', { text: 'npx newsagg import-opml --help' }), ' says more).'),
    el('li', {}, 'To look around without sources, start it with ', el('code', { text: '--demo' }), ' (simulated publishers).'));
  const intro = el('p', { text: 'This node has no sources yet, or has not heard from them. Stories appear here a few minutes after sources are added. To add sources:' });
  const box = el('div', { class: 'empty sources-help' },
    el('h2', { text: 'No stories yet' }),
    intro,
    steps);
  api(CATALOGUE_URL).then((r) => {
    if (!r.ok || !r.body) return;
    const status = sourcesStatus(r.body.sources);
    if (status) {
      box.insertBefore(status, intro);
      intro.textContent = 'To add more sources:';
    }
    if (!r.body.catalogue) return;
    steps.append(el('li', {}, 'Or start it with ', el('code', { text: '--catalogue us' }), ' (or another edition, or ', el('code', { text: 'all' }),
      ') to add real publishers from the catalogue shipped with newsagg.'));
    if (r.body.can_import) box.append(el('h3', { text: 'Or add real publishers now (the node needs internet access):' }), cataloguePicker(r.body));
  });
  return box;
}

function emptyFeed(region, category) {
  if (region === 'global' && category === 'top') return sourcesHelp();
  const what = category === 'top' ? 'stories' : CATEGORY_LABELS[category] + ' stories';
  return el('div', { class: 'empty' },
    el('h2', { text: 'Nothing here yet' }),
    el('p', {}, 'No ' + what + ' in the ' + REGION_LABELS[region] + ' yet. ', el('a', { href: feedPath('global', category), 'data-nav': '', text: 'See the World edition' }), '.'));
}

/** Trending (when this node offers it), else the most covered stories of the first page. */
function sidePanel(side, region, firstPage) {
  const fill = (title, items, note) => {
    if (!items.length) return;
    side.replaceChildren(el('section', { class: 'panel trending', 'aria-label': title },
      el('h2', { text: title }),
      note ? el('p', { class: 'panel-note', text: note }) : null,
      el('ol', { class: 'rank-list' }, items.map((it) =>
        el('li', { 'data-story-id': it.story_id },
          el('a', { class: 'rank-title', href: storyPath(it.story_id, region), 'data-nav': '', text: it.title }),
          el('span', { class: 'rank-meta' }, it.publisher_name + ' · ', el('span', { class: 'coverage-count', text: String(it.coverage_count) }), ' articles'))))));
  };
  api('/v1/trending?' + query({ region: region === 'global' ? null : region, limit: 6 })).then((r) => {
    if (r.ok && r.body && Array.isArray(r.body.items) && r.body.items.length) return fill('Trending', r.body.items.slice(0, 6));
    const items = firstPage && Array.isArray(firstPage.items) ? [...firstPage.items].sort((a, b) => b.coverage_count - a.coverage_count).slice(0, 5) : [];
    fill('Most covered', items, 'Stories told by the most outlets right now');
  });
}

export function feedView(route, ctx) {
  const { region, category } = route;
  const side = el('aside', { class: 'side' });
  const list = pagedList({
    url: (cursor) => '/v1/feed?' + query({ region, category, cursor, related: 'true' }),
    card: (it) => storyCard(it, { region }),
    empty: () => emptyFeed(region, category),
    onFirst: (page) => sidePanel(side, region, page),
    revalidate: !!(ctx && ctx.revalidate),
  });
  const title = category === 'top' ? 'Top stories' : CATEGORY_LABELS[category];
  const node = el('div', { class: 'view feed-view' },
    el('div', { class: 'view-head' }, el('h1', { text: title }),
      el('p', { class: 'sub', text: REGION_LABELS[region] + ' · ' + new Date().toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' }) })),
    el('div', { class: 'columns' }, list.node, side));
  return { node, ready: list.ready, dispose: list.dispose, title: title + (region === 'global' ? '' : ' · ' + REGION_LABELS[region]) };
}

export function searchView(route) {
  const q = route.q;
  if (!q) {
    const node = el('div', { class: 'view search-view' }, el('div', { class: 'view-head' }, el('h1', { text: 'Search' }), el('p', { class: 'sub', text: 'Type words in the search box above.' })));
    return { node, ready: Promise.resolve(), dispose() {}, title: 'Search' };
  }
  const h1 = el('h1', { text: 'Results for “' + q + '”' });
  const sub = el('p', { class: 'sub', text: 'Each story once, shown through its best-matching article' });
  const list = pagedList({
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

`;
