import { FNV_PRIME, fmix32 } from '../../runtime/hash.js';

/**
 * Anchors: the names and figures of a text's lead (capitalised words that do not open a
 * sentence, and numbers), folded into a 64-bit mask (8 bytes). Formulaic news repeats its sentences
 * event after event ("At least 18 people were killed when a strong earthquake shook Dubai,
 * civil protection chief Gideon Everly told reporters") and differs only there, so two texts
 * whose shingles agree can still be two events. A copy of a story adds or drops anchors (a
 * dateline, a byline, a trimmed ending) but does not swap them: when *each* side names anchors
 * the other lacks, the pair is two stories, however similar the rest.
 */

/** characters of the cleaned lead read for anchors (about one snippet) */
export const ANCHOR_CHARS = 320;

const ANCHOR_SEED = 0x3c6ef372;

/** bytes of an anchor mask */
export const ANCHOR_BYTES = 8;

/**
 * Writes the anchor mask of a text whose markup, dateline, byline and footers are already
 * removed (case kept) into `out[off..off+8)`. All zero means no anchors: such a text never
 * conflicts.
 */
export function anchorMask(text: string, out: Uint8Array, off: number, maxChars = ANCHOR_CHARS): void {
  const end = Math.min(text.length, maxChars);
  for (let k = 0; k < ANCHOR_BYTES; k++) out[off + k] = 0;
  let sentenceStart = true;
  let i = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (!isWordChar(c)) {
      // sentence boundaries: full stops, colons, quotes. Not line breaks: one publisher wraps
      // its lines where another does not, and the words after a wrap must count alike
      if (c === 46 || c === 33 || c === 63 || c === 58 || c === 34 || c === 8220) {
        // a full stop inside a number ("12.5") or an initial ("U.S.") is not a boundary
        if (!(c === 46 && i + 1 < end && isWordChar(text.charCodeAt(i + 1)))) sentenceStart = true;
      }
      i++;
      continue;
    }
    const start = i;
    let digit = false;
    let h = ANCHOR_SEED;
    while (i < end) {
      const d = text.charCodeAt(i);
      if (!isWordChar(d)) {
        // a figure is one anchor with its decimal point or thousands separators ("50.50" is not "50")
        if (!((d === 46 || d === 44) && isDigit(text.charCodeAt(i - 1)) && i + 1 < end && isDigit(text.charCodeAt(i + 1)))) break;
      }
      if (d >= 48 && d <= 57) digit = true;
      h = Math.imul(h ^ lower(d), FNV_PRIME);
      i++;
    }
    // a word cut by the limit may be a different word: only whole words count
    if (i >= end && end < text.length) break;
    const first = text.charCodeAt(start);
    const capital = first >= 65 && first <= 90 ? true : first > 127 && text[start] !== text[start]!.toLowerCase();
    if (digit || (capital && !sentenceStart && i - start > 1)) {
      const bit = fmix32(h) & 63;
      out[off + (bit >>> 3)] |= 1 << (bit & 7);
    }
    sentenceStart = false;
  }
}

/**
 * Two anchor masks (8 bytes at `aOff` / `bOff`) conflict when each names something the other
 * does not. A side stored without a mask (shorter array) never conflicts.
 */
export function anchorsConflict(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number): boolean {
  if (a.length < aOff + ANCHOR_BYTES || b.length < bOff + ANCHOR_BYTES) return false;
  let aOnly = 0;
  let bOnly = 0;
  for (let k = 0; k < ANCHOR_BYTES; k++) {
    const x = a[aOff + k]!;
    const y = b[bOff + k]!;
    aOnly |= x & ~y;
    bOnly |= y & ~x;
  }
  return aOnly !== 0 && bOnly !== 0;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 191 && !(c >= 0x2000 && c <= 0x206f) && c !== 0x3000);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/**
 * A cleaned headline's text to read anchors from: the headline itself when it is in sentence
 * case, '' when it is in title case or capitals (there every word would be an anchor, and a copy
 * in sentence case would seem to drop them all). Counts the words of four letters or more after
 * the first: title case capitalises at least half of them.
 */
export function headlineAnchorText(title: string): string {
  let words = 0;
  let capitals = 0;
  let first = true;
  for (const w of title.split(/[^\p{L}\p{N}]+/u)) {
    if (w === '') continue;
    if (first) { first = false; continue; }
    if (w.length < 4 || !/^\p{L}/u.test(w)) continue;
    words++;
    if (w[0] !== w[0]!.toLowerCase()) capitals++;
  }
  return words > 0 && capitals * 2 >= words ? '' : title;
}
