import { readFileSync } from 'node:fs';
import { foldAbbreviations } from '../../actors/enrich/gazetteer.js';
import { publisherNames } from '../../actors/store/publishers.js';
import { knownEntityKeys } from '../../actors/store/readers.js';
import type { Sql } from '../../runtime/sql.js';
import { HttpError } from '../reply.js';
import { INTEREST_KINDS, keyOf, type InterestKind, type Interests } from './interests.js';
import { findPlace } from './profile.js';

/**
 * Interests must name something this node knows, or a reader's follow silently matches nothing
 * (`"publishers": ["BBC"]` when publishers are named by id). A publisher is known by its id in the
 * publishers table; a place by the gazetteer (a country, its names and demonyms, a city, an area)
 * or as a name in the news; a name (entity) by the gazetteer, the entity alias table, or the
 * stories of the last `RECENT_STORIES` written. What the reader already follows or hides is
 * never refused again (a publisher removed since, a name out of the news), so other changes save.
 */

/** stories whose names count as "in the news" */
export const RECENT_STORIES = 20_000;
/** unknown entries named in one message */
const NAMED = 5;


let aliasNames: Set<string> | null = null;
/** Surface forms and canonical names of the entity alias table, lower case. */
function aliases(): Set<string> {
  if (aliasNames) return aliasNames;
  const doc = JSON.parse(readFileSync(new URL('../../../config/entity-aliases.json', import.meta.url), 'utf8')) as { aliases: Record<string, [string, string]> };
  aliasNames = new Set();
  for (const [surface, [canonical]] of Object.entries(doc.aliases)) {
    aliasNames.add(foldAbbreviations(surface).toLowerCase());
    aliasNames.add(canonical.toLowerCase());
  }
  return aliasNames;
}

interface Unknown {
  side: 'follow' | 'hide';
  kind: InterestKind;
  name: string;
}

/** Throws 400 `unknown_publisher`, `unknown_place` or `unknown_entity` naming what no one knows; `before` is what the reader has now. */
export async function checkKnownInterests(sql: Sql, next: Interests, before: Interests): Promise<void> {
  const fresh: Unknown[] = [];
  for (const side of ['follow', 'hide'] as const) {
    for (const kind of INTEREST_KINDS) {
      if (kind === 'categories') continue; // validated against the taxonomy already
      const had = new Set([...before.follow[kind], ...before.hide[kind]].map(keyOf));
      for (const name of next[side][kind]) if (!had.has(keyOf(name))) fresh.push({ side, kind, name });
    }
  }
  if (fresh.length === 0) return;
  const pubs = fresh.filter((u) => u.kind === 'publishers');
  if (pubs.length > 0) {
    const found = await publisherNames(sql, pubs.map((u) => u.name));
    refuse(pubs.filter((u) => !found.has(u.name)), 'unknown_publisher', 'unknown publisher', 'publishers are named by id (the publisher_id of a feed item or article), not by name');
  }
  const names = fresh.filter((u) => u.kind !== 'publishers' && !(findPlace(u.name) ?? (u.kind === 'entities' && aliases().has(keyOf(u.name)))));
  if (names.length === 0) return;
  const inNews = await knownEntityKeys(sql, [...new Set(names.map((u) => keyOf(u.name)))], RECENT_STORIES);
  const missing = names.filter((u) => !inNews.has(keyOf(u.name)));
  refuse(missing.filter((u) => u.kind === 'places'), 'unknown_place', 'unknown place', 'a place is a country, a demonym, a city or an area (Europe, Middle East) newsagg knows, or a place named in recent stories');
  refuse(missing.filter((u) => u.kind === 'entities'), 'unknown_entity', 'unknown name', 'a name must appear in recent stories, or be a place or a well-known organisation newsagg knows');
}

function refuse(list: readonly Unknown[], code: string, what: string, hint: string): void {
  if (list.length === 0) return;
  const shown = list.slice(0, NAMED).map((u) => `${u.side}.${u.kind} "${clip(u.name)}"`);
  const more = list.length > NAMED ? ` and ${list.length - NAMED} more` : '';
  throw new HttpError(400, code, `${what}${list.length > 1 ? 's' : ''}: ${shown.join(', ')}${more}; ${hint}`);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
