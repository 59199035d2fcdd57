import type { EntityContext } from './entities.js';
import { feedDateIso } from './dates.js';
import { childBase, resolveUrl } from './links.js';
import { collapse } from './plain-text.js';
import type { Enclosure } from './types.js';
import { attr, kids, textOf, type XNode } from './xml.js';

/** Small field readers shared by the format adapters. */

export interface AtomLinks {
  alternate: string | null;
  self: string | null;
  hubs: string[];
  enclosures: Enclosure[];
}

/**
 * Atom link rules: `rel` defaults to `alternate`; among alternates prefer an HTML one (no type,
 * text/html or application/xhtml+xml) over others; `self`, `hub` and `enclosure` are collected.
 * Used for Atom feeds and for `atom:link` inside RSS (`prefix` = 'atom:').
 */
export function atomLinks(node: unknown, ents: EntityContext, base: string | null, name = 'link'): AtomLinks {
  const out: AtomLinks = { alternate: null, self: null, hubs: [], enclosures: [] };
  let otherAlternate: string | null = null;
  for (const l of kids(node, name)) {
    const lb = childBase(attr(l, 'xml:base', ents), base);
    const href = resolveUrl(attr(l, 'href', ents) ?? (typeof l === 'string' ? textOf(l, ents) : undefined), lb);
    if (!href) continue;
    const rel = (attr(l, 'rel', ents) ?? 'alternate').trim().toLowerCase();
    const type = attr(l, 'type', ents)?.trim().toLowerCase();
    if (rel === 'alternate' || rel === 'http://www.iana.org/assignments/relation/alternate') {
      const html = !type || type === 'text/html' || type === 'application/xhtml+xml';
      if (html && out.alternate === null) out.alternate = href;
      else if (!html && otherAlternate === null) otherAlternate = href;
    } else if (rel === 'self') {
      out.self ??= href;
    } else if (rel === 'hub') {
      if (!out.hubs.includes(href)) out.hubs.push(href);
    } else if (rel === 'enclosure') {
      out.enclosures.push({ url: href, type: type ?? null, length: toLength(attr(l, 'length', ents)) });
    }
  }
  out.alternate ??= otherAlternate;
  return out;
}

/** A non-negative integer byte length, or null. */
export function toLength(v: string | undefined | null): number | null {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  if (!/^\d{1,15}$/.test(t)) return null;
  return Number(t);
}

/** First parseable date among candidate elements, as an ISO-8601 UTC string. */
export function firstDate(node: unknown, names: readonly string[], ents: EntityContext): string | null {
  for (const n of names) {
    for (const k of kids(node, n)) {
      const iso = feedDateIso(textOf(k, ents));
      if (iso) return iso;
    }
  }
  return null;
}

/** First non-empty simple text among candidate elements. */
export function firstText(node: unknown, names: readonly string[], ents: EntityContext): string | null {
  for (const n of names) {
    for (const k of kids(node, n)) {
      const t = collapse(textOf(k, ents));
      if (t) return t;
    }
  }
  return null;
}

/**
 * A display name from RSS author conventions: `jane@example.com (Jane Doe)` → `Jane Doe`,
 * `Jane Doe <jane@example.com>` → `Jane Doe`; a bare address stays as it is.
 */
export function cleanAuthor(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let s = collapse(raw);
  const paren = /^\S+@\S+\s*\((.+)\)$/.exec(s);
  if (paren) s = paren[1]!.trim();
  const angle = /^(.+?)\s*<[^>]+@[^>]+>$/.exec(s);
  if (angle) s = angle[1]!.replace(/^"(.*)"$/, '$1').trim();
  return s.length > 0 ? s : null;
}

/** Distinct, non-empty, whitespace-collapsed strings in first-seen order. */
export function distinct(values: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    const t = collapse(v);
    if (t) seen.add(t);
  }
  return [...seen];
}

/**
 * Distinct category labels: as `distinct`, with no-break spaces read as spaces (`New&#160;York`
 * files under the same tag as `New York`).
 */
export function distinctLabels(values: Iterable<string | null | undefined>): string[] {
  const out: (string | null | undefined)[] = [];
  for (const v of values) out.push(v && v.indexOf('\u00a0') !== -1 ? v.replace(/\u00a0/g, ' ') : v);
  return distinct(out);
}

/** Texts of all children named `name`. */
export function texts(node: unknown, name: string, ents: EntityContext): string[] {
  return kids(node, name).map((k: XNode) => textOf(k, ents));
}

/** Distinct enclosures by URL. */
export function distinctEnclosures(list: Enclosure[]): Enclosure[] {
  const seen = new Set<string>();
  return list.filter((e) => (seen.has(e.url) ? false : (seen.add(e.url), true)));
}

/** A language tag, normalised (`en_US` → `en-US`), or null. */
export function cleanLanguage(v: string | null | undefined): string | null {
  if (!v) return null;
  const t = v.trim().replace(/_/g, '-');
  return /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(t) ? t : null;
}
