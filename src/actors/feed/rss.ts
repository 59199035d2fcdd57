import type { EntityContext } from './entities.js';
import {
  atomLinks, cleanAuthor, cleanLanguage, distinct, distinctEnclosures, distinctLabels, firstDate, firstText, texts, toLength,
} from './fields.js';
import { childBase, refusedLink, resolveUrl } from './links.js';
import { atomKind, constructHtml, constructText } from './text.js';
import { extensionCategories, itunesImage, mediaCredits, mediaEnclosures } from './extensions.js';
import { pickThumbnail } from './thumbnails.js';
import type { Enclosure, FeedEntry, FeedFormat, FeedInfo, FeedMeta } from './types.js';
import { attr, kid, kidOf, kids, textOf, type XmlDocument, type XNode, type XObj } from './xml.js';

/**
 * RSS 0.9x, 2.0 and RSS 1.0 / 0.90 (RDF). RDF differs only in where items and the image live
 * (siblings of `<channel>` under `rdf:RDF`) and in using Dublin Core for dates and authors, so
 * one adapter serves all; Atom, Dublin Core, Media RSS, iTunes and content:encoded extensions
 * are read wherever they appear.
 */

export type Adapted = { feed: FeedInfo; entries: FeedEntry[]; meta: Omit<FeedMeta, 'encoding'> };

export function rssFormat(doc: XmlDocument): FeedFormat {
  if (doc.rootName !== 'rss') return doc.info.defaultNs.includes('netscape') || doc.info.attrs.includes('rdf/simple/0.9') ? 'rss09' : 'rss1';
  const v = (attr(doc.root, 'version', doc.entities) ?? '').trim();
  return /^0\.9/.test(v) ? 'rss09' : 'rss2';
}

export function adaptRss(doc: XmlDocument, docBase: string | null, format: FeedFormat): Adapted {
  const ents = doc.entities;
  const root = doc.root;
  const rootBase = childBase(attr(root, 'xml:base', ents), docBase);
  const chNode = kid(root, 'channel');
  const channel: XObj = typeof chNode === 'object' ? chNode : {};
  const base = childBase(attr(channel, 'xml:base', ents), rootBase);
  const items = withNested([...kids(channel, 'item'), ...kids(root, 'item')]);

  const links = atomLinks(channel, ents, base, 'atom:link');
  const feed: FeedInfo = {
    title: constructText(kid(channel, 'title'), 'rss', ents) || firstText(channel, ['dc:title'], ents),
    link: rssLink(channel, ents, base) ?? links.alternate,
    description: constructText(kidOf(channel, ['description', 'dc:description', 'itunes:summary', 'itunes:subtitle']), 'rss', ents) || null,
    language: cleanLanguage(
      firstText(channel, ['language', 'dc:language'], ents) ?? attr(channel, 'xml:lang', ents) ?? attr(root, 'xml:lang', ents),
    ),
    published: firstDate(channel, ['pubDate', 'dc:date', 'dcterms:issued'], ents),
    updated: firstDate(channel, ['lastBuildDate', 'atom:updated', 'dcterms:modified', 'dc:date'], ents),
    image: feedImage(root, channel, ents, base),
  };
  if (feed.title === '') feed.title = null;

  const ttl = Number.parseInt(firstText(channel, ['ttl'], ents) ?? '', 10);
  const meta: Adapted['meta'] = {
    format,
    ttlMinutes: Number.isFinite(ttl) && ttl >= 0 ? ttl : null,
    hubs: links.hubs,
    self: links.self,
  };
  const skipHours = texts(kid(channel, 'skipHours'), 'hour', ents).map((h) => Number.parseInt(h, 10)).filter((h) => h >= 0 && h <= 24);
  if (skipHours.length > 0) meta.skipHours = [...new Set(skipHours.map((h) => h % 24))];
  const skipDays = distinct(texts(kid(channel, 'skipDays'), 'day', ents));
  if (skipDays.length > 0) meta.skipDays = skipDays;

  const entries = items.map((item) => rssEntry(item, ents, base));
  return { feed, entries, meta };
}

/**
 * Items, each followed by the items nested in it: an item whose `</item>` was forgotten swallows
 * the next one (the XML parser closes it at `</channel>`), and an item inside an item is never
 * meant as part of it.
 */
function withNested(items: XNode[], depth = 0): XNode[] {
  let out: XNode[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const inner = depth < 64 ? kids(items[i], 'item') : [];
    if (inner.length === 0) {
      out?.push(items[i]!);
      continue;
    }
    out ??= items.slice(0, i);
    out.push(items[i]!, ...withNested(inner, depth + 1));
  }
  return out ?? items;
}

/** The RSS `<link>` text (or a stray `href`), resolved. */
function rssLink(node: unknown, ents: EntityContext, base: string | null): string | null {
  for (const l of kids(node, 'link')) {
    const u = resolveUrl(attr(l, 'href', ents) ?? textOf(l, ents), childBase(attr(l, 'xml:base', ents), base));
    if (u) return u;
  }
  return null;
}

