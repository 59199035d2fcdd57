import { loadGazetteer } from './gazetteer.js';

/**
 * Wire datelines: `JAKARTA (Atlas) - `, `NEW YORK, March 3 (AP) — `, `Nairobi, Kenya (CNN) — `.
 * The place opens the text in capitals (not a name the text is about, as far as casing goes)
 * and the agency in brackets is who filed it, not what happened. Entity extraction reads the
 * place as a place and skips the agency.
 */
const CAPS = /^\s*([A-Z][A-Z.'\u2019]*(?:[ -][A-Z][A-Z.'\u2019]*){0,3})(?:,\s*[A-Z][A-Za-z.]*(?: [A-Z][A-Za-z.]*)?)?(?:,?\s*[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:,\s*\d{4})?)?\s*(\([^()]{1,40}\))?\s*[-\u2013\u2014]+\s+/;
const TITLED = /^\s*([A-Z][a-z]+(?:[ -](?:[A-Z][a-z]+|de|da|do|del|la|el)){0,3})(?:,\s*[A-Z][A-Za-z.]*(?: [A-Z][A-Za-z.]*)?)?\s*\([^()]{1,40}\)\s*[-\u2013\u2014]+\s+/;

let byLower: Map<string, string> | null = null;

/** The gazetteer's spelling of a place name in any casing, or null. */
function placeNamed(words: string): string | null {
  if (!byLower) {
    byLower = new Map();
    for (const name of loadGazetteer().phrases.keys()) byLower.set(name.toLowerCase(), name);
  }
  return byLower.get(words.toLowerCase().replace(/\s+/g, ' ')) ?? null;
}

export interface Dateline {
  /** the place the dateline names, spelled as in the gazetteer; null when it names none it knows */
  place: string | null;
  /** the text after the dateline */
  rest: string;
}

/**
 * Splits a leading dateline off `text`. A capitalised dateline counts when it names a known
 * place or is followed by an agency in brackets; a title-case one needs the agency (otherwise
 * `Apple - the company...` would lose its subject). Text without one comes back unchanged.
 */
export function splitDateline(text: string): Dateline {
  // a body stripped of its markup opens with the line break its first <p> left
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 9)) i++;
  const c = text.charCodeAt(i);
  if (!(c >= 65 && c <= 90)) return { place: null, rest: text };
  const caps = CAPS.exec(text);
  if (caps) {
    const place = placeNamed(caps[1]!);
    if (place || caps[2]) return { place, rest: text.slice(caps[0].length) };
  }
  const titled = TITLED.exec(text);
  if (titled) return { place: placeNamed(titled[1]!), rest: text.slice(titled[0].length) };
  return { place: null, rest: text };
}
