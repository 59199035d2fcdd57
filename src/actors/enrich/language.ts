import { francAll } from 'franc-min';
import { mayContain, wordFilter } from './text.js';
import { nonLatinLanguage, scriptLanguage } from './script.js';

/**
 * Language detection for headlines and snippets, priors first. A headline is a few words: no
 * statistical detector reads "Apple unveils new iPhone" reliably (trigram models call it German or
 * French), so the text only overrules what is already known when it says so clearly:
 *  1. a non-Latin script names the language (with the letters that tell Ukrainian from Russian,
 *     Urdu from Arabic);
 *  2. the feed's declared language, else the publisher's, stands unless the function words of
 *     another language clearly outnumber its own;
 *  3. without a prior, function words decide when they lead clearly; franc-min (trigrams) is
 *     consulted only for a longer Latin text that shows signs of a language other than English
 *     (its function words or letters); otherwise English, the language most feeds write in.
 */

/** ISO 639-3 (franc) -> ISO 639-1 for the languages feeds commonly declare. */
const ISO3_TO_1: Record<string, string> = {
  eng: 'en', fra: 'fr', deu: 'de', spa: 'es', ita: 'it', por: 'pt', nld: 'nl', swe: 'sv', dan: 'da',
  nob: 'no', fin: 'fi', pol: 'pl', ces: 'cs', slk: 'sk', hun: 'hu', ron: 'ro', bul: 'bg', ell: 'el',
  rus: 'ru', ukr: 'uk', tur: 'tr', arb: 'ar', pes: 'fa', heb: 'he', hin: 'hi', ben: 'bn', urd: 'ur',
  cmn: 'zh', jpn: 'ja', kor: 'ko', tha: 'th', vie: 'vi', ind: 'id', zlm: 'ms', tgl: 'tl', swh: 'sw',
  hrv: 'hr', srp: 'sr', bos: 'bs', slv: 'sl', lit: 'lt', lav: 'lv', est: 'et', cat: 'ca', glg: 'gl',
};

/** Function words (and a few headline staples) of the Latin-script languages settled without trigrams. */
const FUNCTION_WORDS: Record<string, string> = {
  en: 'the of and to in is for on that with as was at by from has have are be it this will after over says said its an ' +
    'new how why what who than into about up out off amid against more not could would can may before their do no so ' +
    'you your we our he she his her they them been being were which while when where vs but if or all just now',
  // words English headlines also write ("UN", "La.", "No.", "Co", "e-mail", "Al") are left out
  fr: 'le la les des du une et est dans pour sur au aux par pas que qui avec sont ce cette ont été selon ses leur ' +
    'mais plus comme après entre sans chez vers contre lors depuis être fait nous vous il elle ils',
  de: 'der die das und ist nicht mit den dem des ein eine einen für auf im zu von sich auch bei nach wird sind ' +
    'gegen über wie noch nur vor aus um zum zur wieder oder aber als wenn mehr neue neuen kann muss hat',
  es: 'el la los las de del y en que por con para una es se su más como pero sus fue según ' +
    'tras sobre entre sin desde hasta este esta ya ha han muy también',
  it: 'lo gli di del della che per con una è non sono nel alla dei delle anche ' +
    'ai al dal dalla sul sulla tra fra più come dopo questo questa ha hanno',
  pt: 'os as de do da dos das em que para uma um não por ao mais foi são é ' +
    'nos nas pelo pela sobre após entre sem seu sua ele ela já também',
  nl: 'de het een en van in is op te dat met voor zijn niet aan er ook bij door naar wordt ' +
    'om als maar nog wel uit over dan meer kan hij zij deze dit',
  sv: 'och att det som en på är av för med till den har inte om ett var de från ' +
    'efter men nu kan ska vill under mot blir sig',
  pl: 'się nie że jest jak przez dla już czy są był na od oraz być może został po',
};

const WORD_LANG = new Map<string, number>();
const LANGS = Object.keys(FUNCTION_WORDS);
const EN = LANGS.indexOf('en');
LANGS.forEach((lang, li) => {
  for (const w of FUNCTION_WORDS[lang]!.split(' ')) if (w) WORD_LANG.set(w, (WORD_LANG.get(w) ?? 0) | (1 << li));
});

/** most tokens are no function word: the filter spares hashing them for the map */
const WORD_LANG_FILTER = wordFilter(WORD_LANG.keys());
const COUNTS = new Int32Array(LANGS.length);
/** franc compares only against languages we can name: fewer trigram tables to score */
const FRANC_ONLY = Object.keys(ISO3_TO_1);
/** letters English does not use: a sign (not proof) that a Latin text is in another language */
const FOREIGN_LETTERS = /[\u00c0-\u00ff\u0100-\u024f]/;
/** franc needs this many letters before its trigram statistics mean anything */
const FRANC_MIN_LETTERS = 60;

/** "en-US", "EN_gb", "english" -> "en"; null when unusable. */
export function normalizeLanguageTag(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const t = tag.trim().toLowerCase();
  if (t.length === 0) return null;
  const named = NAMES[t];
  if (named) return named;
  const base = t.split(/[-_]/)[0]!;
  if (/^[a-z]{2}$/.test(base)) return base;
  return ISO3_TO_1[base] ?? null;
}

