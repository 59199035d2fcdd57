import { XMLParser } from 'fast-xml-parser';
import { EntityContext, stripDoctype } from './entities.js';
import { FeedParseError } from './errors.js';
import { readRoot, tagNameRewriter, type RootInfo } from './namespaces.js';
import { repairCandidates } from './xml-repair.js';

/**
 * The XML front end: fast-xml-parser with entities off (we decode with the full HTML table),
 * tag values kept as strings (a guid `000123` must stay `000123`), DOCTYPE removed beforehand
 * (no DTD is ever fetched, declared entities are expanded under a budget), namespace prefixes
 * rewritten to canonical ones, and text constructs kept raw as stop nodes so CDATA, escaped
 * HTML and inline XHTML can be told apart later.
 */

/** A parsed element: a string when it had only text, else an object of children. */
export type XNode = string | XObj;
export interface XObj {
  [name: string]: unknown;
}

export const ATTRS = '@';
export const TEXT = '#text';
export const CDATA = '#cdata';

/** Elements whose content is read raw (text constructs that may hold HTML or XHTML). */
const STOP_TAGS = [
  'title', 'description', 'summary', 'content', 'subtitle', 'tagline', 'info', 'rights', 'copyright',
  'content:encoded', 'itunes:summary', 'itunes:subtitle', 'media:description', 'media:title', 'dc:description', 'dc:title',
  'atom:title', 'atom:summary', 'atom:content', 'body', 'xhtml:body',
];

export const XML_LIMITS = {
  /** elements nested deeper than this are refused (PARSE_TOO_DEEP) */
  maxDepth: 128,
};

export interface XmlDocument {
  /** the root element's name after prefix rewriting */
  rootName: string;
  root: XObj;
  info: RootInfo;
  entities: EntityContext;
}

/** The document being parsed right now decides the rewriting (parsing is synchronous). */
let rewriteTag: (name: string) => string = (n) => n;

function makeParser(rewrite: boolean): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    attributesGroupName: ATTRS,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    cdataPropName: CDATA,
    ignoreDeclaration: true,
    ignorePiTags: true,
    stopNodes: STOP_TAGS.map((t) => `..${t}`),
    maxNestedTags: XML_LIMITS.maxDepth,
    jPath: false,
    // a name hook costs ~20 % of the parse, so it is only installed when a document needs it
    ...(rewrite ? { transformTagName: (name: string) => rewriteTag(name) } : {}),
  });
}

const FEED_ROOT = /^(?:rss|feed|rdf:RDF|channel|[\w.-]+:(?:rss|feed|RDF))$/i;

/** Parsers are reused: building the options costs more than parsing a small feed. */
const plainParser = makeParser(false);
const rewritingParser = makeParser(true);

/** Parse a decoded XML document; throws FeedParseError with a precise code. */
export function parseXml(text: string): XmlDocument {
  const prolog = stripDoctype(text);
  const xml = prolog.xml;
  const info = readRoot(xml);
  // an HTML DOCTYPE is a web page, unless a feed's root follows it (copied templates do that)
  if (prolog.doctypeName === 'html' && !(info && FEED_ROOT.test(info.name))) throw new FeedParseError('PARSE_UNSUPPORTED', 'an HTML page, not a feed');
  if (!info) throw new FeedParseError('PARSE_MALFORMED', 'no root element found');
  if (/^html$/i.test(info.name)) throw new FeedParseError('PARSE_UNSUPPORTED', 'an HTML page, not a feed');
  const rewrite = tagNameRewriter(xml, info);
  const parser = rewrite ? rewritingParser : plainParser;
  if (rewrite) rewriteTag = rewrite;
  let parsed: XObj;
  try {
    parsed = parser.parse(xml) as XObj;
  } catch (err) {
    const failure = classify(err);
    if (failure.code !== 'PARSE_MALFORMED') throw failure;
    const repaired = repairCandidates(xml).map((candidate) => {
      try {
        return parser.parse(candidate) as XObj;
      } catch {
        return null;
      }
    }).find((r) => r !== null);
    if (!repaired) throw failure;
    parsed = repaired;
  }
  for (const key of Object.keys(parsed)) {
    if (key === ATTRS || key === TEXT || key === CDATA || key.startsWith('?')) continue;
    const v = parsed[key];
    const root = Array.isArray(v) ? v[0] : v;
    return { rootName: key, root: typeof root === 'object' && root !== null ? (root as XObj) : {}, info, entities: prolog.entities };
  }
  throw new FeedParseError('PARSE_MALFORMED', 'no root element found');
}

/** A parser exception as the FeedParseError it means. */
function classify(err: unknown): FeedParseError {
  if (err instanceof FeedParseError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError || /nested tags/i.test(msg)) {
    return new FeedParseError('PARSE_TOO_DEEP', `elements nested deeper than ${XML_LIMITS.maxDepth}`, err);
  }
  return new FeedParseError('PARSE_MALFORMED', `malformed XML: ${msg.slice(0, 200)}`, err);
}

// ---- tree access ------------------------------------------------------------------------------

/** All children called `name` (repeated elements come back as arrays from the parser). */
export function kids(node: unknown, name: string): XNode[] {
  if (typeof node !== 'object' || node === null) return [];
  const v = (node as XObj)[name];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]) as XNode[];
}

/** The first child called `name`. */
export function kid(node: unknown, name: string): XNode | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const v = (node as XObj)[name];
  if (v === undefined || v === null) return undefined;
  return (Array.isArray(v) ? v[0] : v) as XNode;
}

/** The first child among several names, in order of preference. */
export function kidOf(node: unknown, names: readonly string[]): XNode | undefined {
  for (const n of names) {
    const k = kid(node, n);
    if (k !== undefined) return k;
  }
  return undefined;
}

/** A raw attribute value (entities not yet decoded). */
export function rawAttr(node: unknown, name: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const a = (node as XObj)[ATTRS] as Record<string, unknown> | undefined;
  const v = a?.[name];
  return typeof v === 'string' ? v : undefined;
}

/** An attribute value with entities decoded. */
export function attr(node: unknown, name: string, ents: EntityContext): string | undefined {
  const v = rawAttr(node, name);
  return v === undefined ? undefined : ents.attr(v);
}

/** Text of a simple (non-stop) element: character data decoded, CDATA verbatim, trimmed. */
export function textOf(node: unknown, ents: EntityContext): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return ents.text(node).trim();
  if (typeof node !== 'object') return String(node);
  const o = node as XObj;
  let out = '';
  const t = o[TEXT];
  if (typeof t === 'string') out += ents.text(t);
  const c = o[CDATA];
  if (typeof c === 'string') out += c;
  else if (Array.isArray(c)) out += c.map((x) => (typeof x === 'string' ? x : '')).join('');
  return out.trim();
}

/** The raw inner markup of a stop node. */
export function rawOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node === 'object' && node !== null) {
    const t = (node as XObj)[TEXT];
    if (typeof t === 'string') return t;
  }
  return '';
}
