/**
 * The sanitiser's element tables: what survives, what goes with its content, which attributes
 * are kept, and a per-spelling cache of those answers (a document repeats a handful of names).
 */

/** Attributes kept on any allowed element (when their value is a plain token). */
export const GLOBAL_ATTRS = ['lang', 'dir'];
/** Allowed elements and, for each, the attributes it keeps. */
export const ALLOWED: Record<string, readonly string[]> = {
  a: ['href', 'title'], abbr: ['title'], acronym: ['title'], address: [], article: [], aside: [], b: [], bdi: [],
  bdo: [], big: [], blockquote: ['cite'], br: [], caption: [], center: [], cite: [], code: [], col: ['span'],
  colgroup: ['span'], dd: [], del: ['cite', 'datetime'], details: [], dfn: [], div: [], dl: [], dt: [], em: [],
  figcaption: [], figure: [], footer: [], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], header: [], hr: [], i: [],
  img: ['src', 'alt', 'title', 'width', 'height'], ins: ['cite', 'datetime'], kbd: [], li: ['value'], mark: [],
  ol: ['start', 'reversed'], p: [], pre: [], q: ['cite'], rp: [], rt: [], ruby: [], s: [], samp: [], section: [],
  small: [], span: [], strike: [], strong: [], sub: [], summary: [], sup: [], table: [], tbody: [],
  td: ['colspan', 'rowspan'], tfoot: [], th: ['colspan', 'rowspan', 'scope'], thead: [], time: ['datetime'],
  tr: [], tt: [], u: [], ul: [], var: [], wbr: [],
};
const VOID = new Set(['br', 'hr', 'img', 'wbr', 'col', 'meta', 'link', 'base', 'input', 'source', 'track', 'area', 'param', 'embed', 'keygen']);
/** dropped together with everything inside them */
const DROP = new Set([
  'script', 'style', 'iframe', 'object', 'applet', 'noscript', 'template', 'svg', 'math', 'head', 'title',
  'textarea', 'select', 'button', 'frameset', 'noframes', 'xml', 'audio', 'video', 'canvas', 'map', 'dialog',
]);
/** Attributes holding a URL: resolved, and dropped unless the scheme is allowed. */
export const URL_ATTRS = new Set(['href', 'src', 'cite']);
/** Attributes kept only as small integers. */
export const NUMERIC_ATTRS = new Set(['width', 'height', 'colspan', 'rowspan', 'span', 'start', 'value']);

/** XHTML content often carries a prefix; other prefixes (`o:p` from Word) are not HTML. */
const XHTML_PREFIXES = new Set(['xhtml', 'html', 'h', 'xh', 'x']);

const localNames = new Map<string, string>();

/** The element name to check against the allow-lists (lower-case, XHTML prefix removed). */
export function localName(raw: string): string {
  let v = localNames.get(raw);
  if (v === undefined) {
    v = computeLocalName(raw);
    if (localNames.size < 2048) localNames.set(raw, v);
  }
  return v;
}

/** What the sanitiser needs to know about an element name, looked up once per distinct spelling. */
export interface TagInfo {
  /** the local name (lower-case, XHTML prefix removed) */
  name: string;
  /** the allowed attributes; undefined when the element is not allowed */
  allowed: readonly string[] | undefined;
  drop: boolean;
  isVoid: boolean;
  /** `rawName.toLowerCase()`, for finding the end tag of a dropped element */
  lower: string;
}

const tagInfos = new Map<string, TagInfo>();

/** One map lookup per tag instead of one per question (name, allowed, dropped, void). */
export function tagInfo(raw: string): TagInfo {
  let t = tagInfos.get(raw);
  if (t === undefined) {
    const name = localName(raw);
    // own properties only: a tag named like an Object.prototype member (`<constructor>`,
    // `<toString>`) must not read as allowed, nor crash the sanitiser with a function for a list
    t = { name, allowed: Object.hasOwn(ALLOWED, name) ? ALLOWED[name] : undefined, drop: DROP.has(name), isVoid: VOID.has(name), lower: raw.toLowerCase() };
    if (tagInfos.size < 2048) tagInfos.set(raw, t);
  }
  return t;
}

function computeLocalName(raw: string): string {
  const n = raw.toLowerCase();
  const colon = n.indexOf(':');
  if (colon === -1) return n;
  return XHTML_PREFIXES.has(n.slice(0, colon)) ? n.slice(colon + 1) : n;
}
