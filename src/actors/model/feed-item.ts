/**
 * The feed item: a story shown through its lead article, as feeds, trending, breaking and the
 * web client read it, and what the cache keeps per story with the keys it keeps it under.
 * Types and constants only (the web client bundles this file).
 */

/**
 * A headline of another publisher shown under a story's lead (its own wording of the story).
 * No URL: `/r/{article_id}` leads to it (and counts the click), and every byte here is repeated
 * three times in every item of a feed page that carries them.
 */
export interface RelatedHeadline {
  article_id: string;
  title: string;
  publisher_name: string;
  /** `/r/{article_id}`: records the click, then redirects to the publisher (absent in entries cached by an older version) */
  click_url?: string;
}

/** One feed entry: a story shown through its lead article (DESIGN §6). */
export interface FeedItem {
  article_id: string;
  story_id: string;
  title: string;
  summary: string | null;
  thumbnail_url: string | null;
  publisher_id: string;
  publisher_name: string;
  published_at: string;
  source_url: string;
  /** `/r/{article_id}`: records the click, then redirects to source_url (every article view carries it) */
  click_url: string;
  category: string | null;
  /** a second category of the story (see storySecondaryCategory); absent in entries cached before it existed */
  secondary_category?: string | null;
  /**
   * The edition the item is listed under (a feed, trending or breaking list of one edition), or
   * the story's home edition where the list spans editions (global); never the lead publisher's
   * country (see listedItem).
   */
  region: string | null;
  coverage_count: number;
  /**
   * Up to RELATED_MAX headlines of other publishers, newest first, filled when the story is
   * written into the feed cache (no work when a page is served); absent when none is known.
   * Feed pages keep them only when asked (`related=true`): they double a page's bytes.
   */
  related?: RelatedHeadline[];
}

/** headlines of other publishers a feed item carries at most */
export const RELATED_MAX = 3;

/** What the cache keeps per story: the public item plus what ranking needs. */
export interface CachedStory {
  item: FeedItem;
  publisher_id: string;
  score: number;
  regions: string[];
  /** editions where it happened: its feeds there rank it `HOME_BONUS` higher (absent in entries cached before) */
  home_regions?: string[];
  /** the lead's language (ISO 639-1): feeds with `lang=` keep the stories in it (absent in entries cached before) */
  language?: string | null;
}

export function feedKey(region: string, category: string): string {
  return `feed:${region}:${category}`;
}

export function storyKey(id: string): string {
  return `story:${id}`;
}
