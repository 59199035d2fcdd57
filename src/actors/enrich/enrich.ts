import { cleanTitle, stripHtml } from '../dedup/normalize.js';
import { splitDateline } from './dateline.js';
import { extractEntities, type Entity } from './entities.js';
import type { Edition } from '../model/index.js';
import { loadGazetteer, regionForCountry } from './gazetteer.js';
import { detectLanguage } from './language.js';
import { articleText, tokenizeArticle, type ArticleInput } from './text.js';
import { classifyTopic } from './topic.js';
import { loadTopicModel, type Category, type TopicModel } from './topic-model.js';

/** What enrichment adds to an article. */
export interface Enrichment {
  language: string;
  category: Category;
  /** a second category when the article is likely about that too, else null */
  secondary_category: Category | null;
  /** edition: the publisher country's region, else where the article's places lie, else global */
  region: Edition;
  /** places the article is about: ISO 3166-1 codes (or area names), most mentioned first */
  places: string[];
  entities: Entity[];
  /** lower-cased tokens of title + snippet + text prefix (for callers that need them) */
  tokens: string[];
  topic_confidence: number;
}

/** Load the gazetteer, lexicons and topic model now instead of on the first article. */
export function warmUpEnrichment(): void {
  loadGazetteer();
  loadTopicModel();
  extractEntities(['Warm Up']);
}

export interface EnrichOptions {
  /** another topic model than the committed one (benchmarks evaluate a model trained without their test rows) */
  topicModel?: TopicModel;
}

/**
 * Enrich one article: language, topic, region, places, entities. Pure apart from the
 * once-loaded data files; title + snippet carry the signal, transient text adds a prefix.
 */
export function enrich(input: ArticleInput, options: EnrichOptions = {}): Enrichment {
  // the headline without its decorations (`UPDATE 2-`, `Analysis:`, `| Outlet`, `- Outlet`):
  // read raw, "Quake hits Sendai - The Paris Examiner" gives the entity "Sendai The Paris
  // Examiner" and no place. The one cleaner dedup fingerprints with (the caller stores the raw title)
  const title = cleanTitle(input.title);
  // feed bodies (content:encoded) and some snippets are HTML: tags would hide sentence starts
  // ("</p><p>Fans gathered" reads "Fans" as a name) and add words of their own
  const article = hasMarkup(input.text) || hasMarkup(input.summary) || title !== input.title
    ? { ...input, title, text: hasMarkup(input.text) ? stripHtml(input.text!) : input.text, summary: hasMarkup(input.summary) ? stripHtml(input.summary!) : input.summary }
    : input;
  const text = articleText(article, 1200);
  const tokens: string[] = [];
  const titleTokens = tokenizeArticle(article, tokens, 1200);
  // title + summary; without transient text that is `text` itself (no second string to build)
  const langText = article.summary && article.text ? article.title + '\n' + article.summary : text;
  const lang = detectLanguage(langText, article.language, tokens, article.publisher_language);
  const topic = classifyTopic({
    tokens,
    text,
    url: article.url,
    feedCategory: article.feed_category ?? null,
    categories: article.categories ?? null,
    titleTokens,
  }, options.topicModel);
  const segments = [article.title];
  // a wire dateline names where the story was filed (a place) and who filed it (not an entity)
  const body = (t: string): void => {
    const d = splitDateline(t);
    segments.push(d.rest);
    if (d.place) segments.push(d.place);
  };
  if (article.summary) body(article.summary);
  if (article.text) body(article.text.length > 1200 ? article.text.slice(0, 1200) : article.text);
  const { entities, places } = extractEntities(segments);
  let region = regionForCountry(article.publisher_country);
  if (region === 'global' && !article.publisher_country && places.length > 0) {
    const g = loadGazetteer();
    region = g.regionOf.get(places[0]!) ?? g.phrases.get(places[0]!)?.region ?? 'global';
  }
  return {
    language: lang.language,
    category: topic.category,
    secondary_category: topic.secondary,
    region,
    places,
    entities,
    tokens,
    topic_confidence: topic.confidence,
  };
}

function hasMarkup(s: string | null | undefined): boolean {
  return !!s && (s.includes('<') || s.includes('&'));
}
