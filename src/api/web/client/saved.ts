/**
 * Saved stories and read state in the browser. The server keeps both by reader (the cookie), so
 * they follow the reader to every node: `PUT`/`DELETE /v1/me/saved/:id` save and unsave,
 * `PUT /v1/me/read/:id` marks a story read (Full Coverage opened; the server marks a followed
 * `/r/` link itself). Every save button on the page (`button.save-story[data-save-id]`) shows
 * the same state; the `s` shortcut saves the story in focus, or the one a story page shows.
 * Text through `el` only, never markup.
 */
import { api, problem } from './api.js';
import { el } from './dom.js';
import type { FeedItem } from './types.js';
import { t } from './i18n.js';

let saved: Set<string> | null = null;
let loading: Promise<Set<string>> | null = null;

/** The saved story ids, loaded once per page (an empty set when this node keeps no readers). */
export function savedIds(): Promise<Set<string>> {
  if (saved) return Promise.resolve(saved);
  loading ??= api<{ items: FeedItem[] }>('/v1/me/saved').then((r) => {
    saved = new Set(r.ok && r.body && Array.isArray(r.body.items) ? r.body.items.map((i) => i.story_id) : []);
    paint();
    return saved;
  });
  return loading;
}

/** Buttons show the saved state (aria-pressed, label). */
function paint(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('button.save-story')) {
    const on = !!saved && saved.has(b.dataset.saveId || '');
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? t('save.saved') : t('save.save');
    b.title = on ? t('save.remove') : t('save.later');
  }
}

/** Saves or unsaves a story; says what happened in `#save-status` (polite live region). */
export async function toggleSave(storyId: string): Promise<boolean> {
  const ids = await savedIds();
  const on = !ids.has(storyId);
  const r = await api('/v1/me/saved/' + encodeURIComponent(storyId), { method: on ? 'PUT' : 'DELETE' });
  if (!r.ok) {
    say(t('save.notSaved', { problem: problem(r) }));
    return ids.has(storyId);
  }
  if (on) ids.add(storyId);
  else ids.delete(storyId);
  paint();
  say(on ? t('save.done') : t('save.removed'));
  document.dispatchEvent(new CustomEvent('newsagg:saved', { detail: { storyId, saved: on } }));
  return on;
}

function say(text: string): void {
  let s = document.getElementById('save-status');
  if (!s) {
    s = el('div', { id: 'save-status', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(s);
  }
  s.textContent = text;
}

/** A save button for a story (cards, Full Coverage): its state follows every other button for the story. */
export function saveButton(storyId: string): HTMLButtonElement {
  const on = !!saved && saved.has(storyId);
  const b = el('button', { type: 'button', class: 'save-story', 'data-save-id': storyId, 'aria-pressed': String(on), title: on ? t('save.remove') : t('save.later'),
    onclick: () => toggleSave(storyId), text: on ? t('save.saved') : t('save.save') });
  if (!saved) void savedIds();
  return b;
}

/** Marks a story read (Full Coverage opened); failures are not the reader's concern. */
export function markStoryRead(storyId: string): void {
  void api('/v1/me/read/' + encodeURIComponent(storyId), { method: 'PUT' });
}

/** `s` saves the story whose card holds the focus, else the story a Full Coverage page shows. */
export function startSaveShortcut(): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 's' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const active = document.activeElement as HTMLElement | null;
    const card = active && active !== document.body ? active.closest<HTMLElement>('[data-story-id]') : null;
    const page = document.querySelector<HTMLElement>('.story-view[data-story-id]');
    const id = (card && card.dataset.storyId) || (page && page.dataset.storyId);
    if (!id) return;
    e.preventDefault();
    void toggleSave(id);
  });
}
