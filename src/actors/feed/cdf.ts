import type { EntityContext } from './entities.js';
import { feedDateIso } from './dates.js';
import { escapeText } from './html-escape.js';
import { childBase, refusedLink, resolveUrl } from './links.js';
import type { Adapted } from './rss.js';
import { collapse } from './plain-text.js';
import type { FeedEntry } from './types.js';
import { ATTRS, attr, kids, textOf, type XmlDocument, type XObj } from './xml.js';

/**
 * Microsoft's Channel Definition Format (CDF, 1997), still served by a few old sites:
 * `<CHANNEL HREF LASTMOD><TITLE/><ABSTRACT/><LOGO HREF/><ITEM HREF LASTMOD>...</ITEM></CHANNEL>`.
 * Element and attribute names are case-insensitive in the wild (upper case by the spec).
 * A channel's HREF is the site, an item's HREF the article; ABSTRACT is the description.
 */
export function isCdf(doc: XmlDocument): boolean {
  if (!/^channel$/i.test(doc.rootName)) return false;
  if (doc.rootName === 'CHANNEL') return true;
  // a bare lower-case <channel> is RSS 0.9x unless it speaks CDF (HREF attributes, ABSTRACT, ITEM HREF)
  const root = doc.root;
  return anyAttr(root, 'href') !== undefined || childrenNamed(root, 'abstract').length > 0 || childrenNamed(root, 'item').some((i) => anyAttr(i, 'href') !== undefined);
}

export function adaptCdf(doc: XmlDocument, docBase: string | null): Adapted {
  const ents = doc.entities;
  const root = doc.root;
  const base = childBase(attr(root, 'xml:base', ents), docBase);
  const logo = childrenNamed(root, 'logo')[0];
  const entries = channelItems(root, base, ents).map(([item, itemBase]) => cdfEntry(item, ents, itemBase));
  return {
    feed: {
      title: text(root, 'title', ents),
      link: resolveUrl(anyAttr(root, 'href', ents), base),
      description: text(root, 'abstract', ents),
      language: null,
      published: null,
      updated: feedDateIso(anyAttr(root, 'lastmod', ents)),
      image: logo ? resolveUrl(anyAttr(logo, 'href', ents), base) : null,
    },
    entries,
    meta: { format: 'cdf', ttlMinutes: null, hubs: [], self: null },
  };
}

/**
 * Items of a channel and of its sub-channels (CDF nests channels for sections), in document
 * order per level, each with its base.
 */
function channelItems(channel: unknown, base: string | null, ents: EntityContext, depth = 0): [unknown, string | null][] {
  const out: [unknown, string | null][] = childrenNamed(channel, 'item').map((i) => [i, base]);
  if (depth < 8) {
    for (const sub of childrenNamed(channel, 'channel')) out.push(...channelItems(sub, childBase(attr(sub, 'xml:base', ents), base), ents, depth + 1));
  }
  return out;
}

function cdfEntry(item: unknown, ents: EntityContext, base: string | null): FeedEntry {
  const href = anyAttr(item, 'href', ents);
  const link = resolveUrl(href, base);
  const refused = link ? undefined : refusedLink(href);
  const logo = childrenNamed(item, 'logo')[0];
  return {
    title: text(item, 'title', ents),
    link,
    id: link,
    published: null,
    updated: feedDateIso(anyAttr(item, 'lastmod', ents)),
    summary: html(text(item, 'abstract', ents)),
    content: null,
    author: null,
    categories: [],
    enclosures: [],
    thumbnail: logo ? resolveUrl(anyAttr(logo, 'href', ents), base) : null,
    ...(refused ? { refusedLink: refused } : {}),
  };
}

/** Children whose name matches case-insensitively. */
function childrenNamed(node: unknown, lower: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const out: unknown[] = [];
  for (const k of Object.keys(node as XObj)) if (k.toLowerCase() === lower) out.push(...kids(node, k));
  return out;
}

/** An attribute whose name matches case-insensitively, entity-decoded (undefined when absent). */
function anyAttr(node: unknown, lower: string, ents?: EntityContext): string | undefined {
  const group = node && typeof node === 'object' ? (node as XObj)[ATTRS] : undefined;
  if (!group || typeof group !== 'object') return undefined;
  for (const k of Object.keys(group as XObj)) if (k.toLowerCase() === lower) return ents ? attr(node, k, ents) : String((group as XObj)[k]);
  return undefined;
}

function text(node: unknown, lower: string, ents: EntityContext): string | null {
  const n = childrenNamed(node, lower)[0];
  if (n === undefined) return null;
  const t = collapse(textOf(n, ents));
  return t === '' ? null : t;
}

/** Entry summaries are HTML: a plain abstract is escaped. */
function html(t: string | null): string | null {
  return t === null ? null : escapeText(t);
}
