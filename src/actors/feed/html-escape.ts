import { decodeHTML } from 'entities';

/** HTML escaping for the sanitiser's output, and the decoding of text between tags. */

const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&<>"]/;

// One literal replace per character beats a single replace with a callback (V8 runs these as
// native scans): measured ~1.5x faster on text that needs escaping.

/** Escape text for HTML output. */
export function escapeText(s: string): string {
  return TEXT_SPECIAL.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s;
}

/** Escape an attribute value for output inside double quotes. */
export function escapeAttr(s: string): string {
  return ATTR_SPECIAL.test(s) ? escapeText(s).replace(/"/g, '&quot;') : s;
}

/** `[#0-9A-Za-z]`: the characters a character reference can run over after its `&`. */
function isRefChar(c: number): boolean {
  const l = c | 0x20;
  return (c >= 48 && c <= 57) || (l >= 97 && l <= 122) || c === 35;
}

/**
 * Text between tags (it holds no `<`) that needs work: entities decoded and the result escaped,
 * a stray `>` escaped. Only the references themselves go through the decoder: the entity
 * decoder handles every `&` on its own and can consume nothing past `[#0-9A-Za-z]*;?`, so
 * decoding each reference alone gives the same text as decoding the whole segment, without
 * rescanning long paragraphs that hold one `AT&T`.
 */
export function cookText(s: string): string {
  let amp = s.indexOf('&');
  if (amp === -1) return s.replace(/>/g, '&gt;');
  const hasGt = s.indexOf('>') !== -1;
  const n = s.length;
  let out = '';
  let from = 0;
  do {
    if (amp > from) out += hasGt ? s.slice(from, amp).replace(/>/g, '&gt;') : s.slice(from, amp);
    let end = amp + 1;
    while (end < n && isRefChar(s.charCodeAt(end))) end++;
    if (end < n && s.charCodeAt(end) === 59 /* ; */) end++;
    out += escapeText(decodeHTML(s.slice(amp, end)));
    from = end;
    amp = s.indexOf('&', end);
  } while (amp !== -1);
  if (from < n) out += hasGt ? s.slice(from).replace(/>/g, '&gt;') : s.slice(from);
  return out;
}
