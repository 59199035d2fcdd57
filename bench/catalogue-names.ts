import { isPlaceholderName } from '../src/actors/publisher/name.js';
import { loadGazetteer, phraseKey } from '../src/actors/enrich/gazetteer.js';

/**
 * Publisher names for the catalogue: the site's name, not the feed's title. The lists give the
 * feed's title ("Toronto Sun - RSS Feed", "Home Page", "RSS: News", "CTVNews.ca - Top Stories -
 * Public RSS", "TV"), which a reader sees beside every headline. The rule, in order:
 *
 * 1. A name the table below gives for the feed (by feed URL, then by host): for titles that name
 *    no site ("World", "All News", "TV", "Playbook"), bare host names, and feeds on a shared host
 *    (feedburner).
 * 2. Else the title is cut at its separators (| - – — > : :: / //, with a space on one side at
 *    least, so "Jornal de Brasília" and "News18.com" stay whole); parts made only of feed words
 *    ("RSS", "Feed", "Home Page", "Latest News", "Top Stories", "Actualités", "Новости") or of
 *    sections and places ("Cricket", "World", "India") are dropped; the part that spells the
 *    feed's host ("Daily Telegraph" on dailytelegraph.com.au) wins, else the first part left.
 * 3. Feed words are cut from its ends ("Live Hindustan Rss feed" -> "Live Hindustan"), except a
 *    brand's own final "News" ("Sky News", "ABC News").
 * 4. What is left must be a site's name: not generic (nothing but feed or section words or places,
 *    unless it spells the host: "Business News" of businessnews.com.au), not the feed's host (a
 *    placeholder the first poll would replace with the feed's title; a brand's mixed-case
 *    spelling such as "GSMArena.com" is a name), at most 60 characters. `siteName` throws
 *    otherwise, so the table has to grow instead.
 */

/** Names by feed URL (shared hosts) and by host without `www.` (titles that name no site). */
export const SITE_NAMES: Readonly<Record<string, string>> = {
  // feeds on a shared host
  'https://feeds.feedburner.com/ietopstories': 'Irish Examiner',
  'http://feeds.feedburner.com/ScrollinArticles.rss': 'Scroll.in',
  'http://feeds.feedburner.com/psblog': 'PlayStation Blog',
  'http://feeds.feedburner.com/Nigerianeye': 'NigerianEye',
  'http://feeds.feedburner.com/wPolitycepl': 'wPolityce',
  'http://feeds.feedburner.com/SdJapan': 'BRIDGE',
  // titles that name a section, not the site; bare host names
  'nytimes.com': 'The New York Times',
  'rss.nytimes.com': 'The New York Times',
  'feeds.washingtonpost.com': 'The Washington Post',
  'latimes.com': 'Los Angeles Times',
  'rss.politico.com': 'Politico',
  'cnbc.com': 'CNBC',
  'rss.cnn.com': 'CNN',
  'feeds.a.dj.com': 'The Wall Street Journal',
  'huffpost.com': 'HuffPost',
  'huffingtonpost.es': 'El HuffPost',
  'investing.com': 'Investing.com',
  'seekingalpha.com': 'Seeking Alpha',
  'bleedingcool.com': 'Bleeding Cool',
  'pitchfork.com': 'Pitchfork',
  'blog.google': 'Google',
  'wired.com': 'Wired',
  'space.com': 'Space.com',
  'espn.com': 'ESPN',
  'espncricinfo.com': 'ESPNcricinfo',
  'inc.com': 'Inc.',
  'engadget.com': 'Engadget',
  'comingsoon.net': 'ComingSoon.net',
  'firstshowing.net': 'FirstShowing.net',
  'macworld.com': 'Macworld',
  'eurogamer.net': 'Eurogamer',
  'marco.org': 'Marco Arment',
  'france24.com': 'France 24',
  'business-standard.com': 'Business Standard',
  'dnaindia.com': 'DNA India',
  'firstpost.com': 'Firstpost',
  'bdnews24.com': 'bdnews24',
  'bd24live.com': 'BD24Live',
  'saharareporters.com': 'Sahara Reporters',
  'thenationonlineng.net': 'The Nation (Nigeria)',
  'guardian.ng': 'The Guardian Nigeria',
  'legit.ng': 'Legit.ng',
  'newsnblogs.com': 'News n Blogs',
  'urdupoint.com': 'UrduPoint',
  'jang.com.pk': 'Jang',
  'rss.elconfidencial.com': 'El Confidencial',
  'e00-expansion.uecdn.es': 'Expansión',
  'kommersant.ru': 'Коммерсантъ',
  'tasnimnews.com': 'Tasnim News',
  'tsn.ua': 'ТСН',
  'k.img.com.ua': 'Корреспондент.net',
  'gazeta.ua': 'Gazeta.ua',
  'meduza.io': 'Meduza',
  'feeds.thelocal.com': 'The Local',
  'vanguardia.com.mx': 'Vanguardia',
  'eluniversal.com.mx': 'El Universal',
  'rss.dziennik.pl': 'Dziennik.pl',
  'wirtualnemedia.pl': 'Wirtualne Media',
  'rp.pl': 'Rzeczpospolita',
  'rmf24.pl': 'RMF24',
  'tribunnews.com': 'Tribunnews',
  'merdeka.com': 'Merdeka',
  'suara.com': 'Suara',
  'thejournal.ie': 'TheJournal.ie',
  'inquirer.net': 'Inquirer.net',
  'sunstar.com.ph': 'SunStar',
  'philnews.xyz': 'PhilNews',
  'globalnews.ca': 'Global News',
  'rss.iol.io': 'IOL',
  'soccernews.com': 'SoccerNews.com',
  'jansatta.com': 'Jansatta',
  'kalerkantho.com': 'Kaler Kantho',
  'jagonews24.com': 'Jago News 24',
  'thestandard.com.hk': 'The Standard (Hong Kong)',
  'feeds.hongkongnews.net': 'Hong Kong News',
  'rssfeeds.9news.com': '9News',
  'ladepeche.fr': 'La Dépêche du Midi',
  'faz.net': 'Frankfurter Allgemeine',
  'tagesschau.de': 'Tagesschau',
  'philstar.com': 'Philstar.com',
  'lemonde.fr': 'Le Monde',
  'ctvnews.ca': 'CTV News',
  'lapresse.ca': 'La Presse',
  'repubblica.it': 'la Repubblica',
  'hket.com': '香港經濟日報',
  'bhaskar.com': 'दैनिक भास्कर',
  'divyabhaskar.co.in': 'દિવ્ય ભાસ્કર',
  'lokmat.news18.com': 'News18 Lokmat',
  'russia-insider.com': 'Russia Insider',
};

