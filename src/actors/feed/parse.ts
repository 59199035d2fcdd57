import { gunzipSync } from 'node:zlib';
import { adaptAtom, atomFormat } from './atom.js';
import { adaptCdf, isCdf } from './cdf.js';
import { decodeBody } from './encoding.js';
import { FeedParseError } from './errors.js';
import { adaptJsonFeed } from './jsonfeed.js';
import { adaptRss, rssFormat, type Adapted } from './rss.js';
import type { ParsedFeed, ParseOptions } from './types.js';
import { safeEntries, safeFeedInfo } from './storage-safe.js';
import { parseXml } from './xml.js';

export { FeedParseError } from './errors.js';
export type { FeedEntry, FeedFormat, FeedInfo, FeedMeta, ParsedFeed, ParseOptions } from './types.js';

/** Default cap on body size (the fetcher has its own, usually smaller, cap). */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Parse a feed body (RSS 0.9x/1.0/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1, CDF) into the normalised
 * shape. Throws `FeedParseError` (`PARSE_MALFORMED`, `PARSE_TOO_LARGE`, `PARSE_UNSUPPORTED`,
 * `PARSE_ENTITY_LIMIT`, `PARSE_TOO_DEEP`) and nothing else.
 */
export function parseFeed(body: Uint8Array | string, opts: ParseOptions = {}): ParsedFeed {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (size > maxBytes) throw new FeedParseError('PARSE_TOO_LARGE', `feed body of ${size} bytes exceeds the limit of ${maxBytes}`);
  if (size === 0) throw new FeedParseError('PARSE_MALFORMED', 'empty document');

  if (typeof body !== 'string') body = gunzipIfCompressed(body, maxBytes);
  const decoded = typeof body === 'string' ? { text: body.replace(/^\uFEFF/, ''), encoding: 'string' } : decodeBody(body, opts.contentType);
  const baseUrl = normaliseBase(opts.baseUrl);
  try {
    const adapted = adapt(decoded.text, baseUrl, opts.contentType);
    // text the database would refuse (NUL, lone surrogates) is cleaned here, where it enters
    return { feed: safeFeedInfo(adapted.feed), entries: safeEntries(adapted.entries), meta: { ...adapted.meta, encoding: decoded.encoding } };
  } catch (err) {
    if (err instanceof FeedParseError) throw err;
    // a bug of ours on hostile input must still surface as a parse failure, not a crash
    const msg = err instanceof Error ? err.message : String(err);
    if (err instanceof RangeError) throw new FeedParseError('PARSE_TOO_DEEP', `document too deeply nested: ${msg}`, err);
    throw new FeedParseError('PARSE_MALFORMED', `could not read feed: ${msg.slice(0, 200)}`, err);
  }
}

/**
 * A gzip body (a `.xml.gz` served without Content-Encoding, or a file saved compressed) is
 * inflated, capped at `maxBytes` so a decompression bomb fails as PARSE_TOO_LARGE.
 */
function gunzipIfCompressed(body: Uint8Array, maxBytes: number): Uint8Array {
  if (body.length < 18 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FeedParseError('PARSE_TOO_LARGE', `decompressed feed exceeds the limit of ${maxBytes} bytes`, err);
    }
    throw new FeedParseError('PARSE_MALFORMED', `corrupt gzip body: ${(err as Error).message}`, err);
  }
}

function normaliseBase(u: string | undefined): string | null {
  if (!u) return null;
  try {
    return new URL(u).href;
  } catch {
    return null;
  }
}

function adapt(text: string, base: string | null, contentType: string | undefined): Adapted {
  let start = firstNonSpace(text);
  if (start === -1) throw new FeedParseError('PARSE_MALFORMED', 'empty document');
  const ch = text[start];
  if (ch === '{' || (ch !== '<' && /json/i.test(contentType ?? ''))) return adaptJsonFeed(text.slice(start), base);
  if (ch !== '<') {
    // junk before the document (a PHP notice, a stray line): a feed's start tag soon after is read
    const at = FEED_START.exec(text.slice(start, start + 1024));
    if (!at) throw new FeedParseError('PARSE_UNSUPPORTED', 'neither XML nor JSON');
    start += at.index;
  }

  const doc = parseXml(start === 0 ? text : text.slice(start));
  const name = doc.rootName;
  if (name === 'rss' || name === 'rdf:RDF' || name === 'RDF') return adaptRss(doc, base, rssFormat(doc));
  if (name === 'feed') return adaptAtom(doc, base, atomFormat(doc));
  if (isCdf(doc)) return adaptCdf(doc, base);
  if (name === 'channel') return adaptRss({ ...doc, root: { channel: doc.root } }, base, 'rss09');
  if (/^html$/i.test(name)) throw new FeedParseError('PARSE_UNSUPPORTED', 'an HTML page, not a feed');
  throw new FeedParseError('PARSE_UNSUPPORTED', `not a feed: root element <${name.slice(0, 40)}>`);
}

/** Where a feed document starts: its XML declaration or a feed root's start tag. */
const FEED_START = /<(?:\?xml\s|rss[\s>]|feed[\s>]|rdf:RDF[\s>]|channel[\s>])/i;

function firstNonSpace(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 0xfeff) return i;
  }
  return -1;
}
