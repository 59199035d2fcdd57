import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { FeedParseError } from './errors.js';

/**
 * Entities. The XML parser runs with entity processing off; we decode text ourselves with the
 * full HTML table (RSS 0.91 feeds use `&eacute;` and friends, declared or not), repairing what
 * browsers repair (`&amp` without `;`, `&#8217` without `;`, cp1252 numeric references) and
 * leaving a stray `&` as text. Internal DTD entities are honoured with bounded expansion;
 * external entities and parameter entities are never fetched or expanded.
 */

/** Limits against entity-expansion attacks (billion laughs, quadratic blowup). */
export const ENTITY_LIMITS = {
  maxDeclarations: 1_000,
  /** total characters produced while expanding declarations */
  maxExpandedChars: 1_000_000,
  /** total characters substituted into the document by references */
  maxSubstitutedChars: 4_000_000,
};

/** Per-document decoding state: declared entities and the substitution budget. */
export class EntityContext {
  readonly declared: Map<string, string> | null;
  private budget = ENTITY_LIMITS.maxSubstitutedChars;

  constructor(declared: Map<string, string> | null = null) {
    this.declared = declared && declared.size > 0 ? declared : null;
  }

  /** Decode entity references in XML character data (outside CDATA). */
  text(s: string): string {
    if (s.indexOf('&') === -1) return s;
    if (this.declared) s = this.expandDeclared(s);
    return decodeHTML(s);
  }

  /** Decode an attribute value (HTML attribute rules for legacy entities). */
  attr(s: string): string {
    if (s.indexOf('&') === -1) return s;
    if (this.declared) s = this.expandDeclared(s);
    return decodeHTMLAttribute(s);
  }

  /** Replace references to declared entities only (used on HTML kept as markup). */
  expandDeclared(s: string): string {
    const map = this.declared;
    if (!map || s.indexOf('&') === -1) return s;
    return s.replace(/&([A-Za-z_][\w.-]*);/g, (whole, name: string) => {
      const v = map.get(name);
      if (v === undefined) return whole;
      this.budget -= v.length;
      if (this.budget < 0) throw new FeedParseError('PARSE_ENTITY_LIMIT', 'entity expansion exceeds the document budget');
      // predefined references left in the value are decoded by the HTML pass that follows
      return v;
    });
  }
}

export interface Prolog {
  /** the document with its DOCTYPE removed */
  xml: string;
  /** the DOCTYPE's root name, lower-cased ('html' means a web page) */
  doctypeName: string | null;
  entities: EntityContext;
}

/** Remove the DOCTYPE (the XML parser never sees it) and read its internal entity declarations. */
export function stripDoctype(xml: string): Prolog {
  const at = findDoctype(xml);
  if (at === -1) return { xml, doctypeName: null, entities: new EntityContext() };
  let i = at + 9;
  const nameMatch = /^\s*([^\s>[]+)/.exec(xml.slice(i, i + 200));
  const doctypeName = nameMatch ? nameMatch[1]!.toLowerCase() : null;
  let subsetStart = -1;
  let subsetEnd = -1;
  let end = -1;
  for (; i < xml.length; i++) {
    const ch = xml[i];
    if (ch === '"' || ch === "'") {
      const q = xml.indexOf(ch, i + 1);
      if (q === -1) break;
      i = q;
    } else if (ch === '[' && subsetStart === -1) {
      subsetStart = i + 1;
      subsetEnd = findSubsetEnd(xml, subsetStart);
      if (subsetEnd === -1) break;
      i = subsetEnd;
    } else if (ch === '>') {
      end = i;
      break;
    }
  }
  if (end === -1) throw new FeedParseError('PARSE_MALFORMED', 'unterminated DOCTYPE declaration');
  const subset = subsetStart !== -1 ? xml.slice(subsetStart, subsetEnd) : '';
  const declared = subset ? readEntityDeclarations(subset) : null;
  return { xml: xml.slice(0, at) + xml.slice(end + 1), doctypeName, entities: new EntityContext(declared) };
}

function findDoctype(xml: string): number {
  // only in the prolog: the scan stops at the first element
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i + 1)) {
    const c = xml.charCodeAt(i + 1);
    if (c === 33 /* ! */) {
      if (xml.startsWith('<!--', i)) {
        const e = xml.indexOf('-->', i + 4);
        if (e === -1) return -1;
        i = e;
        continue;
      }
      if (xml.slice(i + 2, i + 9).toUpperCase() === 'DOCTYPE') return i;
      return -1;
    }
    if (c !== 63 /* ? */) return -1;
  }
  return -1;
}

function findSubsetEnd(xml: string, from: number): number {
  for (let i = from; i < xml.length; i++) {
    const ch = xml[i];
    if (ch === '"' || ch === "'") {
      const q = xml.indexOf(ch, i + 1);
      if (q === -1) return -1;
      i = q;
    } else if (ch === '<' && xml.startsWith('<!--', i)) {
      const e = xml.indexOf('-->', i + 4);
      if (e === -1) return -1;
      i = e + 2;
    } else if (ch === ']') {
      return i;
    }
  }
  return -1;
}

const DECL = /<!ENTITY\s+(%\s+)?([A-Za-z_][\w.-]*)\s+(?:"([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC)\b[^>]*)\s*>/g;

/**
 * Internal general entities, fully expanded under a global budget. External (SYSTEM/PUBLIC)
 * and parameter entities are ignored: we never fetch anything a document points at.
 */
export function readEntityDeclarations(subset: string): Map<string, string> {
  const raw = new Map<string, string>();
  let count = 0;
  for (const m of subset.matchAll(DECL)) {
    if (++count > ENTITY_LIMITS.maxDeclarations) {
      throw new FeedParseError('PARSE_ENTITY_LIMIT', `more than ${ENTITY_LIMITS.maxDeclarations} entity declarations`);
    }
    if (m[1] || m[5]) continue; // parameter or external entity
    const name = m[2]!;
    if (!raw.has(name)) raw.set(name, m[3] ?? m[4] ?? '');
  }
  const done = new Map<string, string>();
  let budget = ENTITY_LIMITS.maxExpandedChars;
  const expand = (name: string, stack: Set<string>): string => {
    const ready = done.get(name);
    if (ready !== undefined) return ready;
    const value = raw.get(name)!;
    if (stack.has(name)) throw new FeedParseError('PARSE_ENTITY_LIMIT', `recursive entity &${name};`);
    stack.add(name);
    const out = value.replace(/&([A-Za-z_][\w.-]*);/g, (whole, ref: string) => {
      if (!raw.has(ref)) return whole;
      const v = expand(ref, stack);
      budget -= v.length;
      if (budget < 0) throw new FeedParseError('PARSE_ENTITY_LIMIT', 'entity expansion limit exceeded');
      return v;
    });
    stack.delete(name);
    // character references inside the literal are resolved now, like an XML processor does
    const resolved = out.replace(/&#(x[0-9a-fA-F]+|[0-9]+);/g, (w) => decodeHTML(w));
    done.set(name, resolved);
    return resolved;
  };
  for (const name of raw.keys()) expand(name, new Set());
  return done;
}
