import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { stripDoctype } from '../feed/entities.js';
import { OpmlInvalidError } from './errors.js';

/**
 * OPML 1.0/2.0 publisher lists. Reading: outlines with an `xmlUrl` are feeds; outlines without
 * one are folders, and nested folders become the feed's categories (outermost first). Bad
 * outlines (no or unusable URL, duplicates, beyond the limits) are reported with their position,
 * never fatal; only a document that is not OPML at all throws. Writing groups feeds into one
 * folder per category, so export → import gives the same list back. Hostile input is handled
 * like feeds: no DTD, only predefined entities, bounded depth and size.
 */

export interface OpmlFeed {
  name: string;
  feed_url: string;
  site_url: string | null;
  /** the `category` attribute (last path segment of its first entry), else the innermost folder, lower-cased */
  category: string | null;
  /** the folder path, outermost first */
  folders: string[];
  country: string | null;
  language: string | null;
}

export type OpmlProblemReason = 'no-url' | 'invalid-url' | 'duplicate' | 'too-deep' | 'too-many' | 'malformed-xml';

export interface OpmlProblem {
  /** 1-based position among the document's outlines, in document order (0: the whole document) */
  position: number;
  text: string;
  url: string | null;
  reason: OpmlProblemReason;
}

export interface OpmlDocument {
  title: string | null;
  feeds: OpmlFeed[];
  problems: OpmlProblem[];
  /** outlines looked at (feeds, folders and rejects) */
  outlines: number;
}

export const OPML_LIMITS = { maxOutlines: 200_000, maxDepth: 32, maxBytes: 50 * 1024 * 1024 };

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
  maxNestedTags: OPML_LIMITS.maxDepth + 8,
  isArray: (name) => name === 'outline',
});

type XNode = { '@'?: Record<string, string>; outline?: XNode[] } & Record<string, unknown>;

