import { isAscii, isUtf8, transcode } from 'node:buffer';
import iconv from 'iconv-lite';

/**
 * Byte-level character encoding detection and decoding for feed bodies.
 *
 * Order of evidence: byte order mark, then UTF-16/32 byte patterns of `<?xml` without a BOM,
 * then the HTTP `charset`, then the XML declaration (or JSON: UTF-8), then UTF-8. One exception
 * to "HTTP wins": servers that default to ISO-8859-1/ASCII for every text/* response are common,
 * so when the HTTP charset is such a Latin default, the body declares UTF-8 and is valid UTF-8,
 * the declaration wins; and any Latin label on non-ASCII bytes that are (mostly) UTF-8 gives way
 * to UTF-8. A document read as UTF-8 that holds invalid sequences keeps its valid characters and
 * gets U+FFFD for each invalid sequence, as browsers do; it is never re-read as Latin-1, which
 * would turn every accented letter of it into mojibake (`Ã©` for `é`). Only bytes that are
 * evidently a single-byte code page whatever the label says (far more invalid bytes than valid
 * sequences, and nearly all of them read as Latin-1 text: accented letters inside words, quotes,
 * symbols) are read as Windows-1252; the classic broken sequences (`\xC3(`, `\xE2\x82(`) are not.
 */

export interface Decoded {
  text: string;
  /** the encoding actually used (WHATWG / iconv label) */
  encoding: string;
}

const UTF8 = 'utf-8';

/** Windows-1252 code points for bytes 0x80..0x9F (undefined bytes keep their C1 code). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

function cp1252Char(b: number): string {
  return String.fromCharCode(b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b);
}

/** Sniff a BOM; returns the encoding and the BOM length. */
export function sniffBom(b: Uint8Array): { encoding: string; skip: number } | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: UTF8, skip: 3 };
  if (b.length >= 4 && b[0] === 0x00 && b[1] === 0x00 && b[2] === 0xfe && b[3] === 0xff) return { encoding: 'utf-32be', skip: 4 };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0x00 && b[3] === 0x00) return { encoding: 'utf-32le', skip: 4 };
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  return null;
}

/** UTF-16/32 without BOM: `<` (or any ASCII) next to zero bytes in the first code unit. */
function sniffWide(b: Uint8Array): string | null {
  if (b.length < 4) return null;
  const [a, c, d, e] = [b[0]!, b[1]!, b[2]!, b[3]!];
  if (a === 0 && c === 0 && d === 0 && e !== 0) return 'utf-32be';
  if (a !== 0 && c === 0 && d === 0 && e === 0) return 'utf-32le';
  if (a === 0 && c !== 0 && d === 0 && e !== 0) return 'utf-16be';
  if (a !== 0 && c === 0 && d !== 0 && e === 0) return 'utf-16le';
  return null;
}

/** The `encoding="..."` of an XML declaration at the start of ASCII-compatible bytes. */
export function declaredEncoding(b: Uint8Array, start = 0): string | null {
  const head = latin1(b, start, Math.min(b.length, start + 512));
  const m = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return m ? m[1]!.toLowerCase() : null;
}

/** The `charset` parameter of a Content-Type header. */
export function httpCharset(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : null;
}

function latin1(b: Uint8Array, from: number, to: number): string {
  // Latin-1 maps each byte to the code point of the same value: a plain copy, no per-byte concat
  return to > from ? Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1') : '';
}

const LATIN_DEFAULTS = new Set(['iso-8859-1', 'latin1', 'latin-1', 'us-ascii', 'ascii', 'windows-1252', 'cp1252', 'iso_8859-1']);
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);
const WIDE_LABELS = new Set(['utf-16', 'utf-16le', 'utf-16be', 'utf-32', 'utf-32le', 'utf-32be', 'ucs-2', 'ucs-4', 'unicode']);

