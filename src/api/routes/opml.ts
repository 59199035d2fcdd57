import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { stripDoctype } from '../../actors/feed/entities.js';
import { OpmlInvalidError } from '../../actors/publisher/errors.js';
import type { NewPublisher, PublisherRow } from '../../actors/store/publishers.js';

/**
 * OPML 1.0/2.0 for the admin routes: read publisher outlines (nested folders flattened; a folder's
 * `text` becomes the category hint of outlines without one) and write the publisher list back.
 * A small local codec because the publisher package has none yet; the hostile-input rules follow
 * the feed parser: no DTD, no entity expansion beyond the predefined ones, bounded depth and size.
 */

export interface OpmlOutline {
  name: string;
  feed_url: string;
  site_url: string | null;
  category: string | null;
  country: string | null;
  language: string | null;
}

export interface OpmlParseResult {
  title: string | null;
  outlines: OpmlOutline[];
  /** outlines skipped, with why (missing or unusable xmlUrl) */
  rejected: { text: string; reason: string }[];
}

export const OPML_LIMITS = { maxOutlines: 50_000, maxDepth: 32 };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: OPML_LIMITS.maxDepth + 4,
  isArray: (name) => name === 'outline',
});

type Node = { '@'?: Record<string, string>; outline?: Node[] } & Record<string, unknown>;

/** Parses an OPML document; a document that is not OPML at all throws OpmlInvalidError. */
export function parseOpml(text: string): OpmlParseResult {
  let doc: Record<string, unknown>;
  try {
    const { xml, entities } = stripDoctype(text);
    doc = parser.parse(xml) as Record<string, unknown>;
    const opml = doc.opml as Node | undefined;
    if (!opml || typeof opml !== 'object') throw new OpmlInvalidError('the document is not OPML (no <opml> root)');
    const head = opml.head as Record<string, unknown> | undefined;
    const rawTitle = head && typeof head.title === 'string' ? entities.text(head.title).trim() : null;
    const body = opml.body as Node | undefined;
    const out: OpmlParseResult = { title: rawTitle || null, outlines: [], rejected: [] };
    const seen = new Set<string>();
    const walk = (nodes: Node[] | undefined, folder: string | null, depth: number) => {
      for (const n of nodes ?? []) {
        if (out.outlines.length + out.rejected.length >= OPML_LIMITS.maxOutlines) return;
        const a = n['@'] ?? {};
        const get = (k: string) => (typeof a[k] === 'string' && a[k] !== '' ? entities.attr(a[k]).trim() : null);
        const name = get('title') ?? get('text');
        const xmlUrl = get('xmlUrl') ?? get('xmlurl');
        if (xmlUrl === null) {
          if (n.outline && depth < OPML_LIMITS.maxDepth) walk(n.outline, name ?? folder, depth + 1);
          else if (!n.outline) out.rejected.push({ text: (name ?? '').slice(0, 100), reason: 'no xmlUrl' });
          continue;
        }
        const feed = httpUrl(xmlUrl);
        if (!feed) {
          out.rejected.push({ text: (name ?? xmlUrl).slice(0, 100), reason: 'xmlUrl is not an http(s) URL' });
          continue;
        }
        if (seen.has(feed)) continue;
        seen.add(feed);
        const country = get('newsagg:country') ?? get('country');
        out.outlines.push({
          name: (name ?? new URL(feed).hostname).slice(0, 200),
          feed_url: feed,
          site_url: httpUrl(get('htmlUrl') ?? ''),
          category: (get('category') ?? folder)?.split(/[,/]/)[0]?.trim().toLowerCase().slice(0, 40) || null,
          country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
          language: get('language'),
        });
      }
    };
    walk(body?.outline, null, 0);
    return out;
  } catch (err) {
    if (err instanceof OpmlInvalidError) throw err;
    throw new OpmlInvalidError(`malformed OPML: ${(err instanceof Error ? err.message : String(err)).slice(0, 200)}`, err);
  }
}

/** OPML 2.0 of the given publishers, with country and tier in the newsagg namespace. */
export function buildOpml(title: string, publishers: readonly PublisherRow[], now: number): string {
  const lines = publishers.map((p) => {
    const attrs: [string, string | null][] = [
      ['type', 'rss'], ['text', p.name], ['title', p.name], ['xmlUrl', p.feed_url], ['htmlUrl', p.site_url],
      ['category', p.category], ['newsagg:country', p.country], ['newsagg:tier', String(p.tier)],
    ];
    return `    <outline ${attrs.filter(([, v]) => v !== null && v !== '').map(([k, v]) => `${k}="${escapeXml(v!)}"`).join(' ')}/>`;
  });
  return '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0" xmlns:newsagg="https://newsagg.invalid/ns/opml/1">\n'
    + `  <head>\n    <title>${escapeXml(title)}</title>\n    <dateCreated>${new Date(now).toUTCString()}</dateCreated>\n  </head>\n`
    + `  <body>\n${lines.join('\n')}${lines.length ? '\n' : ''}  </body>\n</opml>\n`;
}

/** A stable publisher id for a feed URL, so importing the same list twice adds nothing. */
export function publisherIdFor(feedUrl: string): string {
  return `pub_${createHash('sha256').update(feedUrl).digest('hex').slice(0, 20)}`;
}

export function toNewPublisher(o: OpmlOutline, region: string | null): NewPublisher {
  return { id: publisherIdFor(o.feed_url), name: o.name, feed_url: o.feed_url, site_url: o.site_url, country: o.country, region, category: o.category };
}

/** The URL normalised by WHATWG parsing when it is absolute http(s), else null. */
export function httpUrl(s: string): string | null {
  if (!s || s.length > 2048) return null;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' ? u.href : null;
  } catch {
    return null;
  }
}

function escapeXml(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
}
