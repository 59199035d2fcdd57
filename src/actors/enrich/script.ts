/**
 * Language from the writing system, for text that is not mostly Latin. Scripts shared by several
 * languages are split by the letters only one of them uses (Ukrainian і ї є ґ against Russian
 * ы э ъ ё; Urdu ٹ ڈ ڑ ں ے against Persian پ چ ژ گ against Arabic); when the letters do not tell, a
 * prior in the same script is kept.
 */

type Script = 'latin' | 'cyrillic' | 'greek' | 'arabic' | 'hebrew' | 'han' | 'kana' | 'hangul' | 'devanagari' | 'bengali' |
  'gurmukhi' | 'gujarati' | 'tamil' | 'telugu' | 'kannada' | 'malayalam' | 'thai' | 'georgian' | 'armenian';

/** the languages written in each script that we may be told as a prior */
const SCRIPT_OF: Record<string, Script> = {
  ru: 'cyrillic', uk: 'cyrillic', bg: 'cyrillic', sr: 'cyrillic', mk: 'cyrillic', be: 'cyrillic', kk: 'cyrillic', mn: 'cyrillic',
  ar: 'arabic', fa: 'arabic', ur: 'arabic', ps: 'arabic', el: 'greek', he: 'hebrew', yi: 'hebrew', zh: 'han', ja: 'kana',
  ko: 'hangul', hi: 'devanagari', mr: 'devanagari', ne: 'devanagari', bn: 'bengali', pa: 'gurmukhi', gu: 'gujarati',
  ta: 'tamil', te: 'telugu', kn: 'kannada', ml: 'malayalam', th: 'thai', ka: 'georgian', hy: 'armenian',
};

/** Whether a language is written in a script of its own (not Latin): such a prior cannot name a Latin text. */
export function nonLatinLanguage(lang: string): boolean {
  return SCRIPT_OF[lang] !== undefined;
}

const SINGLE: Partial<Record<Script, string>> = {
  greek: 'el', hebrew: 'he', hangul: 'ko', devanagari: 'hi', bengali: 'bn', gurmukhi: 'pa', gujarati: 'gu', tamil: 'ta',
  telugu: 'te', kannada: 'kn', malayalam: 'ml', thai: 'th', georgian: 'ka', armenian: 'hy',
};

function scriptOf(c: number): Script | null {
  if (c < 0x370) return c < 0x80 ? ((c | 32) >= 97 && (c | 32) <= 122 ? 'latin' : null) : c >= 0xc0 ? 'latin' : null;
  if (c < 0x400) return 'greek';
  if (c < 0x530) return 'cyrillic';
  if (c < 0x590) return 'armenian';
  if (c < 0x600) return 'hebrew';
  if (c < 0x700) return 'arabic';
  if (c >= 0x750 && c < 0x780) return 'arabic';
  if (c >= 0x900 && c < 0x980) return 'devanagari';
  if (c >= 0x980 && c < 0xa00) return 'bengali';
  if (c >= 0xa00 && c < 0xa80) return 'gurmukhi';
  if (c >= 0xa80 && c < 0xb00) return 'gujarati';
  if (c >= 0xb80 && c < 0xc00) return 'tamil';
  if (c >= 0xc00 && c < 0xc80) return 'telugu';
  if (c >= 0xc80 && c < 0xd00) return 'kannada';
  if (c >= 0xd00 && c < 0xd80) return 'malayalam';
  if (c >= 0xe00 && c < 0xe80) return 'thai';
  if (c >= 0x10a0 && c < 0x1100) return 'georgian';
  if (c >= 0x1e00 && c < 0x1f00) return 'latin';
  if (c >= 0x1f00 && c < 0x2000) return 'greek';
  if (c >= 0x3040 && c < 0x3100) return 'kana';
  if (c >= 0x4e00 && c < 0xa000) return 'han';
  if (c >= 0xac00 && c < 0xd7b0) return 'hangul';
  if (c >= 0xfb50 && c < 0xfe00) return 'arabic';
  if (c >= 0xfe70 && c < 0xff00) return 'arabic';
  return null;
}

