/**
 * A paged list of cards: the next page loads as the end nears (infinite scroll), and a story
 * already shown is not shown again. Feed, search and For you are built on it.
 */
import { api, problem, type ApiResult } from './api.js';
import { el, onNearEnd, statusNote } from './dom.js';
import type { Page } from './types.js';
import { t } from './i18n.js';

/** A query string of the params that have a value. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') p.set(k, String(v));
  return p.toString();
}

export interface PagedListOptions<T> {
  label?: string;
  url(cursor: string | null): string;
  card(item: T): Node;
  empty(): Node;
  endText?: string;
  /** runs after the first page (body null when it failed) */
  onFirst?(body: Page<T> | null, res: ApiResult<Page<T>>): void;
  revalidate?: boolean;
}

export interface PagedList {
  node: HTMLElement;
  ready: Promise<void>;
  dispose(): void;
}

/** Keys that say two items are the same story (or article). */
const keyOf = (it: unknown): unknown => {
  const o = it as { story_id?: string; article_id?: string; id?: string };
  return o.story_id || o.article_id || o.id;
};

export function pagedList<T>(o: PagedListOptions<T>): PagedList {
  // #feed: the story list of the view on screen (views kept for Back are detached, so the id stays unique)
  const list = el('div', { class: 'story-list', id: 'feed' });
  const sentinel = el('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const status = statusNote();
  const node = el('section', { class: 'stories', 'aria-label': o.label || t('list.stories') }, list, sentinel, status);
  const seen = new Set<unknown>();
  let cursor: string | null = null;
  let done = false;
  let loading = false;
  let first = true;
  let stopped = false;
  let count = 0;
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const nearEnd = () => node.isConnected && sentinel.getBoundingClientRect().top < window.innerHeight + 600;

  async function more(): Promise<void> {
    if (loading || done || stopped) return;
    loading = true;
    status.className = 'status loading';
    status.textContent = count === 0 ? t('list.loading') : t('list.loadingMore');
    // a reload the reader asked for (the new-stories pill) revalidates: feed pages may be cached for seconds
    const res = await api<Page<T>>(o.url(cursor), first && o.revalidate ? { cache: 'no-cache' } : undefined);
    loading = false;
    if (stopped) return;
    if (!res.ok || !res.body || !Array.isArray(res.body.items)) {
      status.className = 'status error';
      status.replaceChildren(t('list.error', { problem: problem(res) }), el('button', { type: 'button', class: 'link-button', onclick: more, text: t('list.retry') }));
      if (first) {
        first = false;
        if (o.onFirst) o.onFirst(null, res);
        markReady();
      }
      return;
    }
    for (const it of res.body.items) {
      const key = keyOf(it);
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
      status.textContent = o.endText || t('list.end');
    } else if (nearEnd()) {
      more();
    }
  }
  const stop = onNearEnd(sentinel, more);
  more();
  return { node, ready, dispose() { stopped = true; stop(); } };
}
