import type { EntityContext } from './entities.js';
import { childBase } from './links.js';
import { collapse, htmlToText } from './plain-text.js';
import { escapeText } from './html-escape.js';
import { sanitizeHtml, type Sanitized } from './sanitize.js';
import { attr, rawOf } from './xml.js';

/**
 * Text constructs. The XML front end hands over the raw inner markup of titles, summaries and
 * content; here we decide what it means: escaped HTML (RSS, Atom `type="html"`), CDATA,
 * literal markup that a broken feed forgot to escape, inline XHTML (Atom `type="xhtml"`),
 * plain text, and Atom 0.3 `mode="base64"` / `mode="escaped"` / `mode="xml"`.
 */

export type TextKind = 'text' | 'html' | 'xhtml';

/** A text construct's kind from Atom `type` (1.0 keywords or MIME types) and 0.3 `mode`. */
export function atomKind(node: unknown, ents: EntityContext): { kind: TextKind | null; base64: boolean } {
  const type = (attr(node, 'type', ents) ?? 'text').trim().toLowerCase();
  const mode = (attr(node, 'mode', ents) ?? '').trim().toLowerCase();
  let kind: TextKind | null;
  if (type === 'text' || type === 'text/plain') kind = 'text';
  else if (type === 'html' || type === 'text/html') kind = 'html';
  else if (type === 'xhtml' || type === 'application/xhtml+xml') kind = 'xhtml';
  else if (type.startsWith('text/')) kind = 'text';
  else kind = null; // out-of-line or binary content: nothing to show as text
  if (mode === 'xml' && kind !== 'text') kind = 'xhtml';
  if (mode === 'escaped' && kind === 'xhtml') kind = 'html';
  return { kind, base64: mode === 'base64' };
}

/**
 * Unescape raw element content: CDATA verbatim, character data entity-decoded, and segments
 * holding literal tags (unescaped HTML inside RSS) kept as markup.
 */
export function unescapeRaw(raw: string, ents: EntityContext): string {
  if (raw.indexOf('<') === -1) return ents.text(raw);
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const c = raw.indexOf('<![CDATA[', i);
    const seg = raw.slice(i, c === -1 ? raw.length : c);
    out += /<[A-Za-z/!?]/.test(seg) ? ents.expandDeclared(seg) : ents.text(seg);
    if (c === -1) break;
    const e = raw.indexOf(']]>', c + 9);
    out += raw.slice(c + 9, e === -1 ? raw.length : e);
    i = e === -1 ? raw.length : e + 3;
  }
  return out;
}

function decodeBase64(s: string): string {
  return Buffer.from(s.replace(/\s+/g, ''), 'base64').toString('utf8');
}

/** The inner markup of Atom XHTML content without its wrapping `<div>`, plus that div's xml:base. */
export function unwrapXhtml(raw: string): { markup: string; xmlBase?: string } {
  const m = /^\s*<(?:[\w.-]+:)?div\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*)<\/(?:[\w.-]+:)?div\s*>\s*$/.exec(raw);
  if (!m) return { markup: raw };
  const b = /\bxml:base\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(m[1]!);
  return b ? { markup: m[2]!, xmlBase: b[1] ?? b[2] } : { markup: m[2]! };
}

/** Source string of a construct in its own kind (HTML source for html/xhtml, plain for text). */
function source(node: unknown, kind: TextKind, base64: boolean, ents: EntityContext): { src: string; xmlBase?: string } {
  const raw = rawOf(node);
  if (kind === 'xhtml' && !base64) {
    const u = unwrapXhtml(raw);
    return { src: ents.expandDeclared(u.markup), ...(u.xmlBase ? { xmlBase: u.xmlBase } : {}) };
  }
  let v = unescapeRaw(raw, ents);
  if (base64) {
    try {
      v = decodeBase64(v);
    } catch {
      v = '';
    }
    if (kind === 'xhtml') v = unwrapXhtml(v).markup;
  }
  return { src: v };
}

const NON_SPACE = /\S/;

/** Sanitised HTML of a construct (summary, content); null when empty. */
export function constructHtml(
  node: unknown,
  kind: TextKind | null,
  base: string | null,
  ents: EntityContext,
  base64 = false,
): Sanitized | null {
  if (node === undefined || kind === null) return null;
  const ownBase = childBase(attr(node, 'xml:base', ents), base);
  const { src, xmlBase } = source(node, kind, base64, ents);
  if (!NON_SPACE.test(src)) return null;
  if (kind === 'text') return { html: escapeText(src.trim()), firstImage: null };
  const r = sanitizeHtml(src, childBase(xmlBase, ownBase));
  const html = r.html.trim();
  return html.length === 0 && r.firstImage === null ? null : { html, firstImage: r.firstImage };
}

/** Plain text of a construct (titles). RSS titles (`kind` 'html-ish') are plain unless they hold markup or escapes. */
export function constructText(node: unknown, kind: TextKind | 'rss' | null, ents: EntityContext, base64 = false): string {
  if (node === undefined || kind === null) return '';
  if (kind === 'rss') {
    const v = unescapeRaw(rawOf(node), ents);
    return /<[A-Za-z/!]|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(v) ? titleText(v) : collapse(v);
  }
  const { src } = source(node, kind, base64, ents);
  return kind === 'text' ? collapse(src) : titleText(src);
}

/** A complete element (`<a href>…</a>`) still present after one decoding pass: escaped twice. */
const LEFTOVER_ELEMENT = /<([a-z][a-z0-9]*)\b[^<>]*>[^<]*<\/\1\s*>/i;

/** HTML → plain text; a title whose markup was escaped twice gets a second pass. */
function titleText(html: string): string {
  const t = htmlToText(html);
  return LEFTOVER_ELEMENT.test(t) ? htmlToText(t) : t;
}
