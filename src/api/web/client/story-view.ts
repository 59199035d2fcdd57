/**
 * Full Coverage as a page (`/story/:id`): the lead, a timeline of how the story developed, the
 * top coverage, coverage by region, then every article with its snippet and thumbnail (wire
 * copies folded under the report they copy). All sections come from `GET /v1/stories/:id`;
 * under the headline, "Alert me about this story" (push.ts). Text through `el` only, never markup.
 */
import { api, problem } from './api.js';
import { articleRow, miniCard, source } from './cards.js';
import { articleLink, el, feedPath, thumb, timeEl, type Child } from './dom.js';
import { storyAlertControl } from './push.js';
import { markStoryRead, saveButton } from './saved.js';
import { categoryName, regionName } from './taxonomy.js';
import type { RegionGroup, StoryArticle, StoryPage, TimelineEntry } from './types.js';
import type { RouteOf, View, ViewContext } from './view.js';
import { language, t, tn } from './i18n.js';

function section(cls: string, title: string, ...body: Child[]): HTMLElement {
  return el('section', { class: 'cov-section ' + cls, 'aria-label': title }, el('h2', { text: title }), ...body);
}

/** The lead report under the page's headline (which is its headline): who, when, its snippet, the way to it. */
function leadBlock(a: StoryArticle): HTMLElement {
  return el('article', { class: 'cov-lead' + (a.thumbnail_url ? ' has-thumb' : ''), 'data-article-id': a.id },
    thumb(a.thumbnail_url, 'lead-thumb', true),
    el('div', { class: 'lead-text' },
      source(a.publisher_name, el('span', { class: 'meta' }, el('span', { class: 'dot', 'aria-hidden': 'true', text: '·' }), timeEl(a.published_at))),
      a.summary ? el('p', { class: 'summary', text: a.summary }) : null,
      el('a', { class: 'read-at', href: '/r/' + encodeURIComponent(a.id), target: '_blank', rel: 'noopener', text: t('story.readAt', { publisher: a.publisher_name }) })));
}

function timelineList(entries: TimelineEntry[], byId: Map<string, StoryArticle>): HTMLOListElement {
  return el('ol', { class: 'timeline' }, entries.map((e, i) => {
    const a = byId.get(e.article_id);
    if (!a) return null;
    const when = new Date(e.at);
    return el('li', { 'data-article-id': a.id },
      el('div', { class: 'tl-when' },
        el('time', { datetime: e.at, title: when.toLocaleString(language()), text: when.toLocaleString(language(), { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }) }),
        i === 0 ? el('span', { class: 'tl-tag', text: t('story.firstReport') }) : null),
      el('div', { class: 'tl-body' },
        articleLink(a.id, a.display_title || a.title),
        el('span', { class: 'tl-meta', text: a.publisher_name + (e.article_count > 1 ? tn('story.stretch', e.article_count) : '') })));
  }));
}

function regionList(groups: RegionGroup[], byId: Map<string, StoryArticle>): HTMLDivElement {
  return el('div', { class: 'regions' }, groups.map((g) =>
    el('div', { class: 'region' },
      el('h3', {}, regionName(g.region) || g.region, el('span', { class: 'region-count', text: tn('story.regionArticles', g.article_count) })),
      el('ul', {}, g.article_ids.map((id) => byId.get(id)).filter((a): a is StoryArticle => !!a).map((a) =>
        el('li', { 'data-article-id': a.id }, articleLink(a.id, a.display_title || a.title), el('span', { class: 'region-pub', text: a.publisher_name })))))));
}

function allArticles(articles: StoryArticle[]): HTMLOListElement {
  const copies = new Map<string, StoryArticle[]>();
  for (const a of articles) if (a.duplicate_of) {
    if (!copies.has(a.duplicate_of)) copies.set(a.duplicate_of, []);
    copies.get(a.duplicate_of)!.push(a);
  }
  const present = new Set(articles.map((a) => a.id));
  // a copy whose original is in the list is folded under it; one whose original is not is listed itself
  const rows = articles.filter((a) => !a.duplicate_of || !present.has(a.duplicate_of));
  return el('ol', { class: 'all-articles' }, rows.map((a) => articleRow(a, copies.get(a.id))));
}

export function storyView(route: RouteOf<'story'>, ctx: ViewContext): View {
  const node = el('div', { class: 'view story-view', 'data-story-id': route.id });
  const status = el('p', { class: 'status loading', role: 'status', text: t('story.loading') });
  node.append(status);
  const view: View = { node, title: t('card.fullCoverage'), dispose() {}, ready: Promise.resolve() };
  view.ready = api<StoryPage>('/v1/stories/' + encodeURIComponent(route.id)).then((res) => {
    if (!res.ok || !res.body || !res.body.story) {
      status.className = 'status error';
      status.replaceChildren(res.status === 404 || res.status === 400 ? t('story.gone') : t('story.error', { problem: problem(res) }),
        el('a', { href: '/', 'data-nav': '', text: t('story.back') }));
      return;
    }
    const d = res.body;
    const s = d.story;
    const byId = new Map(d.articles.map((a) => [a.id, a]));
    const lead = byId.get(s.lead_article_id) || d.articles[0];
    const title = lead ? lead.display_title || lead.title : s.title;
    view.title = title;
    ctx.setTitle(title);
    ctx.setCategory(s.category);
    const count = Math.max(s.article_count, d.articles.length);
    const topic = categoryName(s.category);
    const head = el('header', { class: 'story-head' },
      el('p', { class: 'kicker' }, el('span', { text: t('card.fullCoverage') }),
        s.category && topic ? el('a', { class: 'topic', href: feedPath(ctx.region(), s.category), 'data-nav': '', text: topic }) : null),
      el('h1', { text: title }),
      el('p', { class: 'story-meta' },
        el('span', { class: 'coverage-count', text: String(count) }), tn('story.articles', count) + tn('story.publishers', d.publishers.length) + t('story.firstReported'),
        timeEl(s.first_seen), t('story.updated'), timeEl(s.updated_at)),
      el('div', { class: 'story-actions' }, saveButton(s.id), storyAlertControl(s.id)));
    // opening Full Coverage is reading the story (For you may hide it: hide_read)
    markStoryRead(s.id);
    const parts: Node[] = [head];
    if (lead) parts.push(leadBlock(lead));
    if (d.timeline && d.timeline.length > 1) parts.push(section('cov-timeline', t('story.timeline'), timelineList(d.timeline, byId)));
    const top = (d.top_coverage || []).map((id) => byId.get(id)).filter((a): a is StoryArticle => !!a);
    if (top.length) parts.push(section('cov-top', t('story.top'), el('div', { class: 'mini-grid' }, top.map(miniCard))));
    if (d.by_region && d.by_region.length) parts.push(section('cov-regions', t('story.byRegion'), regionList(d.by_region, byId)));
    parts.push(section('cov-all', t('story.all'), el('p', { class: 'section-note', text: tn('story.newestFirst', d.articles.length) }), allArticles(d.articles)));
    node.replaceChildren(...parts);
  });
  return view;
}
