import type { ArticleRow } from './articles.js';
import { displayTitle } from './display-title.js';
import { stripPieceLabel } from '../stories/lead.js';
import type { StoryRow } from './stories.js';

// the feed item, the cached story and their cache keys live in the model; re-exported for this file's importers
export { RELATED_MAX, feedKey, storyKey, type CachedStory, type FeedItem, type RelatedHeadline } from '../model/index.js';
import { RELATED_MAX, feedKey, type CachedStory, type FeedItem, type RelatedHeadline } from '../model/index.js';

// the taxonomy lives in the model; re-exported for this file's many importers
export { CATEGORIES, REGIONS, type Category, type Region } from '../model/index.js';

/**
 * Ranking score, comparable across time so old entries never need rescoring: the update time
 * in units of 12 hours plus coverage breadth, so a story twice as widely covered ranks like
 * one twelve hours fresher.
 */
export function storyScore(s: Pick<StoryRow, 'updated_at' | 'publisher_count' | 'article_count'>): number {
  const t = Date.parse(s.updated_at) / 1000 / 43_200;
  return Math.round((t + Math.log2(1 + s.publisher_count) + 0.5 * Math.log2(1 + s.article_count)) * 1e6) / 1e6;
}

/**
 * A story's secondary category, read from its lead: the lead's own primary when the story (filed
 * by most of its articles) says otherwise, else the lead's secondary; never the story's primary.
 */
export function storySecondaryCategory(storyCategory: string | null, lead: Pick<ArticleRow, 'category' | 'secondary_category'>): string | null {
  const primary = storyCategory ?? lead.category;
  if (lead.category && lead.category !== primary) return lead.category;
  const s = lead.secondary_category ?? null;
  return s !== primary ? s : null;
}

export function toCachedStory(story: StoryRow, lead: ArticleRow & { publisher_name: string }): CachedStory {
  return {
    item: {
      article_id: lead.id,
      story_id: story.id,
      title: displayTitle(lead.title, lead.publisher_name),
      summary: lead.snippet,
      thumbnail_url: lead.thumbnail_url,
      publisher_id: lead.publisher_id,
      publisher_name: lead.publisher_name,
      published_at: lead.published_at,
      source_url: lead.url,
      click_url: clickUrl(lead.id),
      category: story.category ?? lead.category,
      secondary_category: storySecondaryCategory(story.category, lead),
      region: homeEdition(story),
      coverage_count: story.article_count,
    },
    publisher_id: lead.publisher_id,
    score: story.score,
    regions: story.regions,
    home_regions: story.home_regions ?? [],
    language: lead.language ?? null,
  };
}

/** The tracked link of an article: `/r/{id}` records the click and redirects to the publisher. */
export function clickUrl(articleId: string): string {
  return `/r/${encodeURIComponent(articleId)}`;
}

/**
 * The edition a story is at home in: where it happened (its first home edition), else the first
 * edition carrying it, else `global` (a story no edition claims is listed in the global feeds only).
 */
export function homeEdition(s: { regions: readonly string[]; home_regions?: readonly string[] | null }): string {
  return s.home_regions?.find((r) => r !== 'global') ?? s.regions.find((r) => r !== 'global') ?? 'global';
}

/**
 * A story's item as a list of `region` shows it: `region` names that edition, or, in a list
 * spanning every edition (`global`), the story's home edition. The cached item is returned as it
 * is when it already says so (no copy on the hot path).
 */
export function listedItem(s: Pick<CachedStory, 'item' | 'regions' | 'home_regions'>, region: string): FeedItem {
  const want = region === 'global' ? homeEdition(s) : region;
  return s.item.region === want ? s.item : { ...s.item, region: want };
}

/**
 * A cache entry as readers may be handed it: entries written by an older version get what items
 * carry now (publisher_id, click_url, related click URLs, the edition as region). Mutates and
 * returns the entry.
 */
export function upgradeCachedStory(s: CachedStory): CachedStory {
  const it = s.item;
  it.publisher_id ??= s.publisher_id;
  it.click_url ??= clickUrl(it.article_id);
  if (it.related) for (const r of it.related) r.click_url ??= clickUrl(r.article_id);
  // before items carried their edition, region was the lead article's (its publisher's country)
  it.region = homeEdition(s);
  return s;
}

/**
 * How much higher a story ranks in the feeds of an edition where it happened, in score units
 * (12 h each): a reader of an edition sees that edition's news first, as if a day fresher.
 */
export const HOME_BONUS = 2;

/** A story's rank score in one feed (`feed:{region}:{category}`). */
export function feedScore(s: Pick<CachedStory, 'score' | 'home_regions'>, region: string): number {
  return region !== 'global' && s.home_regions?.includes(region) ? s.score + HOME_BONUS : s.score;
}

/** The feeds a story belongs to: its category and `top`, in each of its regions and `global`. */
export function feedsOf(s: { category: string | null; regions: readonly string[] }): string[] {
  return feedsByRegion(s).map((f) => f.key);
}

/** `feedsOf` with the region of each feed. */
export function feedsByRegion(s: { category: string | null; regions: readonly string[] }): { key: string; region: string }[] {
  const regions = ['global', ...s.regions.filter((r) => r !== 'global')];
  const cats = s.category ? ['top', s.category] : ['top'];
  const out: { key: string; region: string }[] = [];
  for (const r of regions) for (const c of cats) out.push({ key: feedKey(r, c), region: r });
  return out;
}

/** An article of a story that could be shown under its lead. */
export interface HeadlineCandidate {
  id: string;
  title: string;
  publisher_id: string;
  publisher_name: string;
}

/**
 * The headlines shown under a story's lead: other publishers only, one each, in the order given
 * (newest first), and never a headline that is a near-copy of the lead's or of one already
 * picked (`nearCopy`: syndicated copies under another masthead, "Opinion: X" beside "X", add
 * nothing to read).
 */
export function pickRelated(lead: Pick<FeedItem, 'article_id' | 'publisher_id' | 'title'>, candidates: readonly HeadlineCandidate[], max = RELATED_MAX): RelatedHeadline[] {
  const out: RelatedHeadline[] = [];
  const publishers = new Set([lead.publisher_id]);
  const titles = [headlineKey(stripPieceLabel(lead.title))];
  for (const c of candidates) {
    if (out.length >= max) break;
    if (c.id === lead.article_id || publishers.has(c.publisher_id)) continue;
    const title = displayTitle(c.title, c.publisher_name);
    const key = headlineKey(stripPieceLabel(title));
    if (key === '' || titles.some((t) => nearCopy(t, key))) continue;
    publishers.add(c.publisher_id);
    titles.push(key);
    out.push({ article_id: c.id, title, publisher_name: c.publisher_name, click_url: clickUrl(c.id) });
  }
  return out;
}

/**
 * Whether two headline keys (`headlineKey`) are near-copies: the same, sharing at least 70 % of
 * their words (Jaccard), or a headline of four words or more whose words are at least 85 % in the
 * other ("Quake hits coastal city" and "Quake hits coastal city, dozens hurt").
 */
export function nearCopy(a: string, b: string): boolean {
  if (a === b) return true;
  const wa = new Set(a.split(' ')), wb = new Set(b.split(' '));
  const [small, big] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  if (small.size === 0) return false;
  let shared = 0;
  for (const w of small) if (big.has(w)) shared++;
  return shared / (small.size + big.size - shared) >= 0.7 || (small.size >= 4 && shared / small.size >= 0.85);
}

/** A headline's text for comparison: case, punctuation and spacing ignored. */
export function headlineKey(t: string): string {
  return t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
