/**
 * The shapes of the API's answers as the web client reads them (the fields it uses; the
 * OpenAPI document at /v1/openapi.json has them all). Nothing here is checked at run time:
 * views look at a body before they trust it.
 */

/** A page of a list: feed, search, For you. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** A story shown through its lead (`/v1/feed`, `/v1/trending`, `/v1/breaking`): the model's own type. */
export type { FeedItem, RelatedHeadline } from '../../../actors/model/index.js';

/** A search hit: the story's best-matching article (`/v1/search`). */
export interface SearchHit {
  id: string;
  story_id: string | null;
  title: string;
  summary: string | null;
  thumbnail_url: string | null;
  publisher_name: string;
  published_at: string;
  category: string | null;
  coverage_count?: number;
  matches?: number;
}

/** An article of a story's Full Coverage (`/v1/stories/:id`). */
export interface StoryArticle {
  id: string;
  title: string;
  display_title?: string;
  summary: string | null;
  thumbnail_url: string | null;
  publisher_id: string;
  publisher_name: string;
  published_at: string;
  duplicate_of: string | null;
}

export type { TimelineEntry } from '../../../actors/model/index.js';
import type { TimelineEntry } from '../../../actors/model/index.js';

export interface RegionGroup {
  region: string;
  article_count: number;
  article_ids: string[];
}

/** `GET /v1/stories/:id`: Full Coverage. */
export interface StoryPage {
  story: {
    id: string;
    title: string;
    lead_article_id: string;
    article_count: number;
    category: string | null;
    first_seen: string;
    updated_at: string;
  };
  articles: StoryArticle[];
  publishers: unknown[];
  timeline?: TimelineEntry[];
  top_coverage?: string[];
  by_region?: RegionGroup[];
}

/** How this node's sources fare (part of `GET /v1/catalogue`). */
export interface SourcesSummary {
  total: number;
  ok: number;
  failing: number;
  polled: number;
  offline?: boolean;
  reasons?: { publishers: number; message: string }[];
}

/** `GET /v1/catalogue`: the shipped catalogue of real publishers and how the sources fare. */
export interface CatalogueInfo {
  catalogue?: { editions?: { region: string; publishers: number; adds?: number }[]; total?: number } | null;
  can_import?: boolean;
  sources?: SourcesSummary;
}

/** `POST /v1/catalogue`. */
export interface CatalogueAdded {
  added: number;
  offered: number;
}

/** `GET` and `PUT /v1/me`: what a reader follows and hides (the model's own types). */
export type { InterestKind, InterestLists as InterestSet, Interests } from '../../../actors/model/index.js';

/** A row of `GET /v1/publishers` (admin). */
export interface PublisherHealth {
  id: string;
  name: string;
  feed_url: string;
  circuit: 'closed' | 'open' | 'half_open' | string;
  circuit_reason: string | null;
  failures: number;
  last_success_at: string | null;
  next_poll_at: string | null;
  article_count: number;
  entries_skipped?: number;
  owner?: string | null;
  /** polled faster for breaking news until then; null when not */
  accelerated_until?: string | null;
}

/** `POST /v1/publishers`. */
export interface PublisherAdded {
  name: string;
  feed_url: string;
}

/** `POST /v1/opml`. */
export interface OpmlImported {
  added: number;
  existing: number;
  rejected?: { text: string; reason: string }[];
}