/** Decode a body to a string, choosing the encoding as described above. */
export function decodeBody(body: Uint8Array, contentType?: string): Decoded {
  const bom = sniffBom(body);
  if (bom) return { text: decodeWith(body.subarray(bom.skip), bom.encoding), encoding: bom.encoding };
  const wide = sniffWide(body);
  if (wide) return { text: decodeWith(body, wide), encoding: wide };

  const http = httpCharset(contentType);
  const declared = declaredEncoding(body);
  let label = http ?? declared ?? UTF8;
  // a wide label on bytes that are evidently not wide (we checked above) is a lie: use the declaration
  if (WIDE_LABELS.has(label)) label = declared && !WIDE_LABELS.has(declared) ? declared : UTF8;
  if (http && LATIN_DEFAULTS.has(http) && declared && UTF8_LABELS.has(declared) && isValidUtf8(body)) label = UTF8;
  // a Latin label on bytes that hold non-ASCII and are (mostly) UTF-8 is a template's stale
  // declaration: Latin-1 text almost never forms valid multi-byte sequences (`Ã©` for `é`)
  else if (LATIN_DEFAULTS.has(label) && !isAscii(body) && (isUtf8(body) || mostlyUtf8(body))) label = UTF8;

  if (UTF8_LABELS.has(label)) return decodeUtf8Sniffed(body);
  try {
    return { text: decodeWith(body, label), encoding: label };
  } catch {
    // unknown label: the bytes are most likely UTF-8
    return decodeUtf8Sniffed(body);
  }
}

/**
 * Bytes labelled (or presumed) UTF-8: valid ones as they are; invalid ones with U+FFFD for each
 * invalid sequence, unless the bytes are evidently Latin-1 text under a wrong label (see
 * `looksLatin`): then they are read as Windows-1252, the WHATWG reading of Latin-1.
 */
function decodeUtf8Sniffed(b: Uint8Array): Decoded {
  if (isUtf8(b)) return { text: decodeValidUtf8(b), encoding: UTF8 };
  if (looksLatin(utf8Evidence(b))) return { text: decodeCp1252(b), encoding: 'windows-1252' };
  return { text: decodeUtf8(b), encoding: UTF8 };
}

/**
 * Far more bytes outside UTF-8 than valid sequences (which a Windows-1252 reading would garble:
 * the few in a Latin-1 document are accidents), and at least 90 % of them plausible Latin-1 text.
 */
function looksLatin(e: { valid: number; invalid: number; latin: number }): boolean {
  return e.invalid >= 4 * e.valid && e.invalid > 0 && e.latin * 10 >= e.invalid * 9;
}

