/**
 * `/ui/dom.js`: what every part of the web client shares. Elements are built with `el`, which
 * puts strings in as text nodes or attribute values, never as markup, so publisher text (a
 * headline like `<script>`) is always shown as text. Also: taxonomy labels, relative times,
 * thumbnails, and `api()`, which answers `{ok, status, body}` so a view can tell an endpoint this
 * node does not offer (404) from a failure. Kept as a string so the build ships it without a
 * bundler; it must contain no backquote or dollar-brace (it lives in a template literal).
 */
export const DOM_JS = String.raw`
export const CATEGORIES = ['world', 'politics', 'business', 'technology', 'science', 'health', 'sports', 'entertainment'];
export const REGIONS = ['global', 'us', 'uk', 'eu', 'apac', 'latam', 'mea'];
export const CATEGORY_LABELS = { top: 'Top stories', world: 'World', politics: 'Politics', business: 'Business', technology: 'Technology', science: 'Science', health: 'Health', sports: 'Sports', entertainment: 'Entertainment' };
export const REGION_LABELS = { global: 'World edition', us: 'United States', uk: 'United Kingdom', eu: 'Europe', apac: 'Asia-Pacific', latam: 'Latin America', mea: 'Middle East & Africa' };

export const $ = (id) => document.getElementById(id);

/** Builds an element; strings become text nodes, never markup. */
export function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  return e;
}

export const plural = (n, one, many) => n + ' ' + (n === 1 ? one : (many || one + 's'));

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
export function relative(iso) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const s = Math.round((t - Date.now()) / 1000);
  const a = Math.abs(s);
  if (a < 45) return 'just now';
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  if (a < 7 * 86400) return rtf.format(Math.round(s / 86400), 'day');
  return new Date(t).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}
export function timeEl(iso) {
  if (!iso) return null;
  const d = new Date(iso);
  return el('time', { datetime: iso, title: Number.isNaN(d.getTime()) ? null : d.toLocaleString(), text: relative(iso) });
}
setInterval(() => {
  for (const t of document.querySelectorAll('time[datetime]')) t.textContent = relative(t.getAttribute('datetime'));
}, 60000);

/** Only our own thumbnails and https images are shown (no mixed content, no odd schemes). */
export function safeImage(url) {
  return typeof url === 'string' && (url.startsWith('/thumbs/') || url.startsWith('https://')) ? url : null;
}
export function thumb(url, cls, eager) {
  const src = safeImage(url);
  if (!src) return null;
  const img = el('img', { class: cls || 'thumb', src, alt: '', loading: eager ? 'eager' : 'lazy', decoding: 'async', referrerpolicy: 'no-referrer' });
  img.addEventListener('error', () => {
    const box = img.closest('.has-thumb');
    if (box) box.classList.remove('has-thumb');
    img.remove();
  });
  return img;
}

/** The tracked link to an article: records the click, then the publisher's page. */
export function articleLink(id, text, cls) {
  return el('a', { class: cls || 'title', href: '/r/' + encodeURIComponent(id), target: '_blank', rel: 'noopener', text });
}
/** A story page; the reader's edition goes along, so the nav keeps it. */
export const storyPath = (id, region) => '/story/' + encodeURIComponent(id) + (region && region !== 'global' ? '?region=' + region : '');
export function feedPath(region, category) {
  const p = new URLSearchParams();
  if (region && region !== 'global') p.set('region', region);
  if (category && category !== 'top') p.set('category', category);
  const q = p.toString();
  return q ? '/?' + q : '/';
}

/**
 * A JSON request: {ok, status, body}. status 0 = the network failed. Never throws, so every
 * caller decides what a 404 (an endpoint this node does not offer) means for its view.
 */
export async function api(url, opts) {
  const o = opts || {};
  const headers = { accept: 'application/json' };
  if (o.token) headers.authorization = 'Bearer ' + o.token;
  let body;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.text !== undefined) {
    headers['content-type'] = o.type || 'text/plain';
    body = o.text;
  }
  try {
    const r = await fetch(url, { method: o.method || 'GET', headers, body, credentials: 'same-origin', cache: o.cache || 'default' });
    const data = r.status === 204 ? null : await r.json().catch(() => null);
    return { ok: r.ok, status: r.status, body: data };
  } catch (err) {
    return { ok: false, status: 0, body: null };
  }
}

/** A person-readable reason for a failed api() call. */
export function problem(res) {
  if (res.status === 0) return 'the server could not be reached';
  const m = res.body && res.body.error && res.body.error.message;
  return m ? m : 'the server answered ' + res.status;
}

/** A status line inside a view: loading, empty, errors. */
export function statusLine(cls) {
  return el('p', { class: 'status ' + (cls || ''), role: 'status' });
}

/** Calls load() whenever the sentinel comes near the viewport (infinite scroll). */
export function onNearEnd(sentinel, load) {
  const io = new IntersectionObserver((entries) => {
    if (entries.some((x) => x.isIntersecting)) load();
  }, { rootMargin: '600px 0px' });
  io.observe(sentinel);
  return () => io.disconnect();
}
`;
