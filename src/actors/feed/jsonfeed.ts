import { feedDateIso } from './dates.js';
import { FeedParseError } from './errors.js';
import { cleanAuthor, cleanLanguage, distinct, distinctEnclosures, distinctLabels } from './fields.js';
import { refusedLink, resolveUrl } from './links.js';
import type { Adapted } from './rss.js';
import { collapse } from './plain-text.js';
import { escapeText } from './html-escape.js';
import { sanitizeHtml } from './sanitize.js';
import type { Enclosure, FeedEntry } from './types.js';

/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1). */

type J = Record<string, unknown>;

function obj(v: unknown): J | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as J) : null;
}

function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function authorsOf(o: J): string[] {
  const list = [...arr(o.authors), ...(o.author !== undefined ? [o.author] : [])];
  return distinct(list.map((a) => cleanAuthor(str(obj(a)?.name))));
}

export function adaptJsonFeed(text: string, docBase: string | null): Adapted {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FeedParseError('PARSE_MALFORMED', `malformed JSON: ${(err as Error).message.slice(0, 200)}`, err);
  }
  const root = obj(data);
  const version = str(root?.version) ?? '';
  if (!root || !/^https?:\/\/jsonfeed\.org\/version\/1(\.\d+)?\/?$/.test(version)) {
    throw new FeedParseError('PARSE_UNSUPPORTED', 'JSON document is not a JSON Feed (no jsonfeed.org version)');
  }
  const feedUrl = resolveUrl(str(root.feed_url), docBase);
  const home = resolveUrl(str(root.home_page_url), docBase ?? feedUrl);
  const base = docBase ?? feedUrl ?? home;
  const feedAuthors = authorsOf(root);
  const hubs = distinct(arr(root.hubs).map((h) => resolveUrl(str(obj(h)?.url), base)));

  const entries: FeedEntry[] = [];
  for (const raw of arr(root.items)) {
    const it = obj(raw);
    if (!it) continue;
    const link = resolveUrl(str(it.url), base) ?? resolveUrl(str(it.external_url), base);
    const contentHtml = str(it.content_html);
    const contentText = str(it.content_text);
    const content = contentHtml ? sanitizeHtml(contentHtml, link ?? base) : null;
    const summaryText = str(it.summary);
    const enclosures: Enclosure[] = [];
    for (const a of arr(it.attachments)) {
      const ao = obj(a);
      const url = resolveUrl(str(ao?.url), base);
      if (!ao || !url) continue;
      const size = ao.size_in_bytes;
      enclosures.push({
        url,
        type: str(ao.mime_type),
        length: typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : null,
      });
    }
    const encl = distinctEnclosures(enclosures);
    const authors = authorsOf(it);
    const title = str(it.title);
    const contentOut = content?.html.trim() || (contentText ? escapeText(contentText.trim()) : null) || null;
    entries.push({
      title: title ? collapse(title) || null : null,
      link,
      id: str(it.id) ?? link,
      published: feedDateIso(str(it.date_published)),
      updated: feedDateIso(str(it.date_modified)),
      summary: summaryText && summaryText.trim() ? escapeText(collapse(summaryText)) : null,
      content: contentOut,
      author: (authors.length > 0 ? authors : feedAuthors).join(', ') || null,
      categories: distinctLabels(arr(it.tags).map(str)),
      enclosures: encl,
      thumbnail:
        resolveUrl(str(it.image), base) ??
        resolveUrl(str(it.banner_image), base) ??
        encl.find((e) => e.type?.startsWith('image/'))?.url ??
        content?.firstImage ??
        null,
      ...(link ? {} : optional(refusedLink(str(it.url), str(it.external_url)))),
    });
  }
  const title = str(root.title);
  const description = str(root.description);
  return {
    feed: {
      title: title ? collapse(title) || null : null,
      link: home,
      description: description ? collapse(description) || null : null,
      language: cleanLanguage(str(root.language)),
      published: null,
      updated: null,
      image: resolveUrl(str(root.icon), base) ?? resolveUrl(str(root.favicon), base),
    },
    entries,
    meta: { format: 'jsonfeed', ttlMinutes: null, hubs, self: feedUrl },
  };
}

function optional(refused: string | undefined): { refusedLink?: string } {
  return refused ? { refusedLink: refused } : {};
}
