import { decodeHTMLAttribute } from 'entities';
import { cookText, escapeAttr, escapeText } from './html-escape.js';
import { ALLOWED, GLOBAL_ATTRS, NUMERIC_ATTRS, tagInfo, URL_ATTRS } from './html-tags.js';
import { childBase, HREF_SCHEMES, resolveUrl } from './links.js';

/**
 * An allow-list HTML sanitiser for feed summaries and content. Publisher HTML is hostile by
 * default: only a fixed set of formatting elements and attributes survives, scripts/styles/
 * frames are dropped with their content, every URL is resolved (xml:base inside XHTML content
 * too) and must be http(s) (or mailto for links), and the output is always balanced.
 * A single forward scan with indexOf — this runs on every entry, so it is kept cheap.
 */

export interface Sanitized {
  html: string;
  /** the first usable `<img src>` (absolute), for thumbnails */
  firstImage: string | null;
}

const MAX_DEPTH = 64;

const NO_ATTRS: Map<string, string> = new Map();
const ATTR_RE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function readAttrs(s: string): Map<string, string> {
  const out = new Map<string, string>();
  if (s.length === 0) return out;
  ATTR_RE.lastIndex = 0;
  for (let m = ATTR_RE.exec(s); m; m = ATTR_RE.exec(s)) {
    const name = m[1]!.toLowerCase();
    if (out.has(name)) continue;
    const v = m[2] ?? m[3] ?? m[4] ?? '';
    out.set(name, v.indexOf('&') === -1 ? v : decodeHTMLAttribute(v));
  }
  return out;
}

/** Find the `>` that ends a tag, skipping quoted attribute values. */
function tagEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 || c === 39) {
      const q = s.indexOf(s[i]!, i + 1);
      if (q === -1) return s.indexOf('>', from);
      i = q;
    } else if (c === 60 /* < */) return i - 1; // `<a <b>`: the first tag never closed
  }
  return -1;
}

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 58) || c === 45 || c === 95 || c === 46;
}

/** Attributes worth reading on an element whose own allow-list is empty. */
const GLOBAL_HINT = /\b(?:lang|dir|xml:base)\s*=/i;

/**
 * Sanitise HTML; relative URLs resolve against `base` and nested `xml:base` attributes.
 *
 * Most of a typical body already is its own sanitised form (plain text, `<p>`, `</p>`), so the
 * output is not assembled piece by piece: `from` marks the start of an input stretch still to be
 * copied verbatim, and only where the output differs (a rewritten tag, decoded text) is that
 * stretch flushed and the replacement appended. This keeps the number of string operations
 * proportional to the markup that changes, not to all markup.
 */
