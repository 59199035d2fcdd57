import { loadTopicModel, scoreFeatures, softmax, topicFeatures, CATEGORIES, type Category, type TopicModel } from './topic-model.js';

/**
 * Topic = evidence from three places, strongest first:
 *  1. the feed's own category tag or section ("Sports", a `/sports` feed) - publishers know;
 *  2. the compact trained model over title + snippet words and the URL's host and sections;
 *  3. keyword rules, consulted only when the model is unsure (they also supply `science`,
 *     which no training set labels).
 */

const TAGS: Record<string, Category> = {};
const tag = (cat: Category, words: string): void => { for (const w of words.split(' ')) TAGS[w] = cat; };
tag('world', 'world international worldnews global foreign africa asia europe americas middleeast middle-east');
tag('politics', 'politics political elections election government congress parliament policy');
tag('business', 'business money markets market economy finance financial companies company industry stocks investing personal-finance deals');
tag('technology', 'technology tech gadgets internet computing science-technology sci-tech scitech digital innovation cyber');
tag('science', 'science space environment climate nature research');
tag('health', 'health medicine medical wellness fitness healthcare wellbeing');
tag('sports', 'sport sports football soccer nfl nba mlb nhl cricket rugby tennis golf olympics baseball basketball hockey f1 motorsport cycling boxing');
tag('entertainment', 'entertainment showbiz celebrity celebrities movies movie film films music tv television culture arts books gaming lifestyle style fashion');

/** Map a feed category tag or section name to our taxonomy; null when it says nothing. */
export function categoryFromTag(tagText: string | null | undefined): Category | null {
  if (!tagText) return null;
  const t = tagText.trim().toLowerCase();
  const direct = TAGS[t] ?? TAGS[t.replace(/[\s_&/]+/g, '-')];
  if (direct) return direct;
  for (const part of t.split(/[\s,&/>|_-]+/)) {
    const c = TAGS[part];
    if (c) return c;
  }
  return null;
}

/** Category from a section folder of the article or feed URL (`/sport/football/...`). */
export function categoryFromUrl(url: string | null | undefined): Category | null {
  if (!url) return null;
  const m = /^[a-z]+:\/\/[^/]+(\/[^?#]*)/i.exec(url);
  if (!m) return null;
  const segs = m[1]!.toLowerCase().split('/');
  // the last segment is the slug: headline words, not a section
  for (let i = 1; i < segs.length - 1 && i < 4; i++) {
    const c = TAGS[segs[i]!];
    if (c) return c;
  }
  return null;
}

const RULES: [RegExp, Category][] = [
  [/\b(nasa|astronom\w*|spacecraft|asteroid|comet|telescope|physicists?|fossils?|dinosaurs?|species|genome|climate change|scientists?)\b/, 'science'],
  [/\b(cancer|vaccines?|ebola|diabetes|obesity|virus|outbreak|hospitals?|patients?|disease|alzheimer\w*|hiv|flu|measles|fda|cdc|drugs?)\b/, 'health'],
  [/\b(elections?|parliament|senate|lawmakers|ministers?|minister|president|congress|campaign|polls?|mps?|votes?|legislation)\b/, 'politics'],
  [/\b(match|league|cup|championship|coach|goals?|tournament|olympics?|football|soccer|tennis|golf|nba|nfl|mlb|rugby|cricket)\b/, 'sports'],
  [/\b(shares|stocks?|profits?|earnings|revenue|investors?|bank|economy|inflation|merger|acquisition|ipo|dow|nasdaq)\b/, 'business'],
  [/\b(smartphones?|iphone|android|software|google|apple|microsoft|facebook|twitter|app|apps|internet|hackers?|samsung)\b/, 'technology'],
  [/\b(film|movie|album|singer|actor|actress|star|celebrity|box office|tv show|concert|festival|oscars?|grammys?)\b/, 'entertainment'],
];

/** The first rule that fires on lower-cased text, or null. */
export function categoryFromRules(lowerText: string): Category | null {
  for (const [re, cat] of RULES) if (re.test(lowerText)) return cat;
  return null;
}

export interface TopicResult {
  category: Category;
  /** model probability of the chosen class (1 when a publisher tag decided) */
  confidence: number;
  via: 'tag' | 'url' | 'model' | 'rules';
}

const scratchFeatures: number[] = [];
let scratchScores = new Float64Array(CATEGORIES.length);

/**
 * Classify one article. `tokens` are the lower-cased tokens of title + snippet (+ text prefix),
 * the first `titleTokens` of them from the title (see `tokenizeArticle`); `text` is the same
 * text (lower-cased here only when the rules are consulted). `minConfidence` is the model
 * probability under which rules may overrule it.
 */
export function classifyTopic(
  input: { tokens: readonly string[]; text: string; url?: string | null; feedCategory?: string | null; titleTokens?: number },
  model: TopicModel = loadTopicModel(),
  minConfidence = 0.45,
): TopicResult {
  const fromTag = categoryFromTag(input.feedCategory);
  if (fromTag) return { category: fromTag, confidence: 1, via: 'tag' };
  if (scratchScores.length < model.classes.length) scratchScores = new Float64Array(model.classes.length);
  topicFeatures(input.tokens, model.buckets, scratchFeatures, input.url ?? undefined, input.titleTokens ?? 0);
  scoreFeatures(model, scratchFeatures, scratchScores);
  const k = softmax(scratchScores, model.classes.length);
  const p = scratchScores[k]!;
  const modelCat = model.classes[k]!;
  const fromUrl = categoryFromUrl(input.url);
  // A section folder outweighs an unsure model but not a confident one.
  if (fromUrl && fromUrl !== modelCat) {
    const urlIdx = model.classes.indexOf(fromUrl);
    const pUrl = urlIdx >= 0 ? scratchScores[urlIdx]! : 0;
    if (p < 0.8 || pUrl > 0.1) return { category: fromUrl, confidence: p, via: 'url' };
  }
  if (p < minConfidence) {
    const ruled = categoryFromRules(input.text.toLowerCase());
    if (ruled) {
      const ri = model.classes.indexOf(ruled);
      // Rules break near-ties among the model's own top guesses, or name a class it lacks.
      if (ri < 0 || scratchScores[ri]! >= p * 0.5) return { category: ruled, confidence: p, via: 'rules' };
    }
  }
  return { category: modelCat, confidence: p, via: 'model' };
}
