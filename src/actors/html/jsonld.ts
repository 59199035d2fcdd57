/**
 * JSON-LD (`<script type="application/ld+json">`) article metadata. Publishers nest the article
 * in `@graph`, arrays, `mainEntity` or `mainEntityOfPage`, spell `@type` as a string or an
 * array, and often ship slightly broken JSON (trailing commas, raw newlines in strings, HTML
 * comment or CDATA wrappers); all of that is tolerated, and anything else is skipped silently.
 */

export interface JsonLdArticle {
  type: string;
  headline: string | null;
  description: string | null;
  datePublished: unknown;
  dateModified: unknown;
  image: string | null;
  authors: string[];
  publisher: string | null;
  language: string | null;
  keywords: string[];
  url: string | null;
}

/** Types that describe one article (schema.org Article and its news-ish subtypes). */
const ARTICLE_TYPES = new Set([
  'newsarticle', 'article', 'reportagenewsarticle', 'analysisnewsarticle', 'opinionnewsarticle',
  'backgroundnewsarticle', 'reviewnewsarticle', 'askpublicnewsarticle', 'blogposting',
  'liveblogposting', 'socialmediaposting', 'scholarlyarticle', 'techarticle', 'report',
]);

/** Page-level types used only when no article node exists (fact checks, plain web pages). */
const WEAK_TYPES = new Set(['claimreview', 'webpage', 'itempage', 'medicalwebpage', 'videoobject']);

/** Preference when a page carries several: the news types first. */
function rank(type: string): number {
  if (type.endsWith('newsarticle')) return 0;
  if (type === 'article' || type === 'blogposting' || type === 'liveblogposting') return 1;
  return ARTICLE_TYPES.has(type) ? 2 : 3;
}

const MAX_NODES = 5_000;

/** Parse one script body; null when it is not JSON even after light repair. */
export function parseJsonLd(text: string): unknown {
  let s = text.trim();
  s = s.replace(/^<!--/, '').replace(/-->$/, '').replace(/^\/\/\s*<!\[CDATA\[/, '').replace(/\/\/\s*\]\]>$/, '');
  s = s.replace(/^<!\[CDATA\[/, '').replace(/\]\]>$/, '').trim();
  if (s.length === 0) return null;
  try {
    return JSON.parse(s);
  } catch {
    try {
      // raw control characters inside strings and trailing commas are the common breakages
      const repaired = s.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1');
      return JSON.parse(repaired);
    } catch {
      return null;
    }
  }
}

/** Find the best article node among parsed JSON-LD documents. */
export function findArticle(docs: readonly unknown[]): JsonLdArticle | null {
  const found: { node: Record<string, unknown>; type: string }[] = [];
  const stack: unknown[] = [...docs];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_NODES) {
    const v = stack.pop();
    visited++;
    if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push(v[k]);
      continue;
    }
    if (!isObject(v)) continue;
    const type = articleType(v['@type']);
    if (type) found.push({ node: v, type });
    for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage', 'itemListElement', 'item']) {
      if (key in v) stack.push(v[key]);
    }
  }
  if (found.length === 0) return null;
  found.sort((a, b) => rank(a.type) - rank(b.type));
  const { node, type } = found[0]!;
  return {
    type,
    headline: str(node['headline']) ?? str(node['name']),
    description: str(node['description']),
    datePublished: node['datePublished'] ?? node['dateCreated'] ?? null,
    dateModified: node['dateModified'] ?? null,
    image: imageUrl(node['image']) ?? imageUrl(node['thumbnailUrl']),
    authors: names(node['author']),
    publisher: names(node['publisher'])[0] ?? null,
    language: str(node['inLanguage']) ?? (isObject(node['inLanguage']) ? str(node['inLanguage']['name']) : null),
    keywords: keywords(node['keywords']),
    url: str(node['url']) ?? (isObject(node['mainEntityOfPage']) ? str(node['mainEntityOfPage']['@id']) : str(node['mainEntityOfPage'])),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function articleType(t: unknown): string | null {
  const list = Array.isArray(t) ? t : [t];
  for (const x of list) {
    if (typeof x !== 'string') continue;
    const name = x.replace(/^https?:\/\/schema\.org\//i, '').replace(/^schema:/i, '').toLowerCase();
    if (ARTICLE_TYPES.has(name)) return name;
  }
  for (const x of list) {
    if (typeof x !== 'string') continue;
    const name = x.replace(/^https?:\/\/schema\.org\//i, '').replace(/^schema:/i, '').toLowerCase();
    if (WEAK_TYPES.has(name)) return name;
  }
  return null;
}

function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0].trim() || null;
  return null;
}

function imageUrl(v: unknown, depth = 0): string | null {
  if (depth > 3) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const u = imageUrl(x, depth + 1);
      if (u) return u;
    }
    return null;
  }
  if (isObject(v)) return str(v['url']) ?? str(v['contentUrl']) ?? str(v['@id']);
  return null;
}

function names(v: unknown, depth = 0): string[] {
  if (depth > 3 || v == null) return [];
  if (typeof v === 'string') return v.trim() && !/^https?:\/\//i.test(v.trim()) ? [v.trim()] : [];
  if (Array.isArray(v)) return v.flatMap((x) => names(x, depth + 1)).slice(0, 20);
  if (isObject(v)) {
    const n = str(v['name']);
    return n ? [n] : [];
  }
  return [];
}

function keywords(v: unknown): string[] {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string').map((s) => s.trim()).filter(Boolean);
  return [];
}
