import { readFileSync } from 'node:fs';

/**
 * The gazetteer (config/gazetteer.json): countries with their edition region, other names,
 * demonyms, capitals and major cities. Loaded once per process; lookups are map hits.
 */

/** Editions (DESIGN §7). */
export type Region = 'us' | 'uk' | 'eu' | 'apac' | 'latam' | 'mea' | 'global';

export const REGIONS: readonly Region[] = ['us', 'uk', 'eu', 'apac', 'latam', 'mea', 'global'];

/** What a gazetteer phrase points to. */
export interface Place {
  /** ISO 3166-1 alpha-2 code, or a region name for continents ("Europe") */
  code: string;
  /** canonical name ("United States") */
  name: string;
  region: Region;
  /** which of the country's names matched */
  kind: 'country' | 'alias' | 'demonym' | 'city' | 'area';
}

type Row = [string, string, Region, string[], string[], string[]];

export interface Gazetteer {
  /** country code -> region */
  readonly regionOf: ReadonlyMap<string, Region>;
  /** exact-case phrase (tokens joined by one space) -> place */
  readonly phrases: ReadonlyMap<string, Place>;
  /** longest phrase length in tokens */
  readonly maxTokens: number;
  /** first words of multi-word phrases ("New" of "New Zealand"): name words even if common */
  readonly firstWords: ReadonlySet<string>;
}

let cached: Gazetteer | null = null;

/** Load (once) and index the gazetteer shipped in config/. */
export function loadGazetteer(path?: string): Gazetteer {
  if (cached && path === undefined) return cached;
  const file = path ?? new URL('../../../config/gazetteer.json', import.meta.url);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { countries: Row[]; regions: [string, Region, string[]][] };
  const regionOf = new Map<string, Region>();
  const phrases = new Map<string, Place>();
  let maxTokens = 1;
  const add = (phrase: string, place: Place): void => {
    const key = phraseKey(phrase);
    if (!phrases.has(key)) phrases.set(key, place);
    maxTokens = Math.max(maxTokens, key.split(' ').length);
  };
  for (const [code, name, region, aliases, demonyms, cities] of raw.countries) {
    regionOf.set(code, region);
    add(name, { code, name, region, kind: 'country' });
  }
  // Second pass so a country's own name always wins over another country's alias or city.
  for (const [code, name, region, aliases, demonyms, cities] of raw.countries) {
    for (const a of aliases) add(a, { code, name, region, kind: 'alias' });
    for (const d of demonyms) add(d, { code, name, region, kind: 'demonym' });
    for (const c of cities) add(c, { code, name, region, kind: 'city' });
  }
  for (const [name, region, aliases] of raw.regions) {
    add(name, { code: name, name, region, kind: 'area' });
    for (const a of aliases) add(a, { code: name, name, region, kind: 'area' });
  }
  const firstWords = new Set<string>();
  for (const key of phrases.keys()) if (key.includes(' ')) firstWords.add(key.slice(0, key.indexOf(' ')));
  const g = { regionOf, phrases, maxTokens, firstWords };
  if (path === undefined) cached = g;
  return g;
}

/** The key a phrase is stored under: dotted abbreviations folded ("U.S." -> "US"), one space. */
export function phraseKey(phrase: string): string {
  return foldAbbreviations(phrase).split(/[\s-]+/).filter(Boolean).join(' ');
}

/** "U.S." -> "US", "U.A.E." -> "UAE": lets abbreviations survive tokenising as one token. */
export function foldAbbreviations(text: string): string {
  if (!hasDottedPair(text)) return text;
  return text.replace(/\b(?:[A-Z]\.){2,}/g, (m) => m.replace(/\./g, ''));
}

/** Whether `text` has "X.Y." (two capitals, each with a full stop): every abbreviation match does. */
function hasDottedPair(text: string): boolean {
  for (let d = text.indexOf('.', 1); d >= 0 && d + 2 < text.length; d = text.indexOf('.', d + 1)) {
    if (isCapital(text.charCodeAt(d - 1)) && isCapital(text.charCodeAt(d + 1)) && text.charCodeAt(d + 2) === 46) return true;
  }
  return false;
}

function isCapital(c: number): boolean {
  return c >= 65 && c <= 90;
}

/** Edition for a publisher country (ISO 3166-1 alpha-2, any case); `global` when unknown. */
export function regionForCountry(country: string | null | undefined, g: Gazetteer = loadGazetteer()): Region {
  if (!country) return 'global';
  const c = country.trim().toUpperCase();
  if (c === 'UK') return 'uk';
  return g.regionOf.get(c) ?? 'global';
}
