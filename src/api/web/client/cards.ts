/**
 * Story cards. A feed card is a story: its lead (publisher, headline to the publisher through
 * `/r/:id`, snippet, time, topic, thumbnail), up to three headlines of other publishers under it,
 * and the Full Coverage link with the story's article count. Every card's root carries
 * `data-story-id` and the count sits alone in `.coverage-count`, so live updates (live.ts) can
 * find and change them. Text through `el` only, never markup.
 */
import { articleLink, el, feedPath, storyPath, thumb, timeEl, type Child } from './dom.js';
import { saveButton } from './saved.js';
import { categoryName } from './taxonomy.js';
import type { FeedItem, RelatedHeadline, SearchHit, StoryArticle } from './types.js';
import { t, tn } from './i18n.js';

/** The first letter of a publisher's name on a tinted disc: a masthead stand-in. */
function badge(name: string): HTMLSpanElement {
  const s = String(name || '?').replace(/^the\s+/i, '');
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return el('span', { class: 'pub-badge hue-' + (h % 8), 'aria-hidden': 'true', text: s.slice(0, 1).toUpperCase() });
}

export function source(name: string, extra?: Node | null): HTMLDivElement {
  return el('div', { class: 'source' }, badge(name), el('span', { class: 'publisher', text: name }), extra || null);
}

/** Full Coverage link: the count alone in .coverage-count (live updates rewrite it). */
export function coverageLink(storyId: string, count: number, region?: string): HTMLAnchorElement {
  return el('a', { class: 'full-coverage', href: storyPath(storyId, region), 'data-nav': '', title: tn('card.inStory', count) },
    el('span', { class: 'fc-icon', 'aria-hidden': 'true' }), t('card.fullCoverage'),
    el('span', { class: 'fc-count' }, el('span', { class: 'coverage-count', text: String(count) })));
}

function topicLink(category: string | null, region?: string): HTMLAnchorElement | null {
  const name = categoryName(category);
  if (!category || !name) return null;
  return el('a', { class: 'topic', href: feedPath(region, category), 'data-nav': '', text: name });
}

function meta(...parts: Child[]): HTMLDivElement {
  const out = el('div', { class: 'meta' });
  for (const p of parts.filter(Boolean)) {
    if (out.childNodes.length) out.append(el('span', { class: 'dot', 'aria-hidden': 'true', text: '·' }));
    out.append(p as Node | string);
  }
  return out;
}

function relatedList(related: RelatedHeadline[] | undefined): HTMLUListElement | null {
  if (!Array.isArray(related) || related.length === 0) return null;
  return el('ul', { class: 'related' }, related.map((r) =>
    el('li', { 'data-article-id': r.article_id }, source(r.publisher_name), articleLink(r.article_id, r.title, 'title related-title'))));
}

export interface CardOptions {
  /** keeps topic links in the reader's edition */
  region?: string;
  /** controls beside the Full Coverage link (For you) */
  menu?: (it: FeedItem) => Node;
}

/** A feed item as a story card. */
export function storyCard(it: FeedItem, opts?: CardOptions): HTMLElement {
  const o = opts ?? {};
  return el('article', { class: 'story' + (it.thumbnail_url ? ' has-thumb' : ''), 'data-story-id': it.story_id, 'data-article-id': it.article_id },
    el('div', { class: 'lead' },
      el('div', { class: 'lead-text' },
        source(it.publisher_name),
        el('h3', { class: 'headline' }, articleLink(it.article_id, it.title)),
        it.summary ? el('p', { class: 'summary', text: it.summary }) : null,
        meta(timeEl(it.published_at), topicLink(it.category, o.region))),
      thumb(it.thumbnail_url)),
    relatedList(it.related),
    el('div', { class: 'story-foot' }, coverageLink(it.story_id, it.coverage_count, o.region),
      el('div', { class: 'card-actions' }, saveButton(it.story_id), o.menu ? o.menu(it) : null)));
}

/** A search hit: the story's best-matching article, with how many of its articles matched. */
export function resultCard(a: SearchHit, region: string): HTMLElement {
  const matches = (a.matches ?? 0) > 1 ? el('span', { class: 'matches', text: tn('card.matches', a.matches!) }) : null;
  const props = a.story_id ? { class: 'story result', 'data-story-id': a.story_id, 'data-article-id': a.id } : { class: 'story result', 'data-article-id': a.id };
  return el('article', props,
    el('div', { class: 'lead' },
      el('div', { class: 'lead-text' },
        source(a.publisher_name),
        el('h3', { class: 'headline' }, articleLink(a.id, a.title)),
        a.summary ? el('p', { class: 'summary', text: a.summary }) : null,
        meta(timeEl(a.published_at), topicLink(a.category, region), matches)),
      thumb(a.thumbnail_url)),
    a.story_id ? el('div', { class: 'story-foot' }, coverageLink(a.story_id, a.coverage_count || 1, region), saveButton(a.story_id)) : null);
}

/** A compact card (top coverage): picture, publisher, headline, time. */
export function miniCard(a: StoryArticle): HTMLElement {
  return el('article', { class: 'mini', 'data-article-id': a.id },
    thumb(a.thumbnail_url, 'mini-thumb'),
    source(a.publisher_name),
    el('h3', { class: 'headline' }, articleLink(a.id, a.display_title || a.title)),
    meta(timeEl(a.published_at)));
}

/** One line of a story's full article list, with the outlets that carried it word for word. */
export function articleRow(a: StoryArticle, copies?: StoryArticle[]): HTMLLIElement {
  const names = [...new Set((copies || []).filter((c) => c.publisher_id !== a.publisher_id).map((c) => c.publisher_name))];
  const also = names.length ? el('p', { class: 'copies', text: t('card.alsoCarried', { names: names.join(', ') }) }) : null;
  return el('li', { class: 'article-row', 'data-article-id': a.id },
    el('div', { class: 'lead-text' },
      source(a.publisher_name),
      el('h3', { class: 'headline' }, articleLink(a.id, a.display_title || a.title)),
      a.summary ? el('p', { class: 'summary', text: a.summary }) : null,
      meta(timeEl(a.published_at)),
      also),
    thumb(a.thumbnail_url));
}