function feedImage(root: unknown, channel: unknown, ents: EntityContext, base: string | null): string | null {
  for (const img of [...kids(channel, 'image'), ...kids(root, 'image')]) {
    const u = resolveUrl(firstText(img, ['url'], ents) ?? attr(img, 'rdf:resource', ents) ?? attr(img, 'href', ents), base);
    if (u) return u;
  }
  const u = itunesImage(channel, ents, base);
  if (u) return u;
  return resolveUrl(firstText(channel, ['atom:logo', 'atom:icon'], ents), base);
}

function rssEntry(item: unknown, ents: EntityContext, parentBase: string | null): FeedEntry {
  const base = childBase(attr(item, 'xml:base', ents), parentBase);
  const guidNode = kid(item, 'guid');
  const guid = guidNode === undefined ? null : textOf(guidNode, ents) || null;
  const permalink = (attr(guidNode, 'isPermaLink', ents) ?? 'true').trim().toLowerCase() !== 'false';
  const links = atomLinks(item, ents, base, 'atom:link');

  let link =
    resolveUrl(firstText(item, ['feedburner:origLink'], ents), base) ??
    rssLink(item, ents, base) ??
    links.alternate;
  if (!link && guid && permalink && /^https?:\/\//i.test(guid)) link = resolveUrl(guid, base);
  if (!link) link = resolveUrl(attr(item, 'rdf:about', ents), base);

  const enclosures: Enclosure[] = [];
  for (const e of kids(item, 'enclosure')) {
    const url = resolveUrl(attr(e, 'url', ents), base);
    if (url) enclosures.push({ url, type: attr(e, 'type', ents)?.trim() || null, length: toLength(attr(e, 'length', ents)) });
  }
  enclosures.push(...links.enclosures, ...mediaEnclosures(item, ents, base));

  const contentNode = kidOf(item, ['content:encoded', 'xhtml:body', 'body']);
  const atomContent = kid(item, 'atom:content');
  const content =
    constructHtml(contentNode, 'html', base, ents) ??
    (atomContent !== undefined ? constructHtml(atomContent, atomKind(atomContent, ents).kind, base, ents) : null);
  const summaryNode = kidOf(item, ['description', 'dc:description']);
  const atomSummary = kid(item, 'atom:summary');
  const summary =
    constructHtml(summaryNode, 'html', base, ents) ??
    (atomSummary !== undefined ? constructHtml(atomSummary, atomKind(atomSummary, ents).kind, base, ents) : null) ??
    constructHtml(kid(item, 'itunes:summary'), 'text', base, ents) ??
    constructHtml(kid(kid(item, 'media:group'), 'media:description') ?? kid(item, 'media:description'), 'text', base, ents) ??
    constructHtml(kid(item, 'itunes:subtitle'), 'text', base, ents);

  const titleNode = kid(item, 'title');
  const atomTitle = kid(item, 'atom:title');
  const title =
    constructText(titleNode, 'rss', ents) ||
    (atomTitle !== undefined ? constructText(atomTitle, atomKind(atomTitle, ents).kind, ents) : '') ||
    constructText(kid(item, 'dc:title'), 'rss', ents) ||
    constructText(kid(item, 'media:title') ?? kid(kid(item, 'media:group'), 'media:title') ?? kid(kid(item, 'media:content'), 'media:title'), 'rss', ents);

  const authorNames = [
    ...texts(item, 'author', ents),
    ...texts(item, 'dc:creator', ents),
    ...kids(item, 'atom:author').map((a) => firstText(a, ['atom:name', 'name', 'atom:email', 'email'], ents)),
    ...texts(item, 'itunes:author', ents),
  ].map(cleanAuthor);
  if (authorNames.every((a) => !a)) authorNames.push(...mediaCredits(item, ents));
  const authors = distinct(authorNames);

  const categories = distinctLabels([
    ...texts(item, 'category', ents),
    ...texts(item, 'dc:subject', ents),
    ...kids(item, 'atom:category').map((c) => attr(c, 'label', ents) ?? attr(c, 'term', ents)),
    ...extensionCategories(item, ents),
  ]);

  const encl = distinctEnclosures(enclosures);
  const refused = link ? undefined : refusedLink(...kids(item, 'link').map((l) => attr(l, 'href', ents) ?? textOf(l, ents)), ...kids(item, 'atom:link').map((l) => attr(l, 'href', ents)));
  return {
    title: title || null,
    link,
    id: guid ?? attr(item, 'rdf:about', ents) ?? firstText(item, ['atom:id', 'dc:identifier'], ents) ?? link,
    published: firstDate(item, ['pubDate', 'dc:date', 'dcterms:issued', 'dcterms:created', 'atom:published', 'issued'], ents),
    updated: firstDate(item, ['atom:updated', 'dcterms:modified', 'lastBuildDate'], ents),
    summary: summary?.html ?? null,
    content: content?.html ?? null,
    author: authors.length > 0 ? authors.join(', ') : null,
    categories,
    enclosures: encl,
    thumbnail: pickThumbnail(item, base, ents, encl, content?.firstImage ?? summary?.firstImage ?? null),
    ...(refused ? { refusedLink: refused } : {}),
  };
}
