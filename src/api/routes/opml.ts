import { buildOpml as buildDocument, parseOpml as parseDocument, publisherIdFor, type OpmlProblemReason } from '../../actors/publisher/opml.js';
import type { NewPublisher, PublisherRow } from '../../actors/store/publishers.js';

/**
 * The admin API's view of OPML, on the publisher module's codec (one parser for the CLI and the
 * API): outlines to add, and the ones refused with a reason a person can read.
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
  /** outlines skipped, with why */
  rejected: { text: string; reason: string }[];
}

const REASONS: Record<OpmlProblemReason, string> = {
  'no-url': 'no xmlUrl',
  'invalid-url': 'xmlUrl is not an http(s) URL',
  duplicate: 'duplicate xmlUrl',
  'too-deep': 'nested too deep',
  'too-many': 'too many outlines',
  'malformed-xml': 'malformed XML',
};

/** Parses an OPML document; a document that is not OPML at all throws OpmlInvalidError. */
export function readOpmlOutlines(text: string): OpmlParseResult {
  const doc = parseDocument(text);
  return {
    title: doc.title,
    outlines: doc.feeds.map((f) => ({ name: f.name, feed_url: f.feed_url, site_url: f.site_url, category: f.category, country: f.country, language: f.language })),
    rejected: doc.problems.map((p) => ({ text: p.text, reason: REASONS[p.reason] ?? p.reason })),
  };
}

export function publishersOpml(title: string, publishers: readonly PublisherRow[], now: number): string {
  return buildDocument(title, publishers.map((p) => ({ name: p.name, feed_url: p.feed_url, site_url: p.site_url, category: p.category, country: p.country })), now);
}

export { publisherIdFor };

export function toNewPublisher(o: OpmlOutline, region: string | null): NewPublisher {
  return { id: publisherIdFor(o.feed_url), name: o.name, feed_url: o.feed_url, site_url: o.site_url, country: o.country, region, category: o.category };
}

/** An absolute http(s) URL, normalised; null for anything else. */
export function httpUrl(s: string): string | null {
  if (!s || s.length > 2048) return null;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' ? u.href : null;
  } catch {
    return null;
  }
}
