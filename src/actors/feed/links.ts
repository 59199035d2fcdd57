/**
 * URL resolution: relative references are resolved against the innermost `xml:base` (itself
 * resolved against its parent's base, then the document URL). Only http(s) links survive —
 * `javascript:` and friends never reach a client.
 */

const WEB = new Set(['http:', 'https:']);
const CANONICAL_HTTP = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*\/[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*(?:#[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]*)?$/;

/** Resolve `href` against `base`; null when it is empty, not http(s), or cannot be made absolute. */
export function resolveUrl(href: string | undefined | null, base: string | null, schemes: ReadonlySet<string> = WEB): string | null {
  if (href === undefined || href === null) return null;
  // whitespace inside a URL is a feed-authoring accident (line-wrapped links), not meaning
  let h = href.trim();
  if (h.length === 0 || h.length > 4096) return null;
  if (/[\t\n\r]/.test(h)) h = h.replace(/[ \t]*[\t\n\r]+[ \t]*/g, '');
  // already-canonical absolute URLs (the vast majority) come back unchanged from the WHATWG
  // parser, so skip it: lower-case dotted host with a letter TLD, no port, a path, only
  // characters the parser leaves alone, no dot segments
  if (isCanonical(h, schemes)) return h;
  // a root-relative path (`/images/a.jpg`, common in content) against a canonical base: the
  // parser would take scheme and host from the base and the rest as written, so when the joined
  // string is canonical itself it is the answer (userinfo or a port in the base fail the test)
  if (base && h.charCodeAt(0) === 47 /* / */ && h.charCodeAt(1) !== 47 && h.charCodeAt(1) !== 92 /* \ */) {
    const origin = originOf(base);
    if (origin !== null) {
      const joined = origin + h;
      if (isCanonical(joined, schemes)) return joined;
    }
  }
  // without a base only absolute URLs can succeed; avoid the cost of a thrown TypeError
  if (!base && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(h)) return null;
  try {
    const u = base ? new URL(h, base) : new URL(h);
    return schemes.has(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

/** Characters of a refused link kept: enough to show it was over the 4,096 cap, not a megabyte. */
const REFUSED_KEEP = 4097;

/**
 * The first non-empty link text among candidates, as written (trimmed, cut to a little over the
 * URL cap), for an entry none of whose links `resolveUrl` accepted; undefined when there was none.
 */
export function refusedLink(...candidates: (string | null | undefined)[]): string | undefined {
  for (const c of candidates) {
    const t = c?.trim();
    if (t) return t.slice(0, REFUSED_KEEP);
  }
  return undefined;
}

function isCanonical(h: string, schemes: ReadonlySet<string>): boolean {
  return CANONICAL_HTTP.test(h) && !h.includes('/.') && !/%2e/i.test(h) && schemes.has(h.charCodeAt(4) === 115 ? 'https:' : 'http:');
}

let lastBase = '';
let lastOrigin: string | null = null;

/** `scheme://host` of an http(s) base (everything before its path), or null; the last one is remembered. */
function originOf(base: string): string | null {
  if (base === lastBase) return lastOrigin;
  const m = /^https?:\/\/[^/?#]*/.exec(base);
  lastBase = base;
  lastOrigin = m ? m[0] : null;
  return lastOrigin;
}

/** The base of an element: its `xml:base` resolved against the inherited base. */
export function childBase(xmlBase: string | undefined, parent: string | null): string | null {
  if (!xmlBase) return parent;
  return resolveBase(xmlBase, parent) ?? parent;
}

function resolveBase(href: string, base: string | null): string | null {
  try {
    const u = base ? new URL(href.trim(), base) : new URL(href.trim());
    return WEB.has(u.protocol) || u.protocol === 'file:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Schemes allowed for `href` inside content (mail links are harmless and useful). */
export const HREF_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);
