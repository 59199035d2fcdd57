import { listedItem, type CachedStory } from '../../actors/store/feed-items.js';
import type { StorySignals } from '../../actors/store/stories.js';
import { DEFAULT_AUTHORITY } from '../../actors/publisher/authority.js';

/**
 * The candidates a personalised page re-ranks: one edition's current ranking (a feed snapshot),
 * with each story's reader-independent score (freshness × coverage × source authority), its
 * rendered feed item, and an inverted index from signal keys (see readers/profile.ts) to the
 * candidates they match. Built once per snapshot and shared by every reader, so a page costs
 * a walk over the reader's few keys, not over every story's features.
 */
export interface Candidate {
  /** position in the snapshot (what cursors store) */
  at: number;
  id: string;
  publisher: string;
  category: string | null;
  /** log2 of freshness × coverage × authority (logs: a week-old story's freshness underflows a float) */
  logBase: number;
  /** sortKey of logBase: the candidate's place when the reader's keys do not touch it */
  baseKey: number;
  /** the FeedItem as UTF-8 JSON, rendered once: pages copy these bytes, no string is built per request */
  json: Buffer;
  /** the same without `related` (what a page carries unless it asks for `related=true`); `json` when the item has none */
  bare: Buffer;
  breaking: boolean;
}

export interface Pool {
  /** the snapshot id (cursors name it) */
  id: string;
  /** candidates by snapshot position; null where the story is gone */
  candidates: (Candidate | null)[];
  /** signal key → positions of the candidates it matches, ascending */
  index: Map<string, Uint16Array>;
  /** the order without affinity (by baseKey): breaking first, then by score, ties by position */
  baseOrder: Uint16Array;
  /** by position: the candidate's baseKey (0 where none), its publisher and its category as small numbers (NO_CATEGORY for none) */
  baseKeys: Float64Array;
  publisherOf: Uint16Array;
  categoryOf: Uint16Array;
  builtAt: number;
}

/** `Pool.categoryOf` of a candidate without a category */
export const NO_CATEGORY = 0xffff;

// A candidate's sort key: its log2 score to 2^-20 (clamped to [-2^12, 2^8), shifted positive),
// times 512, plus 511 - position (ties: the better anonymous rank first), plus 2^43 if breaking;
// below 2^53, so a double holds it exactly and a numeric sort orders candidates exactly.
const SCALE = 2 ** 20;
const LOG_MIN = -(2 ** 12);
const LOG_MAX = 2 ** 8 - 1;
const BREAKING = 2 ** 43;

/** The sort key of the candidate at `at` with log2 score `log` (higher sorts first); `key % 512` gives 511 - at. */
export function sortKey(at: number, breaking: boolean, log: number): number {
  const l = Math.min(LOG_MAX, Math.max(LOG_MIN, log));
  return (breaking ? BREAKING : 0) + Math.floor((l - LOG_MIN) * SCALE) * 512 + (511 - at);
}

/** freshness half-life of the personalised ranking */
export const FRESH_HALF_LIFE_MS = 12 * 3_600_000;
/** most candidates re-ranked per page (positions fit a Uint16 in cursors) */
export const POOL_MAX = 300;

/** log2 of freshness, which halves every 12 hours since the story's last article (≤ 0). */
export function logFreshness(updatedMs: number, now: number): number {
  return -Math.max(0, now - updatedMs) / FRESH_HALF_LIFE_MS;
}

/** Coverage: how big the story is, by publishers (most) and articles, ≥ 1. */
export function coverage(publishers: number, articles: number): number {
  return 1 + Math.log2(1 + Math.max(0, publishers)) + 0.5 * Math.log2(1 + Math.max(0, articles));
}

/** Authority as a factor: 0.5 + authority, so an unknown source (0.5) is neutral. */
export function authorityFactor(authority: number | undefined): number {
  return 0.5 + (authority ?? DEFAULT_AUTHORITY);
}

