import type { EntityContext } from './entities.js';
import { atomLinks, cleanAuthor, cleanLanguage, distinct, distinctEnclosures, distinctLabels, firstDate, firstText, texts } from './fields.js';
import { childBase, refusedLink, resolveUrl } from './links.js';
import { NS } from './namespaces.js';
import type { Adapted } from './rss.js';
import { atomKind, constructHtml, constructText } from './text.js';
import { mediaEnclosures } from './extensions.js';
import { pickThumbnail } from './thumbnails.js';
import type { FeedEntry, FeedFormat, FeedInfo } from './types.js';
import { attr, kid, kidOf, kids, type XmlDocument, type XNode } from './xml.js';

/**
 * Atom 1.0 and 0.3. The 0.3 names (`tagline`, `issued`, `modified`, `created`, `copyright`,
 * `mode` on content) map onto the 1.0 shape; text constructs keep their declared kind; every
 * URL resolves through the nested `xml:base` chain (feed → entry → element).
 */

export function atomFormat(doc: XmlDocument): FeedFormat {
  if (doc.info.ns === NS.atom03 || doc.info.defaultNs === NS.atom03) return 'atom03';
  const v = (attr(doc.root, 'version', doc.entities) ?? '').trim();
  return v === '0.3' ? 'atom03' : 'atom10';
}

function text(node: unknown, ents: EntityContext): string | null {
  if (node === undefined) return null;
  const k = atomKind(node, ents);
  return constructText(node, k.kind, ents, k.base64) || null;
}

function html(node: unknown, base: string | null, ents: EntityContext) {
  if (node === undefined) return null;
  const k = atomKind(node, ents);
  // out-of-line content (`src`) carries no text of its own
  if (attr(node, 'src', ents) !== undefined) return null;
  return constructHtml(node, k.kind, base, ents, k.base64);
}

/** Author display names: the name, else the email (a person given only by address), else bare text. */
function personNames(node: unknown, ents: EntityContext): string[] {
  return kids(node, 'author').map((a) => cleanAuthor(firstText(a, ['name', 'email'], ents) ?? (typeof a === 'string' ? a : null)) ?? '');
}

export function adaptAtom(doc: XmlDocument, docBase: string | null, format: FeedFormat): Adapted {
  const ents = doc.entities;
  const root = doc.root;
  const base = childBase(attr(root, 'xml:base', ents), docBase);
  const links = atomLinks(root, ents, base);
  const feedLang = attr(root, 'xml:lang', ents) ?? null;
  const feedAuthors = distinct(personNames(root, ents));

  const feed: FeedInfo = {
    title: text(kid(root, 'title'), ents),
    link: links.alternate,
    description: text(kidOf(root, ['subtitle', 'tagline', 'info']), ents),
    language: cleanLanguage(feedLang ?? firstText(root, ['dc:language'], ents)),
    published: firstDate(root, ['published', 'issued', 'created'], ents),
    updated: firstDate(root, ['updated', 'modified', 'dc:date'], ents),
    image: resolveUrl(firstText(root, ['logo', 'icon'], ents), base),
  };

  const entries = withNestedEntries(kids(root, 'entry')).map((e) => atomEntry(e, ents, base, feedAuthors));
  return {
    feed,
    entries,
    meta: { format, ttlMinutes: null, hubs: links.hubs, self: links.self },
  };
}

/** Entries, each followed by those nested in it (an entry whose `</entry>` was forgotten swallows the next). */
function withNestedEntries(entries: XNode[], depth = 0): XNode[] {
  if (depth >= 64 || !entries.some((e) => kids(e, 'entry').length > 0)) return entries;
  return entries.flatMap((e) => [e, ...withNestedEntries(kids(e, 'entry'), depth + 1)]);
}

function atomEntry(entry: unknown, ents: EntityContext, parentBase: string | null, feedAuthors: string[]): FeedEntry {
  const base = childBase(attr(entry, 'xml:base', ents), parentBase);
  const links = atomLinks(entry, ents, base);
  const source = kid(entry, 'source');

  const contentNode = kid(entry, 'content');
  const content = html(contentNode, base, ents);
  const summary = html(kid(entry, 'summary'), base, ents);

  let authors = distinct(personNames(entry, ents));
  if (authors.length === 0) authors = distinct([...personNames(source, ents), ...texts(entry, 'dc:creator', ents)]);
  if (authors.length === 0) authors = feedAuthors;

  const enclosures = distinctEnclosures([...links.enclosures, ...mediaEnclosures(entry, ents, base)]);
  const id = firstText(entry, ['id'], ents);
  const link = links.alternate ?? (id && /^https?:\/\//i.test(id) ? resolveUrl(id, base) : null);
  const refused = link
    ? undefined
    : refusedLink(...kids(entry, 'link').filter((l) => /^(alternate)?$/i.test((attr(l, 'rel', ents) ?? '').trim())).map((l) => attr(l, 'href', ents)));
  return {
    title: text(kid(entry, 'title'), ents),
    link,
    id: id ?? link,
    published: firstDate(entry, ['published', 'issued', 'created', 'dc:date', 'dcterms:issued'], ents),
    updated: firstDate(entry, ['updated', 'modified', 'dcterms:modified'], ents),
    summary: summary?.html ?? null,
    content: content?.html ?? null,
    author: authors.length > 0 ? authors.join(', ') : null,
    categories: distinctLabels([
      ...kids(entry, 'category').map((c) => attr(c, 'label', ents) ?? attr(c, 'term', ents) ?? (typeof c === 'string' ? c : null)),
      ...texts(entry, 'dc:subject', ents),
    ]),
    enclosures,
    thumbnail: pickThumbnail(entry, base, ents, enclosures, content?.firstImage ?? summary?.firstImage ?? null),
    ...(refused ? { refusedLink: refused } : {}),
  };
}
