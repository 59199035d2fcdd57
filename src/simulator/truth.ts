import type { SimEvent } from './events.js';
import type { SimUrls } from './urls.js';
import type { Edits } from './writer.js';
import type { SimItem } from './world.js';

/** Ground truth for one published item, to score dedup and clustering against. */
export interface TruthItem {
  /** the item's guid / id in its feed */
  id: string;
  url: string;
  publisher_id: string;
  title: string;
  /** the event the item is about: gold story for clustering */
  event_id: string;
  /** the wire story this item is (or copies): gold near-duplicate group; null for own writing */
  wire_id: string | null;
  /** for copies: the id of the agency's own item of that wire story, when an agency publisher ran it */
  wire_original_id: string | null;
  /** `wire` = the agency's original, `copy` = a syndicated edit of it, `original` = own article */
  role: 'wire' | 'copy' | 'original';
  category: string;
  published_at: number;
  /** what syndication changed, for copies */
  edits: Edits | null;
}

/** Ground truth for one event. */
export interface TruthEvent {
  id: string;
  kind: string;
  category: string;
  created_at: number;
  city: string;
  country: string;
  entities: { people: string[]; orgs: string[]; places: string[] };
  /** what the event is about, for kinds one city can have twice at once ("fuel prices"); else null */
  topic: string | null;
  /** an event of the same kind elsewhere (or in the same city about another topic) that shares words with this one */
  twin_of: string | null;
  breaking: boolean;
}

export function truthItem(urls: SimUrls, i: SimItem, wireOriginals: ReadonlyMap<string, string>): TruthItem {
  return {
    id: i.guid, url: urls.item(i), publisher_id: i.publisherId, title: i.title, event_id: i.eventId,
    wire_id: i.wireId, wire_original_id: i.wireId === null ? null : wireOriginals.get(i.wireId) ?? null, role: i.role, category: i.category, published_at: i.publishedAt, edits: i.edits,
  };
}

export function truthEvent(e: SimEvent): TruthEvent {
  return {
    id: e.id, kind: e.kind, category: e.category, created_at: e.createdAt, city: e.place.city,
    country: e.place.country, entities: e.entities, topic: e.slots.topic ?? null, twin_of: e.twinOf, breaking: e.breaking,
  };
}
