import { decodeHTML } from 'entities';
import { escapeText } from './html-escape.js';
import { localName } from './html-tags.js';

/** HTML → plain text, for titles and other fields the contract says are plain. */

const INLINE = new Set(['a', 'b', 'i', 'em', 'strong', 'span', 'code', 'abbr', 'acronym', 'sub', 'sup', 'small', 'big', 'u', 's', 'strike', 'font', 'q', 'mark', 'cite', 'tt', 'kbd', 'var', 'dfn', 'time', 'bdi', 'bdo', 'del', 'ins', 'wbr']);

/** Plain text of an HTML fragment: tags removed (dropped elements with their content), entities decoded, whitespace collapsed. */
export function htmlToText(input: string): string {
  let s = input;
  if (s.indexOf('<') !== -1) {
    s = s
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, t: string) => escapeText(t))
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(/<(script|style|noscript|template|svg|math|iframe|object|title|head)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
      .replace(/<\/?([a-zA-Z][\w:.-]*)(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?\/?>/g, (_, n: string) => (INLINE.has(localName(n)) ? '' : ' '))
      .replace(/<[!?][^>]*>/g, '');
  }
  if (s.indexOf('&') !== -1) s = decodeHTML(s);
  return collapse(s);
}

/** Anything `collapse` would change: a tab or line break, two spaces in a row, a blank at either end. */
const NEEDS_COLLAPSE = /[\t\n\r\f\v]|  |^\s|\s$/;

/**
 * Collapse runs of layout whitespace (spaces, tabs, line breaks) and trim. Spaces the publisher
 * wrote as characters of their own (`&nbsp;`, `&thinsp;`, an em space) are kept: they are text.
 */
export function collapse(s: string): string {
  // most titles, names and categories are already tidy: one test, no new string
  return NEEDS_COLLAPSE.test(s) ? s.replace(/[ \t\n\r\f\v]+/g, ' ').trim() : s;
}
