import { decodeHTML } from 'entities';
import { leadLines, stripLead } from './wire-lead.js';

/**
 * Text normalisation for fingerprints: two copies of one wire story must normalise to (nearly)
 * the same text although syndication dressed them differently. Order matters: markup and
 * entities first (they hide the noise patterns), then the noise, which is recognised by case
 * and punctuation, then folding.
 */

const BLOCK_TAG = /<\/?(?:p|br|div|li|ul|ol|h[1-6]|blockquote|section|article|tr|table|figure|figcaption|hr)\b[^>]*>/gi;
const DROP_ELEMENT = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
// only real element names count as tags: wire copy uses angle brackets for tickers (`<IBM.N>`)
const ANY_TAG = /<\/?(?:a|abbr|article|aside|b|big|blockquote|body|br|caption|center|cite|code|dd|del|details|div|dl|dt|em|embed|figcaption|figure|font|footer|h[1-6]|head|header|hr|html|i|iframe|img|ins|kbd|label|li|link|main|mark|meta|nav|object|ol|p|picture|pre|q|s|section|small|source|span|strike|strong|sub|summary|sup|table|tbody|td|tfoot|th|thead|time|tr|tt|u|ul|video|wbr)\b[^<>]*>|<!--[\s\S]*?-->/gi;
const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]+);?/i;

/** Strip markup and decode entities, repeating for double-escaped feeds (`&amp;lt;b&amp;gt;`). */
export function stripHtml(input: string): string {
  // every pattern below needs a `<` or an `&`: most headlines and snippets have neither
  if (input.indexOf('<') < 0 && input.indexOf('&') < 0) return input;
  // ingest strips each HTML body twice (fingerprint, then enrichment): the last result is kept
  if (input === lastStripIn) return lastStripOut;
  let s = input;
  for (let round = 0; round < 3; round++) {
    const before = s;
    s = s.replace(DROP_ELEMENT, ' ').replace(BLOCK_TAG, '\n').replace(ANY_TAG, ' ');
    if (ENTITY.test(s)) s = decodeHTML(s);
    if (s === before) break;
  }
  lastStripIn = input;
  lastStripOut = s;
  return s;
}

let lastStripIn = '';
let lastStripOut = '';

