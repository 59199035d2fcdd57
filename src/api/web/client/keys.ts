/**
 * Keyboard shortcuts: `j`/`k` move the focus to the next/previous story card (the card itself
 * takes the focus, outlined), `o` opens the focused story's Full Coverage page, `/` focuses the
 * search box, `?` shows the list of shortcuts (a dialog; Escape or its Close button closes it).
 * `s` (saved.ts) saves the focused story. Keys typed into a field, or with Ctrl, Alt or Meta,
 * are left alone. Text through `el` only, never markup.
 */
import { $, el, storyPath } from './dom.js';
import { navigate, routeOf } from './router.js';
import { t } from './i18n.js';

/** The keys and what they do, in the interface's language. */
export const shortcuts = (): readonly (readonly [string, string])[] => [
  ['j', t('keys.next')],
  ['k', t('keys.prev')],
  ['o', t('keys.open')],
  ['s', t('keys.save')],
  ['/', t('keys.search')],
  ['?', t('keys.help')],
  ['Esc', t('keys.closeList')],
];

const CARDS = '#view article.story';

function typing(t: EventTarget | null): boolean {
  const e = t as HTMLElement | null;
  return !!e && (e.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(e.tagName));
}

/** The card holding the focus, if any. */
function focusedCard(): HTMLElement | null {
  const a = document.activeElement as HTMLElement | null;
  return a && a !== document.body ? a.closest<HTMLElement>(CARDS) : null;
}

/** Moves the focus `step` cards on (from the focused card, else from the top). */
function move(step: 1 | -1): boolean {
  const cards = [...document.querySelectorAll<HTMLElement>(CARDS)];
  if (!cards.length) return false;
  const at = focusedCard();
  const i = at ? cards.indexOf(at) : -1;
  const next = cards[i < 0 ? (step === 1 ? 0 : cards.length - 1) : Math.min(cards.length - 1, Math.max(0, i + step))]!;
  if (!next.hasAttribute('tabindex')) next.setAttribute('tabindex', '-1');
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: 'nearest' });
  return true;
}

function open(): boolean {
  const card = focusedCard();
  if (!card) return false;
  const id = card.dataset.storyId;
  if (id) navigate(storyPath(id, routeOf(location).region));
  else card.querySelector<HTMLAnchorElement>('.headline a')?.click();
  return true;
}

let dialog: HTMLElement | null = null;
let returnTo: HTMLElement | null = null;

function closeHelp(): void {
  if (!dialog || dialog.hidden) return;
  dialog.hidden = true;
  returnTo?.focus();
}

function openHelp(): void {
  if (!dialog) {
    const close = el('button', { type: 'button', class: 'help-close', onclick: closeHelp, text: t('keys.close') });
    dialog = el('div', { id: 'help', class: 'help-overlay', hidden: true, onclick: (e: Event) => { if (e.target === dialog) closeHelp(); } },
      el('div', { class: 'help-box', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title' },
        el('h2', { id: 'help-title', text: t('keys.title') }),
        el('dl', { class: 'help-keys' }, shortcuts().map(([k, what]) => [el('dt', {}, el('kbd', { text: k })), el('dd', { text: what })])),
        close));
    // the focus stays in the dialog while it is open
    dialog.addEventListener('keydown', (e) => { if (e.key === 'Tab') { e.preventDefault(); close.focus(); } });
    document.body.append(dialog);
  }
  returnTo = document.activeElement as HTMLElement | null;
  dialog.hidden = false;
  dialog.querySelector<HTMLButtonElement>('.help-close')!.focus();
}

export function startShortcuts(): void {
  $('shortcuts')?.addEventListener('click', openHelp);
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Escape') {
      if (dialog && !dialog.hidden) {
        e.preventDefault();
        closeHelp();
      }
      return;
    }
    if (typing(e.target) || (dialog && !dialog.hidden)) return;
    let done = false;
    if (e.key === 'j') done = move(1);
    else if (e.key === 'k') done = move(-1);
    else if (e.key === 'o') done = open();
    else if (e.key === '/') {
      $<HTMLInputElement>('q').focus();
      done = true;
    } else if (e.key === '?') {
      openHelp();
      done = true;
    }
    if (done) e.preventDefault();
  });
}
