/**
 * The one taxonomy of the news: the sections a story is filed under and the regional editions,
 * with the names readers see. Everything else derives its lists from here: the store and the
 * API's parameters, the OpenAPI document and the web client (bundled from this very file, so a
 * section added here appears in the browser without a second list). Imports nothing: the
 * browser bundle takes it as it is.
 */

/** Sections, in the order readers see them; a story has at most one (plus a secondary). */
export const CATEGORIES = ['world', 'politics', 'business', 'technology', 'science', 'health', 'sports', 'entertainment'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Regional editions; `global` (the World edition) spans them all and is not a region of its own. */
export const REGIONS = ['us', 'uk', 'eu', 'apac', 'latam', 'mea'] as const;
export type Region = (typeof REGIONS)[number];

/** An article's or publisher's edition: one region, or `global` for those of no one region. */
export const EDITIONS = [...REGIONS, 'global'] as const;
export type Edition = (typeof EDITIONS)[number];

/** What a feed is asked for: `top` is every section at once. */
export const FEED_CATEGORIES = ['top', ...CATEGORIES] as const;
export type FeedCategory = (typeof FEED_CATEGORIES)[number];

/** Editions a feed is asked for: `global` first, then each region. */
export const FEED_REGIONS = ['global', ...REGIONS] as const;
export type FeedRegion = (typeof FEED_REGIONS)[number];

/** Section names as readers see them (navigation, topic links, headings). */
export const CATEGORY_NAMES: Readonly<Record<FeedCategory, string>> = {
  top: 'Top stories',
  world: 'World',
  politics: 'Politics',
  business: 'Business',
  technology: 'Technology',
  science: 'Science',
  health: 'Health',
  sports: 'Sports',
  entertainment: 'Entertainment',
};

/** Edition names as readers see them (the edition menu, coverage by region). */
export const REGION_NAMES: Readonly<Record<FeedRegion, string>> = {
  global: 'World edition',
  us: 'United States',
  uk: 'United Kingdom',
  eu: 'Europe',
  apac: 'Asia-Pacific',
  latam: 'Latin America',
  mea: 'Middle East & Africa',
};

/**
 * Languages a reader can ask for, in the order they are offered: those with their own
 * PostgreSQL text-search configuration first. Detection (enrich/language.ts) may store others;
 * these are the editions a client is offered.
 */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Language names in English and in the language itself (a language menu shows the second). */
export const LANGUAGE_NAMES: Readonly<Record<Language, { name: string; native: string }>> = {
  en: { name: 'English', native: 'English' },
  fr: { name: 'French', native: 'Français' },
  de: { name: 'German', native: 'Deutsch' },
  es: { name: 'Spanish', native: 'Español' },
  it: { name: 'Italian', native: 'Italiano' },
  pt: { name: 'Portuguese', native: 'Português' },
  nl: { name: 'Dutch', native: 'Nederlands' },
};