const QUOTES: [RegExp, string][] = [
  [/[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"'],
  [/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200B\u202F\u205F\u3000\uFEFF]/g, ' '],
];

const NON_ASCII = /[^\x00-\x7f]/;

/** NFKC, quotes/dashes/spaces folded to ASCII, lower case, whitespace collapsed. */
export function fold(s: string): string {
  let out = s;
  // most English wire text is pure ASCII: NFKC and the folding tables cannot change it
  if (NON_ASCII.test(out)) {
    out = out.normalize('NFKC');
    for (const [re, to] of QUOTES) out = out.replace(re, to);
  } else if (out.includes('`')) {
    out = out.replace(/`/g, "'");
  }
  return collapseSpaces(out.toLowerCase());
}

/** lines that open with a footer marker */
const FOOTER_START = /^\s*(?:copyright\b|\(c\)|\u00a9|all rights reserved|(?:the )?[\w .]{2,40} contributed to this (?:report|story)|this (?:story|article) (?:originally )?(?:appeared|was (?:first |originally )?published)|contact the (?:reporter|author|writer)|[\u2014\u2013-]+\s*[A-Z][\w.'\u2019-]*(?:\s+[A-Z][\w.'\u2019-]*){0,3}\s*$|this (?:story|article) (?:was|has been|is) (?:auto-?generated|automatically generated|published from|generated from)|\(?(?:reporting|writing|editing|additional reporting|compiled) by\b|our standards:|(?:read more|related|click here|sign up|follow us|share this)\b.{0,80}$)/i;
/** short lines that are boilerplate wherever the marker sits */
const FOOTER_ANYWHERE = /all rights reserved|may not be (?:published|reproduced|broadcast|rewritten|redistributed)/i;

const GLUED_PROBE = /\u00a9|\(c\)|copyright|generated|published from/i;

function isFooterLine(line: string): boolean {
  return FOOTER_START.test(line) || (line.length < 160 && FOOTER_ANYWHERE.test(line));
}

const TITLE_PREFIX = /^\s*(?:(?:UPDATE|WRAPUP|REFILE|CORRECTED|RPT|CORRECTION|EXCLUSIVE|BREAKING|ANALYSIS|FACTBOX|INSIGHT|UPDATED|WATCH|VIDEO|LIVE|OPINION|PHOTOS|REFILE-UPDATE|EXPLAINER|REVIEW|EDITORIAL|INTERVIEW|PODCAST|FACT CHECK)(?:\s*\d+)?\s*[-:|\u2013\u2014]+\s*)+/i;
/** ` - Outlet`, ` – Outlet`, ` — WKRN-TV`: a spaced dash, then up to 40 characters without another spaced dash */
const TITLE_SUFFIX = /\s+[\u2013\u2014-]{1,2}\s+((?:[^|\u2013\u2014\s-]|-(?!\s)|\s(?![\u2013\u2014-]{1,2}\s))[^|\u2013\u2014]{0,39})$/;
/** an outlet's name: capitalised words (`The Daily Ledger`, `WKRN-TV`, `Yahoo Finance`, `MSN`) */
const OUTLET_NAME = /^(?:[A-Z0-9][\w.&'\u2019!-]*|of|the|and|&|on|de|la)(?:\s+(?:[A-Z0-9][\w.&'\u2019!-]*|of|the|and|&|on|de|la)){0,4}$/;
const TITLE_SUFFIX_PIPE = /\s*\|\s*[^|]{1,60}$/;

/**
 * Removes syndication noise from a body: bylines among the first lines, footer lines at the end
 * (only there: a body line that merely mentions copyright stays), footers glued to the last
 * paragraph, and a leading dateline.
 */
export function removeBodyNoise(text: string): string {
  // footers glued to the end of the last paragraph first, so the line checks see clean lines;
  // cheap probes first, as most bodies have none and the cutting patterns scan from every space
  let t = text;
  if (GLUED_PROBE.test(t)) {
    t = t.replace(/\s*(?:\u00a9|\(c\)|copyright\s+(?:\u00a9\s*)?\d{4}).{0,200}$/i, '');
    t = t.replace(/\s*this (?:story|article) (?:was|has been) (?:auto-?generated|automatically generated|published from)[\s\S]{0,300}$/i, '');
  }
  if (t.trimEnd().endsWith(')')) t = t.replace(/\s*\((?:reporting|writing|editing|additional reporting) by [^)]{0,200}\)\s*$/i, '');
  const lines = t.split(/\n+/).filter((l) => l.trim() !== '');
  const first = leadLines(lines);
  let last = lines.length;
  while (last > first + 1 && lines.length - last < 4 && isFooterLine(lines[last - 1]!)) last--;
  return stripLead(lines.slice(first, last).join('\n'));
}

/** Removes `UPDATE 2-` style prefixes and `| Outlet` / `- Outlet` suffixes from a headline. */
export function removeTitleNoise(title: string): string {
  // ingest cleans each headline twice (enrichment, then fingerprint): the last result is kept
  if (title === lastTitleIn) return lastTitleOut;
  lastTitleIn = title;
  lastTitleOut = removeTitleNoiseOnce(title);
  return lastTitleOut;
}

let lastTitleIn = '';
let lastTitleOut = '';

function removeTitleNoiseOnce(title: string): string {
  let t = title.replace(TITLE_PREFIX, '');
  // the pipe pattern may start at every position: look for its `|` first
  if (t.indexOf('|') >= 0 && TITLE_SUFFIX_PIPE.test(t) && t.replace(TITLE_SUFFIX_PIPE, '').length >= 15) t = t.replace(TITLE_SUFFIX_PIPE, '');
  else {
    const m = TITLE_SUFFIX.exec(t);
    // a long enough rest, or a suffix that reads as an outlet's name (`Jobs - what next?` stays)
    if (m && (m.index >= 25 || (m.index >= 12 && OUTLET_NAME.test(m[1]!.trim()))) && !continuesHeadline(t.slice(0, m.index), m[1]!.trim())) t = t.slice(0, m.index);
  }
  return t;
}

/**
 * A tail after a spaced dash that is the headline's own words, not an outlet: lower case
 * ("hit - and - run", "court - ordered"), a score or range ("beat Chiefs 20 - 13"), a clause
 * ("Run Accident, Driver Charged"). Enrichment reads its names from the cleaned headline.
 */
function continuesHeadline(head: string, tail: string): boolean {
  const c = tail.charCodeAt(0);
  if (c >= 97 && c <= 122) return true;
  if (c >= 48 && c <= 57 && /\d$/.test(head)) return true;
  return tail.includes(',');
}

/** A headline ready for fingerprinting. */
export function normalizeTitle(title: string): string {
  return fold(cleanTitle(title));
}

/** A headline without markup and syndication noise, case kept: `normalizeTitle` before folding. */
export function cleanTitle(title: string): string {
  return removeTitleNoise(collapseSpaces(stripHtml(title)));
}

/** A snippet or body without markup and syndication noise, case kept (anchors read it). */
export function cleanText(text: string): string {
  return removeBodyNoise(stripHtml(text).replace(/\r\n?/g, '\n'));
}

/** A snippet or body ready for fingerprinting. */
export function normalizeText(text: string): string {
  return fold(cleanText(text));
}

/** `s.replace(/\s+/g, ' ').trim()`, without the copy when `s` is already like that (most text). */
export function collapseSpaces(s: string): string {
  return isCollapsed(s) ? s : s.replace(/\s+/g, ' ').trim();
}

/** whitespace `\s+` would change: any but the plain space, and runs of spaces */
const UNCOLLAPSED = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/** True when `s` has no whitespace but single plain spaces between other characters. */
function isCollapsed(s: string): boolean {
  // a `\s+` replace matches (and copies) every single space too; a test that fails is far cheaper
  const n = s.length;
  return n === 0 || (s.charCodeAt(0) !== 32 && s.charCodeAt(n - 1) !== 32 && !UNCOLLAPSED.test(s));
}