/** More valid multi-byte UTF-8 sequences than invalid bytes (a UTF-8 document with a few bad bytes). */
function mostlyUtf8(b: Uint8Array): boolean {
  const e = utf8Evidence(b);
  return e.valid > e.invalid;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isValidUtf8(b: Uint8Array): boolean {
  try {
    fatalUtf8.decode(b);
    return true;
  } catch {
    return false;
  }
}

function decodeWith(b: Uint8Array, label: string): string {
  if (UTF8_LABELS.has(label)) return decodeUtf8(b);
  if (LATIN_DEFAULTS.has(label)) return decodeCp1252(b);
  if (label.startsWith('utf-32') || label === 'ucs-4') {
    return iconv.decode(Buffer.from(b.buffer, b.byteOffset, b.byteLength), label === 'ucs-4' ? 'utf-32be' : label);
  }
  try {
    return new TextDecoder(label, { ignoreBOM: true }).decode(b);
  } catch (err) {
    if (iconv.encodingExists(label)) return iconv.decode(Buffer.from(b.buffer, b.byteOffset, b.byteLength), label);
    throw err;
  }
}

/**
 * Windows-1252, which WHATWG also uses for ISO-8859-1 and ASCII labels (feeds labelled Latin-1
 * routinely contain cp1252 quotes and dashes). Done by hand: Node 20's TextDecoder decodes this
 * label as plain Latin-1, turning the quotes into C1 control characters.
 */
export function decodeCp1252(b: Uint8Array): string {
  const s = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
  return /[\x80-\x9f]/.test(s) ? s.replace(/[\x80-\x9f]/g, (c) => cp1252Char(c.charCodeAt(0))) : s;
}

/** Bodies below this size decode quickly enough either way. */
const TRANSCODE_MIN_BYTES = 4096;

/**
 * Valid UTF-8 to a string. V8's decoder (behind TextDecoder and Buffer#toString) is quick on
 * pure ASCII but drops to a slow path at the first other character: a 50 KB feed with a few
 * hundred curly quotes took ~4x longer than ICU's converter plus a UTF-16 copy. The text is the
 * same either way (valid input has exactly one decoding, a BOM is kept as with `ignoreBOM`).
 */
function decodeValidUtf8(b: Uint8Array): string {
  if (b.length < TRANSCODE_MIN_BYTES || isAscii(b)) return fatalUtf8.decode(b);
  try {
    return transcode(b, 'utf8', 'utf16le').toString('utf16le');
  } catch {
    // a Node built without ICU has no transcode
    return fatalUtf8.decode(b);
  }
}

const replacingUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-8 to a string; each invalid sequence becomes U+FFFD (the WHATWG decoder's rule), valid text is kept. */
export function decodeUtf8(b: Uint8Array): string {
  return isUtf8(b) ? decodeValidUtf8(b) : replacingUtf8.decode(b);
}

/** Windows-1252 bytes 0x80..0x9F that are characters (quotes, dashes, €); the others are unassigned. */
const CP1252_UNASSIGNED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

function asciiLetter(c: number | undefined): boolean {
  return c !== undefined && (c | 32) >= 0x61 && (c | 32) <= 0x7a;
}

/** Where a word ends: none, white space, punctuation, markup, a no-break space or guillemet. */
function wordEdge(c: number | undefined): boolean {
  return c === undefined || c <= 0x20 || c === 0xa0 || c === 0xab || c === 0xbb || '.,;:!?\'"<>'.includes(String.fromCharCode(c));
}

/** à è é ò ó ù: accented letters that are words of their own (French, Italian, Portuguese). */
const ONE_LETTER_WORDS = new Set([0xe0, 0xe8, 0xe9, 0xf2, 0xf3, 0xf9]);

/**
 * Whether the byte at `i`, read as Windows-1252, looks like text: a quote, dash or symbol, an
 * accented letter inside a word (`é` in `Café`), or one that is a word (`à`). A broken UTF-8
 * sequence (`\xC3(`, `\xE2\x82(`) does not.
 */
function latinAt(b: Uint8Array, i: number): boolean {
  const c = b[i]!;
  if (c < 0xa0) return !CP1252_UNASSIGNED.has(c);
  if (c < 0xc0) return true;
  const prev = b[i - 1];
  const next = b[i + 1];
  if (asciiLetter(prev) || asciiLetter(next) || (prev !== undefined && prev >= 0xc0) || (next !== undefined && next >= 0xc0)) return true;
  return ONE_LETTER_WORDS.has(c) && wordEdge(prev) && wordEdge(next);
}

/**
 * Counts of valid multi-byte UTF-8 sequences, of bytes that start no valid sequence, and of those
 * that look like Latin-1 text (see `latinAt`).
 */
export function utf8Evidence(b: Uint8Array): { valid: number; invalid: number; latin: number } {
  let valid = 0;
  let invalid = 0;
  let latin = 0;
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) ok = (b[i + k]! & 0xc0) === 0x80;
    if (ok && len === 3) {
      const c1 = b[i + 1]!;
      ok = !(c === 0xe0 && c1 < 0xa0) && !(c === 0xed && c1 >= 0xa0);
    } else if (ok && len === 4) {
      const c1 = b[i + 1]!;
      ok = !(c === 0xf0 && c1 < 0x90) && !(c === 0xf4 && c1 >= 0x90);
    }
    if (ok) {
      valid++;
      i += len;
    } else {
      invalid++;
      if (latinAt(b, i)) latin++;
      i++;
    }
  }
  return { valid, invalid, latin };
}
