import { fnv1a } from '../../runtime/hash.js';
import { loadGazetteer, phraseKey, type Place } from '../../actors/enrich/gazetteer.js';
import type { HistoryClick, StoredReader } from '../../actors/store/readers.js';
import { keyOf, storedInterests, type Interests } from './interests.js';

/**
 * A reader's profile as ranking reads it: weighted signal keys and hidden keys, in the key space
 * of the candidate pool (see personal/pool.ts):
 *   `c:<category>`  `p:<publisher id>`  `e:<entity or place name, lower case>`  `l:<ISO code or area>`
 * Explicit follows weigh most; reading history (recent clicks) adds weight by how much of it a
 * category, publisher or entity takes, damped while the history is short, so one click nudges
 * and ten clicks steer. Built once per load and shared by every request; kept small (a few
 * hundred bytes with its map entry: key strings are interned, so every reader who follows
 * `c:science` shares one string), the interests themselves are not kept: `/v1/me` reads them.
 */
export interface Profile {
  id: string;
  /** signal keys (interned), sorted, and their weights */
  keys: readonly string[];
  weights: readonly number[];
  hidden: readonly string[];
  /** a hash of keys, weights and hidden keys: changes whenever what ranking reads changes (an ETag part) */
  version: number;
  /** the stories the reader read most recently (ids; see withReadHidden), absent or empty for none */
  read?: readonly string[];
}

/** derived profiles that also hide the stories read, one per profile object (dropped with it) */
const readHidden = new WeakMap<Profile, Profile>();

/**
 * The profile with the stories it read hidden too (`for=me&hide_read=true`): its hidden keys
 * gain `s:<story id>` (the pool indexes every candidate under its own id) and its version
 * changes, so ETags of the two orders differ. Built once per profile.
 */
export function withReadHidden(p: Profile): Profile {
  if (!p.read || p.read.length === 0) return p;
  let d = readHidden.get(p);
  if (d === undefined) {
    const hidden = [...new Set([...p.hidden, ...p.read.map((id) => `s:${id}`)])].sort();
    d = { ...p, hidden, version: fnv1a(JSON.stringify([p.version, hidden])) };
    readHidden.set(p, d);
  }
  return d;
}

/** affinity added by an explicit follow */
export const FOLLOW_WEIGHT = { categories: 1.5, publishers: 2, entities: 2, places: 1.5 } as const;
/** affinity added by history at full share (all recent clicks on it), before damping */
export const HISTORY_WEIGHT = { category: 1, publisher: 0.8, entity: 1.5 } as const;
/** history entities kept (the most clicked) */
const HISTORY_ENTITIES = 12;
/** clicks at which history counts half: n / (n + HALF) */
const HISTORY_HALF = 2;

const NONE: readonly never[] = Object.freeze([]);
/** one string per distinct key, shared by every profile (bounded: keys past the cap are not interned) */
const interned = new Map<string, string>();
const INTERN_MAX = 200_000;
function intern(k: string): string {
  const had = interned.get(k);
  if (had !== undefined) return had;
  if (interned.size < INTERN_MAX) interned.set(k, k);
  return k;
}

/** The signal keys of a followed or hidden place name: the name itself, and its country or area code. */
export function placeKeys(name: string): string[] {
  const keys = [`e:${keyOf(name)}`];
  const place = findPlace(name);
  // a city names itself only (following Lyon is not following France)
  if (place && place.kind !== 'city') keys.push(`l:${place.code}`);
  return keys;
}

/** The gazetteer's place for a name as a reader types it: as written, in Title Case, or (short names) in capitals. */
export function findPlace(name: string): Place | undefined {
  const g = loadGazetteer().phrases;
  return g.get(phraseKey(name)) ?? g.get(phraseKey(titleCase(name))) ?? (name.length <= 5 ? g.get(phraseKey(name.toUpperCase())) : undefined);
}

function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** Compiles a stored reader into its ranking profile. */
export function compileProfile(id: string, stored: StoredReader): Profile {
  return compileInterests(id, storedInterests(stored.follow, stored.hide), stored.history, stored.read);
}

/** The profile of explicit interests and a history. */
export function compileInterests(id: string, interests: Interests, history: readonly HistoryClick[], read: readonly string[] = NONE): Profile {
  const w = new Map<string, number>();
  const add = (k: string, x: number) => w.set(k, (w.get(k) ?? 0) + x);
  const f = interests.follow;
  for (const c of f.categories) add(`c:${c}`, FOLLOW_WEIGHT.categories);
  for (const p of f.publishers) add(`p:${p}`, FOLLOW_WEIGHT.publishers);
  for (const e of f.entities) add(`e:${keyOf(e)}`, FOLLOW_WEIGHT.entities);
  for (const pl of f.places) for (const k of placeKeys(pl)) add(k, FOLLOW_WEIGHT.places);
  addHistory(history, add);

  const h = interests.hide;
  const hidden = [
    ...h.categories.map((c) => `c:${c}`),
    ...h.publishers.map((p) => `p:${p}`),
    ...h.entities.map((e) => `e:${keyOf(e)}`),
    ...h.places.flatMap(placeKeys),
  ];
  // a hidden key carries no weight (it removes the story whatever else it matches)
  for (const k of hidden) w.delete(k);
  const keys = [...w.keys()].sort().map(intern);
  const weights = keys.map((k) => Math.round(w.get(k)! * 1000) / 1000);
  const hide = [...new Set(hidden)].sort().map(intern);
  return {
    id,
    keys: keys.length ? keys : NONE,
    weights: weights.length ? weights : NONE,
    hidden: hide.length ? hide : NONE,
    version: fnv1a(JSON.stringify([keys, weights, hide])),
    ...(read.length > 0 ? { read } : {}),
  };
}


/** History shares: category, publisher and entity counts over the recent clicks, damped while few. */
function addHistory(history: readonly HistoryClick[], add: (k: string, x: number) => void): void {
  const n = history.length;
  if (n === 0) return;
  const damp = n / (n + HISTORY_HALF);
  const cats = new Map<string, number>();
  const pubs = new Map<string, number>();
  const ents = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const c of history) {
    if (c.category) bump(cats, c.category);
    if (c.publisher_id) bump(pubs, c.publisher_id);
    if (Array.isArray(c.entities)) for (const e of new Set(c.entities)) if (typeof e === 'string' && e) bump(ents, e.toLowerCase());
  }
  for (const [k, x] of cats) add(`c:${k}`, (HISTORY_WEIGHT.category * damp * x) / n);
  for (const [k, x] of pubs) add(`p:${k}`, (HISTORY_WEIGHT.publisher * damp * x) / n);
  // entities seen in one click only are noise once the history is longer than a few clicks
  const top = [...ents].filter(([, x]) => x >= 2 || n <= 3).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, HISTORY_ENTITIES);
  for (const [k, x] of top) add(`e:${k}`, (HISTORY_WEIGHT.entity * damp * x) / n);
}
