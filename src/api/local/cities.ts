import { loadGazetteer } from '../../actors/enrich/gazetteer.js';

/**
 * The cities a reader may choose for its Local section: every city of the gazetteer
 * (config/gazetteer.json's curated ones and config/cities.json's), with a stable id
 * `<iso code>-<name slug>` ("fr-lyon", "us-new-york"). The gazetteer has no coordinates and no
 * admin regions, so "near" a city is its country (see local.ts).
 */
export interface LocalCity {
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  country_name: string;
  /** the edition the city's country belongs to */
  region: string;
}

let cities: { list: LocalCity[]; byId: Map<string, LocalCity> } | null = null;

/** "São Paulo" → "sao-paulo". */
export function slug(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function load(): { list: LocalCity[]; byId: Map<string, LocalCity> } {
  if (cities) return cities;
  const byId = new Map<string, LocalCity>();
  for (const [phrase, place] of loadGazetteer().phrases) {
    if (place.kind !== 'city' || place.code.length !== 2) continue;
    const id = `${place.code.toLowerCase()}-${slug(phrase)}`;
    if (!byId.has(id) && slug(phrase) !== '') byId.set(id, { id, name: phrase, country: place.code, country_name: place.name, region: place.region });
  }
  const list = [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.country.localeCompare(b.country));
  cities = { list, byId };
  return cities;
}

/** A city by id, or undefined. */
export function cityById(id: string): LocalCity | undefined {
  return load().byId.get(id);
}

/** Cities whose name (or id) starts with `q` (accents and case ignored), alphabetical; all of them for an empty q. */
export function searchCities(q: string, limit: number): LocalCity[] {
  const k = slug(q);
  const out: LocalCity[] = [];
  for (const c of load().list) {
    if (k === '' || slug(c.name).startsWith(k) || c.id.startsWith(k)) out.push(c);
    if (out.length >= limit) break;
  }
  return out;
}
