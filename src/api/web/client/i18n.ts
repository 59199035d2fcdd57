/**
 * The interface's language: one message catalogue per language (messages/en.ts, messages/fr.ts),
 * `t(key, params)` with `{name}` placeholders, `tn(key, count)` for counts (the `_one`/`_other`
 * forms, chosen by Intl.PluralRules of the language). The language is the reader's saved choice
 * (localStorage `newsagg.lang`), else the browser's (navigator.language), else English; the
 * footer's picker saves a choice and reloads the page, so every view is drawn again in it
 * (shell.ts, which also sets `<html lang>`). Pure, no DOM: the catalogue test imports it in node.
 */
import { CATEGORY_NAMES, REGION_NAMES } from '../../../actors/model/index.js';
import { en, type MessageKey } from './messages/en.js';
import { FR_CATEGORY_NAMES, FR_REGION_NAMES, fr } from './messages/fr.js';

export type { MessageKey };
export const CATALOGUES: Readonly<Record<string, Readonly<Record<MessageKey, string>>>> = { en, fr };
export const UI_LANGUAGES = ['en', 'fr'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
/** Each language's name in itself (the picker). */
export const UI_LANGUAGE_NAMES: Readonly<Record<UiLanguage, string>> = { en: 'English', fr: 'Français' };
const NAMES: Readonly<Record<UiLanguage, { categories: Readonly<Record<string, string>>; regions: Readonly<Record<string, string>> }>> = {
  en: { categories: CATEGORY_NAMES, regions: REGION_NAMES },
  fr: { categories: FR_CATEGORY_NAMES, regions: FR_REGION_NAMES },
};
export const STORAGE_KEY = 'newsagg.lang';

let lang: UiLanguage = 'en';

/** The language a saved choice or the browser's languages name, else English. */
export function pickLanguage(saved: string | null | undefined, browser: readonly string[]): UiLanguage {
  for (const c of [saved, ...browser]) {
    const base = String(c || '').toLowerCase().split('-')[0];
    if ((UI_LANGUAGES as readonly string[]).includes(base!)) return base as UiLanguage;
  }
  return 'en';
}

export function setLanguage(l: UiLanguage): void {
  lang = l;
}
export function language(): UiLanguage {
  return lang;
}

/** `{name}` placeholders replaced by params (an unknown one is left as it is). */
export function format(text: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(params, k) ? String(params[k]) : m));
}

/** A message in the current language (English when the key is missing there). */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return format(CATALOGUES[lang]?.[key] ?? en[key] ?? key, params);
}

type PluralBase<K> = K extends `${infer B}_one` ? B : never;
export type PluralKey = PluralBase<MessageKey>;

/** A count's message (`{count}` filled), in the plural form the language uses for it. */
export function tn(key: PluralKey, count: number, params?: Readonly<Record<string, string | number>>): string {
  const form = new Intl.PluralRules(lang).select(count) === 'one' ? '_one' : '_other';
  return t((key + form) as MessageKey, { count, ...params });
}

/** A section's name in the current language. */
export function sectionName(c: string): string | undefined {
  return Object.hasOwn(NAMES[lang].categories, c) ? NAMES[lang].categories[c] : undefined;
}
/** An edition's name in the current language. */
export function editionName(r: string): string | undefined {
  return Object.hasOwn(NAMES[lang].regions, r) ? NAMES[lang].regions[r] : undefined;
}
