import { loadTopicModel, scoreFeatures, softmax, topicFeatures, CATEGORIES, type Category, type TopicModel } from './topic-model.js';

/**
 * Topic = evidence a real aggregator has, strongest first:
 *  1. the entry's own category tags ("Sports", "Business > Markets") - the article's publisher
 *     filed it there;
 *  2. the compact trained model over title + snippet words and the URL's host, sections and slug,
 *     with the publisher's category (catalogue or OPML folder) added as a prior: it tips an
 *     unsure model, but a science publisher's flood report is still world news when the words say so;
 *  3. a section folder of the URL when the model is not confident;
 *  4. keyword rules, consulted only when the model is unsure (they also supply `science`,
 *     which no training set labels).
 * A second category is reported when the runner-up is itself likely.
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
  /** a second category when the runner-up is likely too (a business story about a football club) */
  secondary: Category | null;
  /** model probability of the chosen class (1 when an entry tag decided) */
  confidence: number;
  via: 'tag' | 'url' | 'model' | 'rules' | 'prior';
}

/** log-odds the publisher's category adds to its class: an unsure model follows it, a sure one does not */
export const PUBLISHER_PRIOR = 2.5;
/** the runner-up becomes the secondary category at this probability */
export const SECONDARY_MIN = 0.25;

const scratchFeatures: number[] = [];
let scratchScores = new Float64Array(CATEGORIES.length);

/**
 * Classify one article. `tokens` are the lower-cased tokens of title + snippet (+ text prefix),
 * the first `titleTokens` of them from the title (see `tokenizeArticle`); `text` is the same
 * text (lower-cased here only when the rules are consulted). `categories` are the entry's own
 * tags, `feedCategory` the publisher's category (a prior). `minConfidence` is the model
 * probability under which rules may overrule it.
 */
export function classifyTopic(
  input: {
    tokens: readonly string[]; text: string; url?: string | null; feedCategory?: string | null;
    categories?: readonly string[] | null; titleTokens?: number;
  },
  model: TopicModel = loadTopicModel(),
  minConfidence = 0.45,
): TopicResult {
  const C = model.classes.length;
  if (scratchScores.length < C) scratchScores = new Float64Array(C);
  topicFeatures(input.tokens, model.buckets, scratchFeatures, input.url ?? undefined, input.titleTokens ?? 0);
  scoreFeatures(model, scratchFeatures, scratchScores);
  const prior = categoryFromTag(input.feedCategory);
  const priorIdx = prior ? model.classes.indexOf(prior) : -1;
  if (priorIdx >= 0) scratchScores[priorIdx]! += PUBLISHER_PRIOR;
  const k = softmax(scratchScores, C);
  const p = scratchScores[k]!;
  const modelCat = model.classes[k]!;
  const fromTags = tagCategory(input.categories);
  if (fromTags) return { category: fromTags, secondary: runnerUp(model, C, fromTags), confidence: 1, via: 'tag' };
  // a publisher category the model has no class for (science) is a rule-like hint
  if (prior && priorIdx < 0 && p < minConfidence) return { category: prior, secondary: modelCat, confidence: p, via: 'prior' };
  const fromUrl = categoryFromUrl(input.url);
  // A section folder outweighs an unsure model but not a confident one.
  if (fromUrl && fromUrl !== modelCat) {
    const urlIdx = model.classes.indexOf(fromUrl);
    const pUrl = urlIdx >= 0 ? scratchScores[urlIdx]! : 0;
    if (p < 0.8 || pUrl > 0.1) return { category: fromUrl, secondary: runnerUp(model, C, fromUrl), confidence: p, via: 'url' };
  }
  if (p < minConfidence) {
    const ruled = categoryFromRules(input.text.toLowerCase());
    if (ruled) {
      const ri = model.classes.indexOf(ruled);
      // Rules break near-ties among the model's own top guesses, or name a class it lacks.
      if (ri < 0 || scratchScores[ri]! >= p * 0.5) return { category: ruled, secondary: runnerUp(model, C, ruled), confidence: p, via: 'rules' };
    }
  }
  return { category: modelCat, secondary: runnerUp(model, C, modelCat), confidence: p, via: priorIdx === k && p < 0.5 ? 'prior' : 'model' };
}

/** The first entry tag that names a category ("Sport", "Business > Markets"), or null. */
function tagCategory(tags: readonly string[] | null | undefined): Category | null {
  if (!tags) return null;
  for (let i = 0; i < tags.length && i < 8; i++) {
    const c = categoryFromTag(tags[i]);
    if (c) return c;
  }
  return null;
}

/** The likeliest class other than `primary` when its probability reaches SECONDARY_MIN (scores are probabilities here). */
function runnerUp(model: TopicModel, C: number, primary: Category): Category | null {
  let best = -1;
  for (let c = 0; c < C; c++) {
    if (model.classes[c] === primary) continue;
    if (best < 0 || scratchScores[c]! > scratchScores[best]!) best = c;
  }
  return best >= 0 && scratchScores[best]! >= SECONDARY_MIN ? model.classes[best]! : null;
}
