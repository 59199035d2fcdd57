/**
 * The page shell's own words (page.ts serves them in English) in the interface's language, and
 * the language picker in the footer (`#lang`): choosing a language saves it and draws the page
 * again in it (i18n.ts); `<html lang>` follows the language.
 */
import { $, el } from './dom.js';
import { STORAGE_KEY, UI_LANGUAGES, UI_LANGUAGE_NAMES, language, pickLanguage, setLanguage, t, type MessageKey, type UiLanguage } from './i18n.js';

function saved(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Chooses the language (saved, else browser, else English) and sets `<html lang>`. */
export function startLanguage(): void {
  const browser = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  setLanguage(pickLanguage(saved(), browser));
  document.documentElement.lang = language();
}

/** Saves a choice and draws the page again in it. */
function chooseLanguage(l: UiLanguage): void {
  try {
    localStorage.setItem(STORAGE_KEY, l);
  } catch {
    /* private mode: the choice lasts this page only */
  }
  location.reload();
}

function text(node: Element | null, key: MessageKey): void {
  if (node) node.textContent = t(key);
}
function attr(node: Element | null, name: string, key: MessageKey): void {
  if (node) node.setAttribute(name, t(key));
}

export function startShell(): void {
  text(document.querySelector('a.skip'), 'shell.skip');
  attr($('q'), 'placeholder', 'shell.searchPlaceholder');
  attr($('q'), 'aria-label', 'shell.searchLabel');
  attr($('edition'), 'aria-label', 'shell.edition');
  attr($('sections'), 'aria-label', 'shell.sections');
  text($('about'), 'shell.about');
  text($('foot-sources'), 'shell.sources');
  text($('shortcuts'), 'shell.shortcuts');
  const pick = $<HTMLSelectElement>('lang');
  if (!pick) return;
  pick.setAttribute('aria-label', t('shell.language'));
  pick.replaceChildren(...UI_LANGUAGES.map((l) => el('option', { value: l, lang: l, text: UI_LANGUAGE_NAMES[l] })));
  pick.value = language();
  pick.addEventListener('change', () => chooseLanguage(pick.value as UiLanguage));
}
