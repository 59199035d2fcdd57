/**
 * The size caps of a raw article, in one place: what a publisher puts into the ingest log and
 * what the CPU stage takes in. A leaf: it imports nothing.
 */

/** Longest URL taken in, in characters; a longer one is refused (`invalid_url`). */
export const MAX_URL = 4096;
/** Longest stored headline, in characters. */
export const MAX_TITLE = 500;
/** Raw headline characters carried and read: markup and runs of spaces go before the cut to MAX_TITLE. */
export const MAX_RAW_TITLE = MAX_TITLE * 4;
/** Transient body text kept per article (fingerprints and enrichment read its lead; never stored). */
export const MAX_TEXT = 100_000;
/** Longest category tag, language or country label, in characters. */
export const MAX_LABEL = 200;
/** Category tags carried per article (the topic reads the first 8 that name a category). */
export const MAX_TAGS = 16;