const NAMES: Record<string, string> = {
  english: 'en', french: 'fr', german: 'de', spanish: 'es', italian: 'it', portuguese: 'pt', dutch: 'nl',
  russian: 'ru', ukrainian: 'uk', polish: 'pl', swedish: 'sv', arabic: 'ar', chinese: 'zh', japanese: 'ja',
};

export interface LanguageResult {
  language: string;
  /** how it was decided, for debugging and metrics */
  via: 'script' | 'words' | 'declared' | 'publisher' | 'trigrams' | 'default';
}

/** Function-word counts of the first 60 tokens into COUNTS; returns how many tokens were function words. */
function countFunctionWords(tokens: readonly string[]): number {
  const counts = COUNTS.fill(0);
  let hits = 0;
  const upto = Math.min(tokens.length, 60);
  for (let i = 0; i < upto; i++) {
    const t = tokens[i]!;
    const mask = mayContain(WORD_LANG_FILTER, t) ? WORD_LANG.get(t) : undefined;
    if (mask === undefined) continue;
    hits++;
    for (let li = 0; li < LANGS.length; li++) if (mask & (1 << li)) counts[li]!++;
  }
  return hits;
}

/**
 * Detect the language of `text` (title + summary is enough). `tokens` are the lower-cased
 * tokens of the same text when the caller already has them. `declared` is the feed's language
 * (`<language>`, `xml:lang`), `publisher` the publisher's own language from the catalogue.
 */
export function detectLanguage(text: string, declared: string | null | undefined, tokens: readonly string[], publisher?: string | null): LanguageResult {
  let fromFeed = normalizeLanguageTag(declared);
  let fromPublisher = normalizeLanguageTag(publisher);
  const script = scriptLanguage(text, fromFeed ?? fromPublisher);
  if (script !== null) {
    const prior = fromFeed ?? fromPublisher;
    return script === prior ? { language: prior, via: fromFeed ? 'declared' : 'publisher' } : { language: script, via: 'script' };
  }
  // the text is Latin: a prior written in another script (an English section of a Kannada portal) cannot be it
  if (fromFeed && nonLatinLanguage(fromFeed)) fromFeed = null;
  if (fromPublisher && nonLatinLanguage(fromPublisher)) fromPublisher = null;
  const prior = fromFeed ?? fromPublisher;
  const priorVia = fromFeed ? 'declared' : 'publisher';

  countFunctionWords(tokens);
  let best = -1, bestN = 0, secondN = 0;
  for (let li = 0; li < LANGS.length; li++) {
    const c = COUNTS[li]!;
    if (c > bestN) { secondN = bestN; bestN = c; best = li; } else if (c > secondN) secondN = c;
  }
  const bestLang = best >= 0 ? LANGS[best]! : null;
  if (prior !== null) {
    // feed and publisher disagree: the one the words side with
    if (fromFeed && fromPublisher && fromFeed !== fromPublisher && countOf(fromPublisher) > countOf(fromFeed)) {
      return { language: fromPublisher, via: 'publisher' };
    }
    const priorN = countOf(prior);
    // The prior stands unless the words clearly say otherwise.
    if (bestLang === null || bestLang === prior || bestN < 3 || priorN * 2 >= bestN) return { language: prior, via: priorVia };
    return { language: bestLang, via: 'words' };
  }
  const enN = COUNTS[EN]!;
  // a clear lead of one language's function words decides (another language's by two over English)
  if (bestLang !== null && bestN >= 2 && bestN >= secondN * 2 && (bestLang === 'en' || bestN >= enN + 2)) return { language: bestLang, via: 'words' };
  // English, unless a long enough text shows another language's words or letters: then trigrams
  const foreignWords = bestLang !== null && bestLang !== 'en' && bestN > enN;
  const foreignLetters = FOREIGN_LETTERS.test(text);
  // letters English lacks ("França", "Suíça") are stronger evidence than a stray function word
  if (!(foreignWords || foreignLetters) || letterCount(text) < (foreignLetters ? FRANC_MIN_LETTERS / 2 : FRANC_MIN_LETTERS)) return { language: 'en', via: 'default' };
  const lang = trigramLanguage(text);
  // a name with an accent ("Beyoncé") in an English sentence: English words outvote trigrams
  if (lang === null || (lang !== 'en' && enN >= 2 && enN >= bestN)) return { language: 'en', via: 'default' };
  return { language: lang, via: 'trigrams' };
}

function countOf(lang: string): number {
  const i = LANGS.indexOf(lang);
  return i >= 0 ? COUNTS[i]! : 0;
}

function letterCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length && n < FRANC_MIN_LETTERS; i++) {
    const c = text.charCodeAt(i) | 32;
    if ((c >= 97 && c <= 122) || c >= 0xc0) n++;
  }
  return n;
}

function trigramLanguage(text: string): string | null {
  const ranked = francAll(text.length > 600 ? text.slice(0, 600) : text, { minLength: 8, only: FRANC_ONLY });
  for (const [code] of ranked) {
    const lang = ISO3_TO_1[code];
    if (lang !== undefined) return lang;
  }
  return null;
}
