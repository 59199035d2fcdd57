/**
 * What a reader follows and hides (`GET`/`PUT /v1/me`), and how a story's coverage unrolls in
 * time (Full Coverage's timeline): shapes the API answers with and the web client reads.
 * Types and constants only (the web client bundles this file).
 */

export const INTEREST_KINDS = ['categories', 'entities', 'publishers', 'places'] as const;
export type InterestKind = (typeof INTEREST_KINDS)[number];

/** One list per kind: categories from the taxonomy, publisher ids, entity and place names. */
export type InterestLists = Record<InterestKind, string[]>;

export interface Interests {
  follow: InterestLists;
  hide: InterestLists;
}

/** One step of a story's timeline. */
export interface TimelineEntry {
  /** when the entry's article was published */
  at: string;
  article_id: string;
  /** articles published in the stretch of time this entry stands for */
  article_count: number;
}