const COUNT = new Int32Array(24);
const SCRIPTS: Script[] = ['latin', 'cyrillic', 'greek', 'arabic', 'hebrew', 'han', 'kana', 'hangul', 'devanagari', 'bengali',
  'gurmukhi', 'gujarati', 'tamil', 'telugu', 'kannada', 'malayalam', 'thai', 'georgian', 'armenian'];
const INDEX = new Map(SCRIPTS.map((s, i) => [s, i]));

/**
 * The language of a text written mostly in a non-Latin script, or null for Latin (and
 * script-less) text. `prior` is kept when it is written in the same script and the letters do
 * not say otherwise.
 */
export function scriptLanguage(text: string, prior: string | null): string | null {
  COUNT.fill(0);
  const n = Math.min(text.length, 400);
  let any = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // ASCII that is not a letter says nothing; most headlines are ASCII: one test settles them
    if (c < 0x80 && ((c | 32) < 97 || (c | 32) > 122)) continue;
    const s = scriptOf(c);
    if (s !== null) { COUNT[INDEX.get(s)!]!++; any = true; }
  }
  if (!any) return null;
  let top = 0;
  for (let i = 1; i < SCRIPTS.length; i++) if (COUNT[i]! > COUNT[top]!) top = i;
  // Japanese mixes kana and Han: any kana makes it Japanese
  const han = COUNT[INDEX.get('han')!]!, kana = COUNT[INDEX.get('kana')!]!;
  if (han + kana > COUNT[top]!) top = INDEX.get(kana > 0 ? 'kana' : 'han')!;
  const script = SCRIPTS[top]!;
  if (script === 'latin' || COUNT[top]! <= COUNT[0]!) return null;
  if (prior && SCRIPT_OF[prior] === script) {
    // the prior stands unless the letters name another language of the script
    const told = script === 'cyrillic' ? cyrillic(text) : script === 'arabic' ? arabic(text) : null;
    return told ?? prior;
  }
  if (script === 'kana') return 'ja';
  if (script === 'han') return kana > 0 ? 'ja' : 'zh';
  if (script === 'cyrillic') return cyrillic(text) ?? 'ru';
  if (script === 'arabic') return arabic(text) ?? 'ar';
  return SINGLE[script] ?? null;
}

/** Ukrainian, Russian, Bulgarian or Serbian by their own letters; null when none shows. */
function cyrillic(text: string): string | null {
  let uk = 0, ru = 0, hard = 0, sr = 0;
  for (let i = 0; i < text.length && i < 600; i++) {
    switch (lowerCyrillic(text.charCodeAt(i))) {
      case 0x456: case 0x457: case 0x454: case 0x491: uk++; break; // і ї є ґ
      case 0x44b: case 0x44d: case 0x451: ru++; break; // ы э ё
      case 0x44a: hard++; break; // ъ: Russian (rare) and Bulgarian (common)
      case 0x45a: case 0x459: case 0x45b: case 0x45f: case 0x452: case 0x458: sr++; break; // њ љ ћ џ ђ ј
      default: break;
    }
  }
  if (sr > 0 && sr >= uk && ru === 0) return 'sr';
  if (uk > 0 && uk >= ru) return 'uk';
  if (ru > 0) return 'ru';
  if (hard > 0) return 'bg';
  return null;
}

function lowerCyrillic(c: number): number {
  if (c >= 0x400 && c < 0x410) return c + 0x50;
  if (c >= 0x410 && c < 0x430) return c + 0x20;
  return c === 0x490 ? 0x491 : c;
}

/** Urdu, Persian or Arabic by their own letters; null when none shows. */
function arabic(text: string): string | null {
  let ur = 0, fa = 0, ar = 0;
  for (let i = 0; i < text.length && i < 600; i++) {
    switch (text.charCodeAt(i)) {
      case 0x679: case 0x688: case 0x691: case 0x6ba: case 0x6d2: case 0x6c1: case 0x6be: ur++; break; // ٹ ڈ ڑ ں ے ہ ھ
      case 0x67e: case 0x686: case 0x698: case 0x6af: case 0x6cc: case 0x6a9: fa++; break; // پ چ ژ گ ی ک (Urdu uses them too)
      case 0x629: case 0x64a: case 0x643: case 0x649: ar++; break; // ة ي ك ى
      default: break;
    }
  }
  if (ur > 0) return 'ur';
  if (fa > ar) return 'fa';
  if (ar > 0) return 'ar';
  return null;
}
