import { francAll } from 'franc-min';
import { mayContain, wordFilter } from './text.js';

/**
 * Language detection with the feed's declared language as a prior. Most articles are settled
 * by a cheap script check and function-word counts; franc-min (trigrams, ~100x slower) is only
 * consulted when those are unsure, and then the declared language gets a bonus.
 */

/** ISO 639-3 (franc) -> ISO 639-1 for the languages feeds commonly declare. */
const ISO3_TO_1: Record<string, string> = {
  eng: 'en', fra: 'fr', deu: 'de', spa: 'es', ita: 'it', por: 'pt', nld: 'nl', swe: 'sv', dan: 'da',
  nob: 'no', fin: 'fi', pol: 'pl', ces: 'cs', slk: 'sk', hun: 'hu', ron: 'ro', bul: 'bg', ell: 'el',
  rus: 'ru', ukr: 'uk', tur: 'tr', arb: 'ar', pes: 'fa', heb: 'he', hin: 'hi', ben: 'bn', urd: 'ur',
  cmn: 'zh', jpn: 'ja', kor: 'ko', tha: 'th', vie: 'vi', ind: 'id', zlm: 'ms', tgl: 'tl', swh: 'sw',
  hrv: 'hr', srp: 'sr', bos: 'bs', slv: 'sl', lit: 'lt', lav: 'lv', est: 'et', cat: 'ca', glg: 'gl',
};

/** Function words of the Latin-script languages we settle without trigrams. */
const FUNCTION_WORDS: Record<string, string> = {
  en: 'the of and to in is for on that with as was at by from has have are be it this will after over says said its an',
  fr: 'le la les des du un une et est dans pour sur au aux par pas que qui avec sont ce cette ont été selon',
  de: 'der die das und ist nicht mit den dem des ein eine für auf im zu von sich auch bei nach wird sind',
  es: 'el la los las de del y en que por con para una un es se su al más como pero sus fue según',
  it: 'il lo la gli le di del della e che per con una un è non sono nel alla dei delle anche',
  pt: 'o os as de do da dos das e em que para com uma um não por no na ao mais foi são é',
  nl: 'de het een en van in is op te dat met voor zijn niet aan er ook bij door naar wordt',
  sv: 'och att det som en på är av för med till den har inte om ett var de från',
};

const WORD_LANG = new Map<string, number>();
const LANGS = Object.keys(FUNCTION_WORDS);
LANGS.forEach((lang, li) => {
  for (const w of FUNCTION_WORDS[lang]!.split(' ')) WORD_LANG.set(w, (WORD_LANG.get(w) ?? 0) | (1 << li));
});

/** most tokens are no function word: the filter spares hashing them for the map */
const WORD_LANG_FILTER = wordFilter(WORD_LANG.keys());
const COUNTS = new Int32Array(LANGS.length);
/** franc compares only against languages we can name: fewer trigram tables to score */
const FRANC_ONLY = Object.keys(ISO3_TO_1);

/** "en-US", "EN_gb", "english" -> "en"; null when unusable. */
export function normalizeLanguageTag(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const t = tag.trim().toLowerCase();
  if (t.length === 0) return null;
  if (t === 'english') return 'en';
  const base = t.split(/[-_]/)[0]!;
  if (base.length === 2) return base;
  return ISO3_TO_1[base] ?? null;
}