/** An absolute http(s) URL, normalised by WHATWG parsing (fragment dropped), else null. */
export function feedUrl(s: string | null | undefined): string | null {
  if (!s || s.length > 2048) return null;
  try {
    const u = new URL(s.trim());
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/**
 * Last resort for documents the XML parser gives up on: find `<outline …>` tags and their nesting
 * with a scanner, reading attributes that are still well quoted. Returns the parser's shape.
 */
function scanOutlines(xml: string): Record<string, unknown> {
  const root: XNode = { outline: [] };
  const stack: XNode[] = [root];
  const tag = /<(\/?)outline\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/gi;
  const attr = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  const title = /<title>([^<]*)<\/title>/i.exec(xml)?.[1] ?? null;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    if (m[1]) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const a: Record<string, string> = {};
    for (let x = attr.exec(m[2]!); x; x = attr.exec(m[2]!)) a[x[1]!] = x[2] ?? x[3] ?? '';
    const node: XNode = { '@': a };
    const parent = stack[stack.length - 1]!;
    (parent.outline ??= []).push(node);
    if (!m[3] && stack.length <= OPML_LIMITS.maxDepth + 1) stack.push(node);
  }
  return { opml: { head: { title }, body: root } };
}

/** A stable publisher id for a feed URL (same formula as the admin API), so importing a list twice adds nothing. */
export function publisherIdFor(url: string): string {
  return `pub_${createHash('sha256').update(url).digest('hex').slice(0, 20)}`;
}

/** Reads an OPML document; throws OpmlInvalidError only when it is not OPML at all. */
export function parseOpml(text: string): OpmlDocument {
  if (text.length > OPML_LIMITS.maxBytes) throw new OpmlInvalidError(`OPML larger than ${OPML_LIMITS.maxBytes} bytes`);
  let doc: Record<string, unknown>;
  let ent: ReturnType<typeof stripDoctype>['entities'];
  let malformed: string | null = null;
  try {
    const prolog = stripDoctype(text);
    ent = prolog.entities;
    try {
      doc = parser.parse(prolog.xml, true) as Record<string, unknown>;
    } catch (err) {
      // real lists often carry unescaped quotes in descriptions: read what can be read, and say so
      malformed = (err instanceof Error ? err.message : String(err)).slice(0, 200);
      try {
        doc = parser.parse(prolog.xml) as Record<string, unknown>;
      } catch {
        doc = scanOutlines(prolog.xml);
      }
    }
  } catch (err) {
    throw new OpmlInvalidError(`malformed OPML: ${(err instanceof Error ? err.message : String(err)).slice(0, 200)}`, err);
  }
  const opml = doc['opml'] as XNode | undefined;
  if (!opml || typeof opml !== 'object') throw new OpmlInvalidError('the document is not OPML (no <opml> root)');
  const head = opml['head'] as Record<string, unknown> | undefined;
  const title = head && typeof head['title'] === 'string' ? ent.text(head['title']).trim() || null : null;
  const out: OpmlDocument = { title, feeds: [], problems: [], outlines: 0 };
  if (malformed) out.problems.push({ position: 0, text: malformed, url: null, reason: 'malformed-xml' });
  const seen = new Map<string, number>();

  const walk = (nodes: XNode[] | undefined, folders: string[]): void => {
    for (const n of nodes ?? []) {
      const position = ++out.outlines;
      const a = n['@'] ?? {};
      const get = (k: string): string | null => {
        const v = a[k] ?? a[k.toLowerCase()];
        return typeof v === 'string' && v.trim() !== '' ? ent.attr(v).trim() : null;
      };
      const name = get('title') ?? get('text');
      const rawUrl = get('xmlUrl');
      const report = (reason: OpmlProblemReason, url: string | null) => out.problems.push({ position, text: (name ?? '').slice(0, 200), url, reason });
      if (out.feeds.length >= OPML_LIMITS.maxOutlines) {
        report('too-many', rawUrl);
        continue;
      }
      if (rawUrl === null) {
        if (n.outline) {
          if (folders.length >= OPML_LIMITS.maxDepth) report('too-deep', null);
          else walk(n.outline, name ? [...folders, name.slice(0, 100)] : folders);
        } else report('no-url', null);
        continue;
      }
      const url = feedUrl(rawUrl);
      if (!url) {
        report('invalid-url', rawUrl.slice(0, 2048));
        continue;
      }
      if (seen.has(url)) {
        report('duplicate', url);
        continue;
      }
      seen.set(url, position);
      const attrCategory = get('category')?.split(',')[0]?.split('/').filter(Boolean).pop() ?? null;
      const country = get('newsagg:country') ?? get('country');
      out.feeds.push({
        name: (name ?? new URL(url).hostname).slice(0, 200),
        feed_url: url,
        site_url: feedUrl(get('htmlUrl')),
        category: (attrCategory ?? folders.at(-1))?.trim().toLowerCase().slice(0, 60) || null,
        folders,
        country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
        language: get('language')?.slice(0, 20) ?? null,
      });
      // a feed outline may itself hold outlines (rare, but valid): treat them as in its folder
      if (n.outline) walk(n.outline, folders);
    }
  };
  const body = opml['body'] as XNode | undefined;
  walk(body?.outline, []);
  return out;
}

export interface OpmlEntry {
  name: string;
  feed_url: string;
  site_url?: string | null;
  category?: string | null;
  country?: string | null;
  language?: string | null;
}

function esc(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
}

function outline(p: OpmlEntry, indent: string): string {
  const attrs: [string, string | null | undefined][] = [
    ['type', 'rss'],
    ['text', p.name],
    ['title', p.name],
    ['xmlUrl', p.feed_url],
    ['htmlUrl', p.site_url],
    ['category', p.category],
    ['language', p.language],
    ['newsagg:country', p.country],
  ];
  return `${indent}<outline ${attrs.filter(([, v]) => v != null && v !== '').map(([k, v]) => `${k}="${esc(v!)}"`).join(' ')}/>`;
}

/** OPML 2.0 with one folder per category (feeds without one at the top level). */
export function buildOpml(title: string, entries: Iterable<OpmlEntry>, now: number): string {
  const byCategory = new Map<string, OpmlEntry[]>();
  const loose: OpmlEntry[] = [];
  for (const e of entries) {
    if (e.category) {
      const list = byCategory.get(e.category) ?? [];
      list.push(e);
      byCategory.set(e.category, list);
    } else loose.push(e);
  }
  const lines: string[] = [];
  for (const [cat, list] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`    <outline text="${esc(cat)}" title="${esc(cat)}">`);
    for (const e of list) lines.push(outline(e, '      '));
    lines.push('    </outline>');
  }
  for (const e of loose) lines.push(outline(e, '    '));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<opml version="2.0" xmlns:newsagg="https://newsagg.invalid/ns/opml/1">\n' +
    `  <head>\n    <title>${esc(title)}</title>\n    <dateCreated>${new Date(now).toUTCString()}</dateCreated>\n  </head>\n` +
    `  <body>\n${lines.join('\n')}${lines.length ? '\n' : ''}  </body>\n</opml>\n`
  );
}
