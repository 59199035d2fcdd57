/**
 * What every part of the web client shares. Elements are built with `el`, which puts strings in
 * as text nodes or attribute values, never as markup, so publisher text (a headline like
 * `<script>`) is always shown as text. Also: relative times, thumbnails and the app's paths.
 */
import { language, t as tr } from './i18n.js';

/** An attribute value, a listener (`on…` props) or nothing (null, undefined and false leave it out). */
export type PropValue = string | number | boolean | null | undefined | ((e: Event) => unknown);
export type Props = Record<string, PropValue>;
/** A child: a node, text (strings and numbers become text nodes), nothing, or a list of these. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

function append(e: Element, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : (c as Node));
  }
}

/** Builds an element; strings become text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else if (k === 'text') e.textContent = String(v);
    else if (typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

export const plural = (n: number, one: string, many?: string): string => n + ' ' + (n === 1 ? one : (many || one + 's'));

export function relative(iso: string | null | undefined): string {
  const t = Date.parse(iso ?? '');
  if (!Number.isFinite(t)) return '';
  const s = Math.round((t - Date.now()) / 1000);
  const a = Math.abs(s);
  if (a < 45) return tr('time.justNow');
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: 'auto' });
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  if (a < 7 * 86400) return rtf.format(Math.round(s / 86400), 'day');
  return new Date(t).toLocaleDateString(language(), { day: 'numeric', month: 'short', year: 'numeric' });
}

export function timeEl(iso: string | null | undefined): HTMLTimeElement | null {
  if (!iso) return null;
  const d = new Date(iso);
  return el('time', { datetime: iso, title: Number.isNaN(d.getTime()) ? null : d.toLocaleString(), text: relative(iso) });
}

/** Keeps every relative time on the page current (once a minute). */
export function startClock(): void {
  setInterval(() => {
    for (const t of document.querySelectorAll('time[datetime]')) t.textContent = relative(t.getAttribute('datetime'));
  }, 60000);
}

/** Only our own thumbnails and https images are shown (no mixed content, no odd schemes). */
export function safeImage(url: unknown): string | null {
  return typeof url === 'string' && (url.startsWith('/thumbs/') || url.startsWith('https://')) ? url : null;
}

export function thumb(url: string | null | undefined, cls?: string, eager?: boolean): HTMLImageElement | null {
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
export function articleLink(id: string, text: string, cls?: string): HTMLAnchorElement {
  return el('a', { class: cls || 'title', href: '/r/' + encodeURIComponent(id), target: '_blank', rel: 'noopener', text });
}

/** A story page; the reader's edition goes along, so the nav keeps it. */
export const storyPath = (id: string, region?: string): string => '/story/' + encodeURIComponent(id) + (region && region !== 'global' ? '?region=' + region : '');

export function feedPath(region: string | null | undefined, category: string | null | undefined): string {
  const p = new URLSearchParams();
  if (region && region !== 'global') p.set('region', region);
  if (category && category !== 'top') p.set('category', category);
  const q = p.toString();
  return q ? '/?' + q : '/';
}

/** A status line inside a view: loading, empty, errors. */
export function statusNote(cls?: string): HTMLParagraphElement {
  return el('p', { class: 'status ' + (cls || ''), role: 'status' });
}

/** Calls load() whenever the sentinel comes near the viewport (infinite scroll). */
export function onNearEnd(sentinel: Element, load: () => unknown): () => void {
  const io = new IntersectionObserver((entries) => {
    if (entries.some((x) => x.isIntersecting)) load();
  }, { rootMargin: '600px 0px' });
  io.observe(sentinel);
  return () => io.disconnect();
}
