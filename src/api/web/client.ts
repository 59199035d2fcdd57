/**
 * The web UI's script (served as `/app.js`, an ES module). Plain DOM, no framework: every piece
 * of publisher text goes through `textContent` or an attribute setter, never `innerHTML`, so a
 * headline like `<script>` is shown as text. Kept as a string so the build ships it without a
 * bundler or copy step; it must contain no backquote or dollar-brace (it lives in a template literal).
 */
export const CLIENT_JS = String.raw`
const CATEGORIES = ['top', 'world', 'politics', 'business', 'technology', 'science', 'health', 'sports', 'entertainment'];
const REGIONS = ['global', 'us', 'uk', 'eu', 'apac', 'latam', 'mea'];
const LABELS = { global: 'World edition', us: 'US', uk: 'UK', eu: 'Europe', apac: 'Asia-Pacific', latam: 'Latin America', mea: 'Middle East & Africa' };

const state = { region: 'global', category: 'top', query: null, cursor: null, loading: false, done: false, gen: 0, revalidate: false };
const $ = (id) => document.getElementById(id);

/** Builds an element; strings become text nodes, never markup. */
function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
function relative(iso) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const s = Math.round((t - Date.now()) / 1000);
  const a = Math.abs(s);
  if (a < 60) return rtf.format(s, 'second');
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}
function timeEl(iso) {
  return el('time', { datetime: iso, title: new Date(iso).toLocaleString(), text: relative(iso) });
}
setInterval(() => {
  for (const t of document.querySelectorAll('time[datetime]')) t.textContent = relative(t.getAttribute('datetime'));
}, 60000);

/** Only our own thumbnails and https images are shown (no mixed content, no odd schemes). */
function thumb(url) {
  if (typeof url !== 'string') return null;
  if (!(url.startsWith('/thumbs/') || url.startsWith('https://'))) return null;
  return el('img', { class: 'thumb', src: url, alt: '', loading: 'lazy', referrerpolicy: 'no-referrer', width: 160, height: 90 });
}

function clickUrl(articleId) {
  return '/r/' + encodeURIComponent(articleId);
}

async function getJson(url, cache) {
  const r = await fetch(url, { headers: { accept: 'application/json' }, cache: cache || 'default' });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error((body && body.error && body.error.message) || ('HTTP ' + r.status));
  return body;
}

function feedCard(it) {
  // the live module (live.js) keeps .coverage-count up to date for cards carrying data-story-id
  const cov = ['Full Coverage (', el('span', { class: 'coverage-count', text: String(it.coverage_count) }), ')'];
  return el('li', { class: 'card', 'data-story': it.story_id, 'data-story-id': it.story_id, 'data-article': it.article_id },
    thumb(it.thumbnail_url),
    el('div', { class: 'body' },
      el('a', { class: 'title', href: clickUrl(it.article_id), target: '_blank', rel: 'noopener', text: it.title }),
      el('div', { class: 'meta' }, el('span', { class: 'publisher', text: it.publisher_name }), ' · ', timeEl(it.published_at),
        it.category ? el('span', { class: 'cat', text: it.category }) : null),
      it.summary ? el('p', { class: 'summary', text: it.summary }) : null,
      el('button', { type: 'button', class: 'coverage', 'data-story': it.story_id, onclick: () => openCoverage(it.story_id) }, ...cov)));
}

function searchCard(a) {
  return el('li', { class: 'card', 'data-article': a.id, 'data-story': a.story_id || '' },
    thumb(a.thumbnail_url),
    el('div', { class: 'body' },
      el('a', { class: 'title', href: clickUrl(a.id), target: '_blank', rel: 'noopener', text: a.title }),
      el('div', { class: 'meta' }, el('span', { class: 'publisher', text: a.publisher_name }), ' · ', timeEl(a.published_at)),
      a.summary ? el('p', { class: 'summary', text: a.summary }) : null,
      a.story_id ? el('button', { type: 'button', class: 'coverage', onclick: () => openCoverage(a.story_id), text: 'Full Coverage' }) : null));
}

function pageUrl() {
  const p = new URLSearchParams();
  if (state.query !== null) {
    p.set('q', state.query);
    if (state.category !== 'top') p.set('category', state.category);
    if (state.region !== 'global') p.set('region', state.region);
  } else {
    p.set('region', state.region);
    p.set('category', state.category);
  }
  if (state.cursor) p.set('cursor', state.cursor);
  return (state.query !== null ? '/v1/search?' : '/v1/feed?') + p.toString();
}

async function loadMore() {
  if (state.loading || state.done) return;
  state.loading = true;
  const gen = state.gen;
  $('status').textContent = 'Loading…';
  try {
    // after "N new stories" the first page is revalidated: the browser may hold it for 10 s
    const page = await getJson(pageUrl(), state.revalidate ? 'no-cache' : 'default');
    state.revalidate = false;
    if (gen !== state.gen) return; // the view changed while loading
    const list = $('feed');
    for (const it of page.items) list.append(state.query !== null ? searchCard(it) : feedCard(it));
    state.cursor = page.next_cursor;
    state.done = !page.next_cursor;
    $('status').textContent = list.children.length === 0 ? 'Nothing here yet.' : state.done ? 'That is all for now.' : '';
  } catch (err) {
    if (gen === state.gen) $('status').textContent = 'Could not load: ' + err.message;
  } finally {
    if (gen === state.gen) state.loading = false;
  }
  if (gen === state.gen && !state.done && nearBottom()) loadMore();
}

function nearBottom() {
  const r = $('more').getBoundingClientRect();
  return r.top < window.innerHeight + 400;
}

function reset() {
  state.gen++;
  state.cursor = null;
  state.done = false;
  state.loading = false;
  $('feed').replaceChildren();
  for (const b of document.querySelectorAll('#topics button')) b.setAttribute('aria-pressed', String(b.dataset.value === state.category));
  for (const b of document.querySelectorAll('#regions button')) b.setAttribute('aria-pressed', String(b.dataset.value === state.region));
  $('heading').textContent = state.query !== null ? 'Results for “' + state.query + '”' : (state.category === 'top' ? 'Top stories' : state.category[0].toUpperCase() + state.category.slice(1));
  // the live module subscribes to this view's topics (a search has no feed topic)
  document.dispatchEvent(new CustomEvent('newsagg:view', { detail: { region: state.region, category: state.query !== null ? null : state.category, storyId: null } }));
  loadMore();
}

async function openCoverage(storyId) {
  const d = $('coverage');
  const list = $('coverage-articles');
  const pubs = $('coverage-publishers');
  list.replaceChildren();
  pubs.replaceChildren();
  $('coverage-title').textContent = 'Loading…';
  if (!d.open) d.showModal();
  try {
    const s = await getJson('/v1/stories/' + encodeURIComponent(storyId));
    $('coverage-title').textContent = s.story.title;
    const plural = (n, w) => n + ' ' + w + (n === 1 ? '' : 's');
    $('coverage-meta').textContent = plural(Math.max(s.story.article_count, s.articles.length), 'article') + ' from ' + plural(s.publishers.length, 'publisher');
    for (const a of s.articles) {
      list.append(el('li', { 'data-article': a.id },
        el('a', { href: clickUrl(a.id), target: '_blank', rel: 'noopener', text: a.title }),
        el('div', { class: 'meta' }, el('span', { class: 'publisher', text: a.publisher_name }), ' · ', timeEl(a.published_at))));
    }
    for (const p of s.publishers) pubs.append(el('li', { text: p.name + ' (' + p.article_count + ')' }));
  } catch (err) {
    $('coverage-title').textContent = 'Could not load: ' + err.message;
  }
}

function tabs(id, values, labels, key) {
  const box = $(id);
  for (const v of values) {
    box.append(el('button', { type: 'button', 'data-value': v, 'aria-pressed': 'false', text: labels ? labels[v] : v, onclick: () => {
      state[key] = v;
      reset();
    } }));
  }
}

function init() {
  tabs('topics', CATEGORIES, null, 'category');
  tabs('regions', REGIONS, LABELS, 'region');
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = $('q').value.trim();
    state.query = q === '' ? null : q;
    reset();
  });
  $('coverage-close').addEventListener('click', () => $('coverage').close());
  new IntersectionObserver((entries) => {
    if (entries.some((x) => x.isIntersecting)) loadMore();
  }, { rootMargin: '400px' }).observe($('more'));
  // the live module's "N new stories" pill asks for the current view again
  document.addEventListener('newsagg:refresh', () => {
    state.revalidate = true;
    reset();
  });
  reset();
}

init();
`;