export interface PoolInput {
  id: string;
  /** the snapshot's story ids, in order (only the first POOL_MAX are candidates) */
  ids: readonly string[];
  stories: readonly CachedStory[];
  signals: readonly StorySignals[];
  authority: (publisher: string) => number | undefined;
  breaking: ReadonlySet<string>;
  now: number;
  /** the edition whose snapshot this is: items say so (see listedItem) */
  region: string;
}

/** The signal keys a story matches. */
export function storyKeys(s: CachedStory, sig: StorySignals | undefined): Set<string> {
  const keys = new Set<string>();
  if (s.item.category) keys.add(`c:${s.item.category}`);
  keys.add(`p:${s.publisher_id}`);
  // the story itself: a reader hiding stories already read names them so
  keys.add(`s:${s.item.story_id}`);
  if (sig) {
    for (const e of Array.isArray(sig.entities) ? sig.entities : []) if (typeof e === 'string' && e) keys.add(`e:${e.toLowerCase()}`);
    for (const e of Array.isArray(sig.lead_entities) ? sig.lead_entities : []) if (e && typeof e.name === 'string') keys.add(`e:${e.name.toLowerCase()}`);
    for (const p of Array.isArray(sig.lead_places) ? sig.lead_places : []) if (typeof p === 'string' && p) keys.add(`l:${p}`);
  }
  return keys;
}

export function buildPool(input: PoolInput): Pool {
  const byId = new Map(input.stories.map((s) => [s.item.story_id, s]));
  const sigs = new Map(input.signals.map((s) => [s.id, s]));
  const ids = input.ids.slice(0, POOL_MAX);
  const candidates: (Candidate | null)[] = [];
  const postings = new Map<string, number[]>();
  ids.forEach((id, at) => {
    const s = byId.get(id);
    if (!s) {
      candidates.push(null);
      return;
    }
    const sig = sigs.get(id);
    const updated = sig?.updated_ms ?? Date.parse(s.item.published_at);
    const logBase = logFreshness(updated, input.now) + Math.log2(coverage(sig?.publisher_count ?? 1, sig?.article_count ?? s.item.coverage_count)) + Math.log2(authorityFactor(input.authority(s.publisher_id)));
    const breaking = input.breaking.has(id);
    const item = listedItem(s, input.region);
    const json = Buffer.from(JSON.stringify(item), 'utf8');
    const bare = item.related === undefined ? json : Buffer.from(JSON.stringify(withoutRelated(item)), 'utf8');
    candidates.push({ at, id, publisher: s.publisher_id, category: s.item.category, logBase, baseKey: sortKey(at, breaking, logBase), json, bare, breaking });
    for (const k of storyKeys(s, sig)) {
      let list = postings.get(k);
      if (!list) postings.set(k, (list = []));
      list.push(at);
    }
  });
  const index = new Map<string, Uint16Array>();
  for (const [k, list] of postings) index.set(k, Uint16Array.from(list));
  const live = candidates.filter((c): c is Candidate => c !== null);
  live.sort((a, b) => b.baseKey - a.baseKey);
  // per-position features as numbers, so a page's ranking and diversity read arrays, not objects and maps
  const baseKeys = new Float64Array(candidates.length);
  const publisherOf = new Uint16Array(candidates.length);
  const categoryOf = new Uint16Array(candidates.length).fill(NO_CATEGORY);
  const pubIds = new Map<string, number>();
  const catIds = new Map<string, number>();
  for (const c of live) {
    baseKeys[c.at] = c.baseKey;
    let p = pubIds.get(c.publisher);
    if (p === undefined) pubIds.set(c.publisher, (p = pubIds.size));
    publisherOf[c.at] = p;
    if (c.category !== null) {
      let k = catIds.get(c.category);
      if (k === undefined) catIds.set(c.category, (k = catIds.size));
      categoryOf[c.at] = k;
    }
  }
  return { id: input.id, candidates, index, baseOrder: Uint16Array.from(live, (c) => c.at), baseKeys, publisherOf, categoryOf, builtAt: input.now };
}

/** A feed item without its related headlines (what the anonymous feed serves unless asked). */
function withoutRelated(item: CachedStory['item']): Omit<CachedStory['item'], 'related'> {
  const { related: _r, ...rest } = item;
  return rest;
}