/** Words that say what a feed is, not whose: a name made only of these (and sections, places) is no name. */
const FEED_WORDS = new Set(
  ('rss feed feeds xml atom channel public news newsfeed headlines headline latest last top stories story breaking home homepage page ' +
    'front frontpage main all content contents articles article posts updates update live today edition section sections ' +
    'index portal site selected full default principal portada actualité actualités actualites titres une infos info ' +
    'nachrichten aktuell notícias noticias últimas ultimas ultimo último ultime ultimora najnowsze новости главные все материалы ' +
    'последние первая полоса новини news+ -').split(' '),
);

/** Little words: part of a name ("The Nation", "News On Japan"), never cut from one, generic beside feed words. */
const CONNECTORS = new Set('and & of the in on for en la le les a à di de del y und für'.split(' '));

/** Sections a feed title may name beside the site ("BBC Sport - Cricket", "Forbes - Entrepreneurs"). */
const SECTION_WORDS = new Set(
  ('world nation national international local business economy markets money finance tech technology science environment space ' +
    'sport sports cricket football soccer tennis movies film tv television music gaming games entertainment politics opinion ' +
    'health lifestyle culture entrepreneurs startups android apple video videos blog').split(' '),
);

const SEPARATORS = /\s*[|>•·»]\s*|\s+[-–—]+\s*|\s*[-–—]+\s+|\s+:{1,2}\s+|:\s+|\s+\/{1,2}\s+/;
const MAX = 60;

function words(s: string): string[] {
  return s.toLowerCase().split(/[\s,.!?]+/).filter(Boolean);
}

function isPlace(s: string): boolean {
  return loadGazetteer().phrases.has(phraseKey(s.trim()));
}

/** Only feed words, sections and places. */
export function isGeneric(part: string): boolean {
  const ws = words(part);
  if (ws.length === 0) return true;
  if (isPlace(part)) return true;
  return ws.every((w) => FEED_WORDS.has(w) || CONNECTORS.has(w) || SECTION_WORDS.has(w) || isPlace(w));
}

