import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FeedEntry, ParsedFeed } from '../../src/actors/publisher/types.js';

/**
 * A minimal RSS 2.0 reader for the publisher tests only (the real parser is another module):
 * enough to turn the test server's feeds into the `parseFeed` shape, and to throw on bad XML.
 */
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'item' || name === 'atom:link' });

function text(v: unknown): string | null {
  if (v == null) return null;
  if (typeof v === 'object') return text((v as Record<string, unknown>)['#text']);
  return String(v);
}

export function parseMiniRss(body: Uint8Array | string, opts: { baseUrl: string }): ParsedFeed {
  const xml = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  if (XMLValidator.validate(xml) !== true) throw new Error('malformed XML');
  const doc = parser.parse(xml) as { rss?: { channel?: Record<string, unknown> } };
  const ch = doc.rss?.channel;
  if (!ch) throw new Error('not an RSS document');
  const links = (ch['atom:link'] as Record<string, string>[] | undefined) ?? [];
  const items = (ch['item'] as Record<string, unknown>[] | undefined) ?? [];
  const entries: FeedEntry[] = items.map((it) => {
    const pub = text(it['pubDate']);
    const link = text(it['link']);
    return {
      title: text(it['title']),
      link: link ? new URL(link, opts.baseUrl).href : null,
      id: text(it['guid']),
      published: pub ? new Date(pub).toISOString() : null,
      updated: null,
      summary: text(it['description']),
      content: null,
    };
  });
  const ttl = Number(text(ch['ttl']));
  return {
    feed: { title: text(ch['title']), link: text(ch['link']), language: null },
    entries,
    meta: {
      ttlMinutes: Number.isFinite(ttl) && ttl > 0 ? ttl : null,
      hubs: links.filter((l) => l['@rel'] === 'hub').map((l) => l['@href']!),
      self: links.find((l) => l['@rel'] === 'self')?.['@href'] ?? null,
    },
  };
}
