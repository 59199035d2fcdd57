/**
 * Text as PostgreSQL will take it. A `text` column refuses NUL; `jsonb` refuses `\u0000` and a
 * lone UTF-16 surrogate (JSON.stringify writes one as a `\udXXX` escape, which PostgreSQL reads
 * as invalid Unicode), and rows travel as JSON. Bytes that were not valid UTF-8 already became
 * U+FFFD when the feed or the input line was decoded. Other control characters are accepted by
 * the database but are debris from broken feeds, so they go too (tab, newline and carriage
 * return stay). Everything that enters ingest passes through here once, at its entry: the feed
 * parser's output, and the pipeline's own input (WebSub, the crawler, `newsagg process`).
 */

/** A control character other than tab, LF and CR, or a noncharacter nobody means to send. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/;
const CONTROL_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_ALL = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The string with NUL removed (a NUL inside a word is UTF-16 read as bytes: "B\0a\0d" is "Bad"),
 * other control characters turned into spaces, and lone surrogates replaced by U+FFFD. A clean
 * string (the usual case) is returned as it is, after two scans and no copy.
 */
export function safeText(s: string): string {
  let out = s;
  if (CONTROL.test(out)) out = out.replace(CONTROL_ALL, (c) => (c === '\u0000' ? '' : ' '));
  if (LONE.test(out)) out = out.replace(LONE_ALL, '\ufffd');
  return out;
}

/** `safeText`, null and undefined kept as null. */
export function safeOptional(s: string | null | undefined): string | null {
  return s === null || s === undefined ? null : safeText(s);
}

/** At most `max` UTF-16 units, never ending inside a surrogate pair. */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  const c = s.charCodeAt(max - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max);
}

/** Safe and cut: what a stored field of at most `max` units may hold. */
export function safeField(s: string, max: number): string {
  return safeText(cutText(s, max));
}

/** True when `safeText` would change the string (tests, and deciding whether an object needs copying). */
export function isSafeText(s: string): boolean {
  return !CONTROL.test(s) && !LONE.test(s);
}