export function sanitizeHtml(input: string, base: string | null): Sanitized {
  let html = '';
  let from = 0; // input[from, pos) is copied verbatim at the next flush
  let stop = input.length; // where the verbatim copy ends (an unterminated tag cuts the rest)
  const stack: string[] = [];
  const bases: (string | null)[] = [];
  let curBase = base;
  let firstImage: string | null = null;
  const n = input.length;
  let i = 0;
  // next `&` / `>` at or after i (or n): text segments without either are copied as they are
  let amp = -1;
  let gtNext = -1;

  while (i < n) {
    let lt = input.indexOf('<', i);
    if (lt === -1) lt = n;
    if (lt > i) {
      if (amp < i) {
        amp = input.indexOf('&', i);
        if (amp === -1) amp = n;
      }
      if (gtNext < i) {
        gtNext = input.indexOf('>', i);
        if (gtNext === -1) gtNext = n;
      }
      if (amp < lt || gtNext < lt) {
        if (i > from) html += input.slice(from, i);
        html += cookText(input.slice(i, lt));
        from = lt;
      }
    }
    if (lt === n) break;
    const c1 = input.charCodeAt(lt + 1);
    if (c1 === 33 /* ! */) {
      if (lt > from) html += input.slice(from, lt);
      if (input.startsWith('<!--', lt)) {
        const e = input.indexOf('-->', lt + 4);
        i = e === -1 ? n : e + 3;
      } else if (input.startsWith('<![CDATA[', lt)) {
        const e = input.indexOf(']]>', lt + 9);
        html += escapeText(input.slice(lt + 9, e === -1 ? n : e));
        i = e === -1 ? n : e + 3;
      } else {
        const e = input.indexOf('>', lt);
        i = e === -1 ? n : e + 1;
      }
      from = i;
      continue;
    }
    if (c1 === 63 /* ? */) {
      if (lt > from) html += input.slice(from, lt);
      const e = input.indexOf('>', lt);
      i = from = e === -1 ? n : e + 1;
      continue;
    }
    const closing = c1 === 47; /* / */
    const nameStart = closing ? lt + 2 : lt + 1;
    const nc = input.charCodeAt(nameStart) | 0x20;
    if (!(nc >= 97 && nc <= 122)) {
      if (lt > from) html += input.slice(from, lt);
      html += '&lt;';
      i = from = lt + 1;
      continue;
    }
    if (closing) {
      // end tags carry no attributes worth reading: find `>` and the name only
      const gt = input.indexOf('>', nameStart);
      if (gt === -1) {
        stop = lt;
        break;
      }
      let ne = nameStart + 1;
      while (ne < gt && isNameChar(input.charCodeAt(ne))) ne++;
      i = gt + 1;
      const rawName = input.slice(nameStart, ne);
      const name = tagInfo(rawName).name;
      const at = stack.lastIndexOf(name);
      // `</p>` closing the innermost open `<p>` is already in its output form
      if (at !== -1 && at === stack.length - 1 && gt === ne && rawName === name) {
        stack.pop();
        curBase = bases.pop() ?? base;
        continue;
      }
      if (lt > from) html += input.slice(from, lt);
      from = i;
      if (at !== -1) {
        while (stack.length > at) {
          html += `</${stack.pop()}>`;
          curBase = bases.pop() ?? base;
        }
      }
      continue;
    }
    // hot path: a bare start tag (`<p>`, `<em>`) needs no attribute scan
    let ne = nameStart + 1;
    while (ne < n && isNameChar(input.charCodeAt(ne))) ne++;
    if (input.charCodeAt(ne) === 62 /* > */) {
      const rawName = input.slice(nameStart, ne);
      const info = tagInfo(rawName);
      const name = info.name;
      i = ne + 1;
      if (info.allowed !== undefined && !info.drop) {
        if (info.isVoid) {
          if (name !== 'img') {
            if (rawName !== name) {
              if (lt > from) html += input.slice(from, lt);
              html += `<${name}>`;
              from = i;
            }
            continue;
          }
        } else if (stack.length < MAX_DEPTH) {
          if (rawName !== name) {
            if (lt > from) html += input.slice(from, lt);
            html += `<${name}>`;
            from = i;
          }
          stack.push(name);
          bases.push(curBase);
          continue;
        }
        // a bare <img> (no src) or an element past the depth limit: dropped
        if (lt > from) html += input.slice(from, lt);
        from = i;
        continue;
      }
      if (lt > from) html += input.slice(from, lt);
      // unknown element: unwrap; a dropped one goes with its content; the obsolete raw-text
      // elements (`<xmp>`, `<listing>`) show their content as written, so it becomes text
      if (info.drop) i = skipElement(input, i, info.lower);
      else if (info.lower === 'xmp' || info.lower === 'listing') {
        const end = endTag(input, i, info.lower);
        html += escapeText(input.slice(i, end.at));
        i = end.next;
      }
      from = i;
      continue;
    }
    // `<br/>`, `<br />`: an allowed void element written XML-style without attributes (common
    // in feeds) comes out as `<br>` without the attribute machinery below
    const cn = input.charCodeAt(ne);
    const selfGt =
      cn === 47 /* / */ && input.charCodeAt(ne + 1) === 62
        ? ne + 1
        : cn === 32 && input.charCodeAt(ne + 1) === 47 && input.charCodeAt(ne + 2) === 62
          ? ne + 2
          : -1;
    if (selfGt !== -1) {
      const info = tagInfo(input.slice(nameStart, ne));
      if (info.isVoid && info.allowed !== undefined && !info.drop && info.name !== 'img') {
        if (lt > from) html += input.slice(from, lt);
        html += `<${info.name}>`;
        i = from = selfGt + 1;
        continue;
      }
    }
    if (lt > from) html += input.slice(from, lt);
    from = lt;
    const end = tagEnd(input, nameStart);
    if (end === -1) {
      // an unterminated tag at the end: drop it rather than leak markup as text
      stop = lt;
      break;
    }
    const inner = input.slice(nameStart, input.charCodeAt(end) === 62 ? end : end + 1);
    i = from = end + 1;
    let sp = 1;
    while (sp < inner.length) {
      const c = inner.charCodeAt(sp);
      if (c === 32 || c === 47 || c === 10 || c === 9 || c === 13 || c === 12) break;
      sp++;
    }
    const rawName = sp === inner.length ? inner : inner.slice(0, sp);
    if (sp === inner.length) sp = -1;
    const info = tagInfo(rawName);
    const name = info.name;

    if (info.drop) {
      if (!inner.endsWith('/')) i = from = skipElement(input, i, info.lower);
      continue;
    }
    const allowed = info.allowed;
    if (!allowed) continue; // unknown element: unwrap (keep its content)
    const attrText = sp === -1 ? '' : inner.slice(sp);
    const attrs = allowed.length > 0 || GLOBAL_HINT.test(attrText) ? readAttrs(attrText) : NO_ATTRS;
    const isVoid = info.isVoid;
    if (!isVoid && stack.length >= MAX_DEPTH) continue;
    let elBase = curBase;
    const xb = attrs.get('xml:base');
    if (xb !== undefined) elBase = childBase(xb, curBase);

    let tag = `<${name}`;
    let src: string | null = null;
    for (const a of allowed) {
      const v = attrs.get(a);
      if (v === undefined) continue;
      if (URL_ATTRS.has(a)) {
        const u = resolveUrl(v, elBase, a === 'href' ? HREF_SCHEMES : undefined);
        if (u === null) continue;
        if (a === 'src') src = u;
        tag += ` ${a}="${escapeAttr(u)}"`;
      } else if (NUMERIC_ATTRS.has(a)) {
        if (/^\s*\d{1,5}\s*$/.test(v)) tag += ` ${a}="${v.trim()}"`;
      } else if (a === 'reversed') {
        tag += ' reversed';
      } else {
        tag += ` ${a}="${escapeAttr(v)}"`;
      }
    }
    if (name === 'img') {
      if (src === null) continue;
      if (firstImage === null && !isTrackingPixel(attrs)) firstImage = src;
    }
    for (const a of GLOBAL_ATTRS) {
      const v = attrs.get(a);
      if (v !== undefined && /^[\w-]{1,35}$/.test(v)) tag += ` ${a}="${v}"`;
    }
    html += tag + '>';
    if (!isVoid) {
      stack.push(name);
      bases.push(curBase);
      curBase = elBase;
    }
  }
  if (stop > from) html += input.slice(from, stop);
  while (stack.length > 0) html += `</${stack.pop()}>`;
  return { html, firstImage };
}

/** Skip to after the end tag of a dropped element (`</script>`), or to the end. */
function skipElement(s: string, from: number, name: string): number {
  return endTag(s, from, name).next;
}

/** Where an element's end tag starts and where it ends (both the input's end when it has none). */
function endTag(s: string, from: number, name: string): { at: number; next: number } {
  const re = new RegExp(`</${name.replace(/[^\w:-]/g, '')}\\b[^>]*>`, 'gi');
  re.lastIndex = from;
  const m = re.exec(s);
  return m ? { at: m.index, next: m.index + m[0].length } : { at: s.length, next: s.length };
}

function isTrackingPixel(attrs: Map<string, string>): boolean {
  const w = attrs.get('width');
  const h = attrs.get('height');
  if ((w !== undefined && +w <= 2) || (h !== undefined && +h <= 2)) return true;
  return /feeds\.feedburner\.com\/~r|\/~ff\/|doubleclick\.net|pixel\.(?:wp|quantserve)|stats\.wordpress\.com/.test(attrs.get('src') ?? '');
}
