/**
 * The live module's few words (live.ts, a bundle of its own that must stay small, so it does not
 * carry the whole catalogue): the same languages as en.ts and fr.ts. `_one`/`_other` are the
 * plural forms of a count, `{count}` its place.
 */
export const LIVE_MESSAGES = {
  en: { breaking: 'Breaking', articles_one: ' article', articles_other: ' articles', newStories_one: '{count} new story', newStories_other: '{count} new stories' },
  fr: { breaking: 'Dernière minute', articles_one: ' article', articles_other: ' articles', newStories_one: '{count} nouveau sujet', newStories_other: '{count} nouveaux sujets' },
} as const;
export type LiveKey = keyof (typeof LIVE_MESSAGES)['en'];
type LivePlural = LiveKey extends infer K ? (K extends `${infer B}_one` ? B : never) : never;

/** `pageLang`: `<html lang>`, as app.js set it (the live module runs first, so it asks each time). */
const pick = (pageLang: string): keyof typeof LIVE_MESSAGES => (pageLang === 'fr' ? 'fr' : 'en');
export function liveText(key: LiveKey, pageLang: string): string {
  return LIVE_MESSAGES[pick(pageLang)][key];
}
export function liveCount(key: LivePlural, count: number, pageLang: string): string {
  const l = pick(pageLang);
  const form = new Intl.PluralRules(l).select(count) === 'one' ? '_one' : '_other';
  return LIVE_MESSAGES[l][(key + form) as LiveKey].replace('{count}', String(count));
}
