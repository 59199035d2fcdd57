import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * A small, tolerant HTML tag scanner. It is not a DOM: it walks start tags, end tags and the
 * raw text of a few elements (`title`, `script`, `style`, `textarea`) in one linear pass, which
 * is all metadata extraction and feed discovery need. Hostile input (unterminated quotes or
 * comments, megabytes of `<`, odd casing) never throws and never makes the scan quadratic:
 * every search moves the cursor forward and an unterminated construct ends the scan.
 */

export interface StartTag {
  readonly kind: 'start';
  /** lower-case tag name */
  readonly name: string;
  /** attribute names lower-cased, values entity-decoded; the first of duplicates wins */
  readonly attrs: Readonly<Record<string, string>>;
  /** raw text up to the matching end tag for raw-text elements (title, script, style, textarea) */
  readonly text?: string;
}

export interface EndTag {
  readonly kind: 'end';
  readonly name: string;
}

export type Tag = StartTag | EndTag;

/** Return `false` to stop scanning early. */
export type TagVisitor = (tag: Tag) => void | boolean;

const RAW_TEXT = new Set(['title', 'script', 'style', 'textarea', 'xmp', 'plaintext']);

/** Pages larger than this are scanned only up to here: metadata lives near the top. */
export const DEFAULT_SCAN_LIMIT = 4 * 1024 * 1024;

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

/** Walk every tag of `html` (up to `limit` characters) in document order. */
export function scanTags(html: string, visit: TagVisitor, limit = DEFAULT_SCAN_LIMIT, wanted?: (name: string) => boolean): void {
  const src = html.length > limit ? html.slice(0, limit) : html;
  const n = src.length;
  let i = 0;
  while (i < n) {
    const lt = src.indexOf('<', i);
    if (lt < 0 || lt + 1 >= n) return;
    const c = src.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      if (src.startsWith('<!--', lt)) {
        const end = src.indexOf('-->', lt + 4);
        if (end < 0) return;
        i = end + 3;
      } else {
        // doctype, CDATA outside foreign content, bogus comments: skip to the next '>'
        const end = src.indexOf('>', lt + 2);
        if (end < 0) return;
        i = end + 1;
      }
      continue;
    }
    if (c === 63 /* ? */) {
      const end = src.indexOf('>', lt + 2);
      if (end < 0) return;
      i = end + 1;
      continue;
    }
    if (c === 47 /* / */) {
      let j = lt + 2;
      while (j < n && isTagNameChar(src.charCodeAt(j))) j++;
      const end = src.indexOf('>', j);
      if (end < 0) return;
      if (j > lt + 2 && isAsciiLetter(src.charCodeAt(lt + 2))) {
        if (visit({ kind: 'end', name: src.slice(lt + 2, j).toLowerCase() }) === false) return;
      }
      i = end + 1;
      continue;
    }
    if (!isAsciiLetter(c)) {
      i = lt + 1; // a stray '<' in text
      continue;
    }
    let j = lt + 1;
    while (j < n && isTagNameChar(src.charCodeAt(j))) j++;
    const name = src.slice(lt + 1, j).toLowerCase();
    if (wanted && !RAW_TEXT.has(name) && !wanted(name)) {
      const end = skipAttributes(src, j);
      if (end < 0) return;
      i = end;
      continue;
    }
    const parsed = parseAttributes(src, j);
    if (parsed === null) return; // unterminated tag: nothing reliable follows
    i = parsed.end;
    if (RAW_TEXT.has(name) && !parsed.selfClosing) {
      const close = findClosingTag(src, name, i);
      const text = src.slice(i, close < 0 ? n : close);
      if (visit({ kind: 'start', name, attrs: parsed.attrs, text }) === false) return;
      if (close < 0) return;
      const gt = src.indexOf('>', close);
      if (gt < 0) return;
      i = gt + 1;
      continue;
    }
    if (visit({ kind: 'start', name, attrs: parsed.attrs }) === false) return;
  }
}

function isTagNameChar(c: number): boolean {
  return !(isSpace(c) || c === 47 || c === 62) && !Number.isNaN(c);
}

/**
 * Parse attributes from `start` (just after the tag name) to the closing `>`. Follows the
 * HTML tokenizer loosely: names end at space, `/`, `>` or `=`; values are quoted or unquoted.
 * Returns null when the tag never closes.
 */
function parseAttributes(src: string, start: number): { attrs: Record<string, string>; end: number; selfClosing: boolean } | null {
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  const n = src.length;
  let i = start;
  let selfClosing = false;
  while (i < n) {
    let c = src.charCodeAt(i);
    if (isSpace(c)) { i++; continue; }
    if (c === 62 /* > */) return { attrs, end: i + 1, selfClosing };
    if (c === 47 /* / */) {
      selfClosing = src.charCodeAt(i + 1) === 62;
      i++;
      continue;
    }
    selfClosing = false;
    const nameStart = i;
    i++; // the first character may be '=' per the spec
    while (i < n) {
      c = src.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    const name = src.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(src.charCodeAt(i))) i++;
    let value = '';
    if (src.charCodeAt(i) === 61 /* = */) {
      i++;
      while (i < n && isSpace(src.charCodeAt(i))) i++;
      const q = src.charCodeAt(i);
      if (q === 34 || q === 39) {
        const close = src.indexOf(q === 34 ? '"' : "'", i + 1);
        if (close < 0) return null;
        value = src.slice(i + 1, close);
        i = close + 1;
      } else {
        const vStart = i;
        while (i < n) {
          c = src.charCodeAt(i);
          if (isSpace(c) || c === 62) break;
          i++;
        }
        value = src.slice(vStart, i);
      }
    }
    if (!(name in attrs)) attrs[name] = value.includes('&') ? decodeHTMLAttribute(value) : value;
  }
  return null;
}

/** Like parseAttributes without building anything: the index after the closing `>`, or -1. */
function skipAttributes(src: string, start: number): number {
  const n = src.length;
  let i = start;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 62) return i + 1;
    if (c === 61 /* = */) {
      i++;
      while (i < n && isSpace(src.charCodeAt(i))) i++;
      const q = src.charCodeAt(i);
      if (q === 34 || q === 39) {
        const close = src.indexOf(q === 34 ? '"' : "'", i + 1);
        if (close < 0) return -1;
        i = close + 1;
        continue;
      }
      continue;
    }
    i++;
  }
  return -1;
}

/** Index of `</name` (any case) at or after `from`, or -1. */
const closers = new Map<string, RegExp>();

function findClosingTag(src: string, name: string, from: number): number {
  let re = closers.get(name);
  if (!re) {
    re = new RegExp(`</${name}(?=[\\s/>])`, 'gi');
    closers.set(name, re);
  }
  re.lastIndex = from;
  const m = re.exec(src);
  return m ? m.index : -1;
}

/** Decode entities, drop tags and collapse whitespace: text fit for a title or snippet. */
export function pageText(raw: string | null | undefined): string {
  if (!raw) return '';
  let s = raw.includes('<') ? raw.replace(/<[^>]*>/g, ' ') : raw;
  if (s.includes('&')) s = decodeHTML(s);
  // a second pass catches double-encoded publisher text ("&amp;amp;" -> "&amp;" -> "&")
  if (/&(?:amp|lt|gt|quot|#0*39|apos|#\d+|#x[0-9a-f]+);/i.test(s)) s = decodeHTML(s);
  return s.replace(/[\u0000-\u001f\u007f\u200b\u00ad]+/g, ' ').replace(/\s+/g, ' ').trim();
}