/** Letters and digits only, lower case: "Daily Telegraph" and "dailytelegraph" compare equal. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The host's name-bearing labels: dailytelegraph of www.dailytelegraph.com.au, timesofindia and indiatimes of timesofindia.indiatimes.com. */
function hostLabels(host: string): string[] {
  const skip = new Set(['www', 'feeds', 'feed', 'rss', 'rssfeeds', 'news', 'api', 'data', 'm', 'com', 'co', 'org', 'net', 'gov', 'edu', 'ac']);
  return host.toLowerCase().split('.').slice(0, -1).map((l) => l.replace(/[^a-z0-9]/g, '')).filter((l) => l.length >= 3 && !skip.has(l));
}

function spellsHost(part: string, labels: readonly string[]): boolean {
  // with and without a leading "The" (thesouthafrican.com, guardian.ng)
  return [squash(part), squash(part.replace(/^the\s+/i, ''))].some((p) => p.length >= 3 && labels.some((l) => p.includes(l) || (l.includes(p) && p.length >= 4)));
}

/** Nothing but feed words, or one section word or place: "All News", "Home Page", "TV", "World", "España". */
function saysNothing(name: string): boolean {
  const ws = words(name);
  return ws.length === 0 || ws.every((w) => FEED_WORDS.has(w)) || (ws.length === 1 && (SECTION_WORDS.has(ws[0]!) || isPlace(name))) || isPlace(name);
}

/**
 * Feed words cut from both ends; a final "News" after a brand word stays ("Sky News"), and a
 * name that spells its host keeps what spelling it needs ("Japan Today", "National Post").
 */
function trimFeedWords(part: string, labels: readonly string[]): string {
  const spelled = (s: string) => labels.some((l) => squash(s).includes(l));
  const keepSpelling = spelled(part);
  const ok = (ws: string[]) => !keepSpelling || spelled(ws.join(' '));
  let ws = part.trim().split(/\s+/);
  const word = (w: string) => w.toLowerCase().replace(/[.:,]+$/, '');
  const generic = (w: string) => FEED_WORDS.has(word(w));
  // a leading "News" is part of a name ("News Agency UNIAN")
  while (ws.length > 1 && generic(ws[0]!) && word(ws[0]!) !== 'news' && ok(ws.slice(1))) ws = ws.slice(1);
  let end = ws.length;
  while (end > 1 && generic(ws[end - 1]!) && ok(ws.slice(0, end - 1))) {
    // "ABC News", "Ain't It Cool News Feed": a News right after a brand word is the brand's; "Moneycontrol Latest News" loses both
    if (word(ws[end - 1]!) === 'news' && !generic(ws[end - 2]!)) break;
    end--;
  }
  return ws.slice(0, end).join(' ');
}

export class CatalogueNameError extends Error {}

/** The site's name for a catalogue feed (see the rule above); throws CatalogueNameError when none can be told. */
export function siteName(title: string, feedUrl: string): string {
  const url = new URL(feedUrl);
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const given = SITE_NAMES[feedUrl] ?? SITE_NAMES[host];
  if (given) return given;
  const clean = title.replace(/\s+/g, ' ').trim();
  const parts = clean.split(SEPARATORS).map((p) => p.trim()).filter((p) => p !== '');
  const labels = hostLabels(url.hostname);
  // the part spelling the site's host ("National Post" on nationalpost.com), else the first that is not a feed word, section or place
  const exact = parts.find((p) => labels.includes(squash(p)) || labels.includes(squash(p.replace(/^the\s+/i, ''))));
  const pick = exact ?? parts.find((p) => spellsHost(p, labels)) ?? parts.find((p) => !isGeneric(p));
  const name = pick === undefined ? '' : trimFeedWords(pick, labels);
  if (name === '' || saysNothing(name) || (isGeneric(name) && !spellsHost(name, labels))) {
    throw new CatalogueNameError(`no site name in "${clean}" (${feedUrl}): add it to SITE_NAMES`);
  }
  if (isPlaceholderName(name, feedUrl) || /^(https?:\/\/|www\.)/i.test(name)) {
    throw new CatalogueNameError(`"${name}" is a host name, not a site name (${feedUrl}): add it to SITE_NAMES`);
  }
  if (name.length > MAX) throw new CatalogueNameError(`"${name}" is longer than ${MAX} characters (${feedUrl}): add it to SITE_NAMES`);
  return name;
}
