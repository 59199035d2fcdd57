import { CATEGORIES } from '../../actors/model/index.js';
import { badRequest } from '../params.js';

/**
 * A reader's explicit interests (`PUT /v1/me`): what to follow and what to hide, by category
 * (the taxonomy), publisher (id), entity and place (by name). Validation is strict and bounded,
 * so a profile stays a few hundred bytes and a hostile body costs nothing to refuse.
 */
export { INTEREST_KINDS, type InterestKind, type InterestLists, type Interests } from '../../actors/model/index.js';
import { INTEREST_KINDS, type InterestKind, type InterestLists, type Interests } from '../../actors/model/index.js';

/** entries per list */
export const MAX_PER_LIST = 50;
/** entries over all eight lists */
export const MAX_ENTRIES = 200;
/** characters per entry */
export const MAX_NAME = 100;

const PUBLISHER_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function emptyLists(): InterestLists {
  return { categories: [], entities: [], publishers: [], places: [] };
}

export function emptyInterests(): Interests {
  return { follow: emptyLists(), hide: emptyLists() };
}

/**
 * Validates a `PUT /v1/me` body into interests: unknown keys, non-strings, unknown categories,
 * overlong or control-character names, too many entries, and an entry both followed and hidden
 * are 400s with a code a client can act on. Names are trimmed with inner spaces collapsed, and
 * repeated entries (case-insensitively for names) kept once.
 */
export function parseInterests(body: unknown): Interests {
  const root = object(body, 'the body');
  for (const k of Object.keys(root)) if (k !== 'follow' && k !== 'hide') throw badRequest('invalid_body', `unknown field "${clip(k)}"; expected follow, hide`);
  const out: Interests = { follow: lists(root.follow, 'follow'), hide: lists(root.hide, 'hide') };
  let total = 0;
  for (const side of [out.follow, out.hide]) for (const kind of INTEREST_KINDS) total += side[kind].length;
  if (total > MAX_ENTRIES) throw badRequest('too_many_interests', `at most ${MAX_ENTRIES} entries in all`);
  for (const kind of INTEREST_KINDS) {
    const hidden = new Set(out.hide[kind].map(keyOf));
    const both = out.follow[kind].find((x) => hidden.has(keyOf(x)));
    if (both !== undefined) throw badRequest('conflicting_interests', `"${clip(both)}" is both followed and hidden (${kind})`);
  }
  return out;
}

/** Interests as stored (JSON from the database): anything malformed is dropped, never thrown. */
export function storedInterests(follow: unknown, hide: unknown): Interests {
  const safe = (v: unknown, side: string): InterestLists => {
    try {
      return lists(v, side);
    } catch {
      return emptyLists();
    }
  };
  return { follow: safe(follow, 'follow'), hide: safe(hide, 'hide') };
}

/** How entries compare: case-insensitively (they are trimmed with inner spaces collapsed already). */
export function keyOf(name: string): string {
  return name.toLowerCase();
}

function lists(v: unknown, side: string): InterestLists {
  if (v === undefined || v === null) return emptyLists();
  const o = object(v, side);
  for (const k of Object.keys(o)) {
    if (!(INTEREST_KINDS as readonly string[]).includes(k)) throw badRequest('invalid_body', `unknown field "${side}.${clip(k)}"; expected ${INTEREST_KINDS.join(', ')}`);
  }
  return {
    categories: list(o.categories, `${side}.categories`, (s, at) => {
      if (!(CATEGORIES as readonly string[]).includes(s)) throw badRequest('invalid_category', `${at}: unknown category "${clip(s)}"; expected one of: ${CATEGORIES.join(', ')}`);
      return s;
    }),
    publishers: list(o.publishers, `${side}.publishers`, (s, at) => {
      if (!PUBLISHER_ID.test(s)) throw badRequest('invalid_publisher', `${at}: "${clip(s)}" is not a publisher id`);
      return s;
    }),
    entities: list(o.entities, `${side}.entities`, name),
    places: list(o.places, `${side}.places`, name),
  };
}

function list(v: unknown, at: string, check: (s: string, at: string) => string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest('invalid_body', `${at} must be a list of strings`);
  if (v.length > MAX_PER_LIST) throw badRequest('too_many_interests', `${at}: at most ${MAX_PER_LIST} entries`);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const x of v) {
    if (typeof x !== 'string') throw badRequest('invalid_body', `${at} must be a list of strings`);
    if (x.length > MAX_NAME * 4) throw badRequest('invalid_interest', `${at}: entries are at most ${MAX_NAME} characters`);
    const s = check(x.trim().replace(/\s+/g, ' '), at);
    const k = keyOf(s);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  }
  return out;
}

function name(s: string, at: string): string {
  if (s === '') throw badRequest('invalid_interest', `${at}: empty name`);
  if (s.length > MAX_NAME) throw badRequest('invalid_interest', `${at}: entries are at most ${MAX_NAME} characters`);
  if (CONTROL.test(s)) throw badRequest('invalid_interest', `${at}: control characters are not allowed`);
  return s;
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest('invalid_body', `${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

function clip(s: string): string {
  const t = s.replace(new RegExp(CONTROL.source, 'g'), '?');
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
