/**
 * Namespace URI → canonical prefix. Feeds may bind any prefix (`m:thumbnail`, `a:link`); the
 * adapters only ever look at these canonical names, so a tag's name is rewritten while parsing.
 * Primary vocabularies (the root's own namespace) become unprefixed.
 */
export const NS = {
  atom10: 'http://www.w3.org/2005/Atom',
  atom03: 'http://purl.org/atom/ns#',
  rss10: 'http://purl.org/rss/1.0/',
  rss09: 'http://my.netscape.com/rdf/simple/0.9/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xhtml: 'http://www.w3.org/1999/xhtml',
} as const;

const KNOWN: Record<string, string> = {
  [NS.atom10]: 'atom',
  [NS.atom03]: 'atom03',
  [NS.rss10]: 'rss1',
  [NS.rss09]: 'rss09',
  [NS.rdf]: 'rdf',
  [NS.xhtml]: 'xhtml',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://www.itunes.com/DTDs/Podcast-1.0.dtd': 'itunes',
  'http://purl.org/rss/1.0/modules/syndication/': 'sy',
  'http://wellformedweb.org/CommentAPI/': 'wfw',
  'http://purl.org/syndication/thread/1.0': 'thr',
  'http://rssnamespace.org/feedburner/ext/1.0': 'feedburner',
  'http://purl.org/rss/1.0/modules/slash/': 'slash',
  'http://www.georss.org/georss': 'georss',
  'http://backend.userland.com/rss2': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
};

const PRIMARY = new Set<string>([NS.atom10, NS.atom03, NS.rss10, NS.rss09]);

export interface RootInfo {
  /** the root element's name as written */
  name: string;
  /** the root element's namespace URI ('' when none) */
  ns: string;
  /** the default namespace declared on the root ('' when none) */
  defaultNs: string;
  /** attributes of the root start tag, raw */
  attrs: string;
}

/** The first element's start tag, read without parsing the document. */
export function readRoot(xml: string): RootInfo | null {
  const re = /<([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/y;
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i + 1)) {
    const c = xml.charCodeAt(i + 1);
    if (c === 63 /* ? */) {
      const e = xml.indexOf('?>', i);
      if (e === -1) return null;
      i = e;
      continue;
    }
    if (c === 33 /* ! */) {
      const e = xml.startsWith('<!--', i) ? xml.indexOf('-->', i) : xml.indexOf('>', i);
      if (e === -1) return null;
      i = e;
      continue;
    }
    re.lastIndex = i;
    // unquoted or broken attributes on the root: read it loosely, the XML parser is lenient too
    const m = re.exec(xml) ?? /^<([A-Za-z_][\w.:-]*)([^>]*)>/.exec(xml.slice(i, i + 4096));
    if (!m) return null;
    const name = m[1]!;
    const attrs = m[2] ?? '';
    const decls = readDecls(attrs);
    const colon = name.indexOf(':');
    const ns = colon === -1 ? decls.get('') ?? '' : decls.get(name.slice(0, colon)) ?? '';
    return { name, ns, defaultNs: decls.get('') ?? '', attrs };
  }
  return null;
}

function readDecls(attrs: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of attrs.matchAll(/\bxmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out.set(m[1] ?? '', (m[2] ?? m[3] ?? '').trim());
  }
  return out;
}

/**
 * A tag-name rewriter for this document (null when no name needs rewriting): every `prefix:` bound to a known URI becomes its
 * canonical prefix, the root's primary vocabulary becomes unprefixed, and an unknown binding of
 * a canonical prefix is renamed so it cannot impersonate the real one.
 */
export function tagNameRewriter(xml: string, root: RootInfo): ((name: string) => string) | null {
  const map = new Map<string, string>();
  const primary = PRIMARY.has(root.ns) ? root.ns : PRIMARY.has(root.defaultNs) ? root.defaultNs : '';
  const decl = /xmlns:([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
  // indexOf finds the few declarations far faster than a regex scan of the whole document
  for (let at = xml.indexOf('xmlns:'); at !== -1; at = xml.indexOf('xmlns:', at + 6)) {
    decl.lastIndex = at;
    const m = decl.exec(xml);
    if (!m) continue;
    const prefix = m[1]!;
    if (map.has(prefix)) continue;
    const uri = (m[2] ?? m[3] ?? '').trim();
    const known = KNOWN[uri] ?? KNOWN[uri.toLowerCase()];
    const rdfPrimary = !primary && root.ns === NS.rdf && (uri === NS.rss10 || uri === NS.rss09);
    if (uri === primary || rdfPrimary) map.set(prefix, '');
    else if (known !== undefined) map.set(prefix, known);
    else if (isCanonical(prefix)) map.set(prefix, `${prefix}_ns`);
  }
  // most feeds already use the canonical prefixes: then there is nothing to rewrite
  for (const [from, to] of map) if (from === to) map.delete(from);
  const foldCase = caseInsensitiveRss(root);
  if (map.size === 0 && !foldCase) return null;
  const cache = new Map<string, string>();
  return (name) => {
    const colon = name.indexOf(':');
    if (colon === -1) return foldCase ? (RSS_NAMES.get(name.toLowerCase()) ?? name) : name;
    let out = cache.get(name);
    if (out !== undefined) return out;
    const to = map.get(name.slice(0, colon));
    out = to === undefined ? name : to === '' ? name.slice(colon + 1) : `${to}${name.slice(colon)}`;
    cache.set(name, out);
    return out;
  };
}

const CANONICAL = new Set(Object.values(KNOWN).filter(Boolean));
function isCanonical(prefix: string): boolean {
  return CANONICAL.has(prefix);
}

/** RSS's own element names by their lower-case form. */
const RSS_NAMES = new Map(
  [
    'rss', 'channel', 'item', 'title', 'link', 'description', 'guid', 'pubDate', 'lastBuildDate', 'author', 'category', 'comments',
    'enclosure', 'source', 'language', 'copyright', 'managingEditor', 'webMaster', 'ttl', 'image', 'url', 'width', 'height',
    'skipHours', 'skipDays', 'hour', 'day', 'textInput', 'name', 'docs', 'generator', 'cloud', 'rating',
  ].map((n) => [n.toLowerCase(), n]),
);

/**
 * iTunes reads a podcast's non-iTunes element names case-insensitively (`<TiTlE>`), and feeds made
 * for it rely on that: in an RSS document whose root declares the iTunes namespace, RSS element
 * names in any case are read as RSS's; so are they in a document whose root is not spelt `rss`
 * (`<RSS>`, `<Rss>`). Other documents keep XML's exact names.
 */
function caseInsensitiveRss(root: RootInfo): boolean {
  if (root.name.toLowerCase() !== 'rss') return false;
  // a root spelt `<RSS>` says the author wrote RSS's names in their own case throughout
  return root.name !== 'rss' || /podcast-1\.0\.dtd/i.test(root.attrs);
}