/** Language from the dominant non-Latin script, or null for Latin/mixed text. */
function scriptLanguage(text: string): string | null {
  let latin = 0, cyr = 0, greek = 0, arabic = 0, hebrew = 0, han = 0, kana = 0, hangul = 0, deva = 0, thai = 0;
  const n = Math.min(text.length, 400);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) { if ((c | 32) >= 97 && (c | 32) <= 122) latin++; }
    else if (c <= 0x24f) latin++;
    else if (c >= 0x400 && c <= 0x4ff) cyr++;
    else if (c >= 0x370 && c <= 0x3ff) greek++;
    else if (c >= 0x600 && c <= 0x6ff) arabic++;
    else if (c >= 0x590 && c <= 0x5ff) hebrew++;
    else if (c >= 0x3040 && c <= 0x30ff) kana++;
    else if (c >= 0x4e00 && c <= 0x9fff) han++;
    else if (c >= 0xac00 && c <= 0xd7af) hangul++;
    else if (c >= 0x900 && c <= 0x97f) deva++;
    else if (c >= 0xe00 && c <= 0xe7f) thai++;
  }
  const other = Math.max(cyr, greek, arabic, hebrew, han + kana, hangul, deva, thai);
  if (other <= latin) return null;
  if (other === han + kana) return kana > 0 ? 'ja' : 'zh';
  if (other === hangul) return 'ko';
  if (other === greek) return 'el';
  if (other === hebrew) return 'he';
  if (other === deva) return 'hi';
  if (other === thai) return 'th';
  if (other === arabic) return 'ar';
  return 'cyr';
}

export interface LanguageResult {
  language: string;
  /** how it was decided, for debugging and metrics */
  via: 'script' | 'words' | 'declared' | 'trigrams' | 'default';
}

/**
 * Detect the language of `text` (title + summary is enough). `tokens` are the lower-cased
 * tokens of the same text when the caller already has them.
 */
export function detectLanguage(text: string, declared: string | null | undefined, tokens: readonly string[]): LanguageResult {
  const prior = normalizeLanguageTag(declared);
  const script = scriptLanguage(text);
  if (script !== null && script !== 'cyr') return { language: script, via: 'script' };

  if (script === null) {
    const counts = COUNTS.fill(0);
    let hits = 0;
    // 60 tokens settle it; long texts need not be read to the end
    const upto = Math.min(tokens.length, 60);
    for (let i = 0; i < upto; i++) {
      const t = tokens[i]!;
      const mask = mayContain(WORD_LANG_FILTER, t) ? WORD_LANG.get(t) : undefined;
      if (mask === undefined) continue;
      hits++;
      for (let li = 0; li < LANGS.length; li++) if (mask & (1 << li)) counts[li]!++;
    }
    let best = -1, bestN = 0, secondN = 0;
    for (let li = 0; li < LANGS.length; li++) {
      const c = counts[li]!;
      if (c > bestN) { secondN = bestN; bestN = c; best = li; } else if (c > secondN) secondN = c;
    }
    const bestLang = best >= 0 ? LANGS[best]! : null;
    if (prior !== null) {
      const pi = LANGS.indexOf(prior);
      const priorN = pi >= 0 ? counts[pi]! : 0;
      // The declared language stands unless the words clearly say otherwise.
      if (bestLang === null || bestLang === prior || bestN < 3 || priorN * 2 >= bestN) {
        return { language: prior, via: 'declared' };
      }
      return { language: bestLang, via: 'words' };
    }
    // Trigram statistics are unreliable on headlines: a clear function-word lead decides.
    if (bestLang !== null && bestN >= secondN * 2 && (bestN >= 2 || tokens.length < 25)) return { language: bestLang, via: 'words' };
    if (hits === 0 && tokens.length > 0 && tokens.length < 4) return { language: 'en', via: 'default' };
  }

  const ranked = francAll(text.length > 600 ? text.slice(0, 600) : text, { minLength: 8, only: FRANC_ONLY });
  let bestLang: string | null = null;
  let bestScore = -1;
  for (const [code, score] of ranked) {
    const lang = ISO3_TO_1[code];
    if (lang === undefined) continue;
    const s = score + (lang === prior ? 0.15 : 0);
    if (s > bestScore) { bestScore = s; bestLang = lang; }
  }
  if (bestLang !== null) return { language: bestLang, via: 'trigrams' };
  if (prior !== null) return { language: prior, via: 'declared' };
  return { language: script === 'cyr' ? 'ru' : 'en', via: 'default' };
}
