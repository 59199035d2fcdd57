import { esc, type SimUrls } from './urls.js';
import { summaryOf, type Story } from './writer.js';
import type { SimPublisherState, SimItem, World } from './world.js';

/** What every renderer needs besides the publisher. */
export interface RenderContext {
  readonly urls: SimUrls;
  readonly world: World;
  /** feeds advertise the hub (`<atom:link rel="hub">`, JSON Feed `hubs`) */
  readonly websub: boolean;
  /** items listed per feed */
  readonly feedSize: number;
}

export interface Rendered {
  readonly body: string;
  readonly contentType: string;
}

/**
 * Rendered item fragments, per item object. A publisher has one format and items never change,
 * so a new feed version re-renders only its new items (the rest is string joins).
 */
const fragments = new WeakMap<SimItem, string>();

function latest(ctx: RenderContext, pub: SimPublisherState, render: (item: SimItem, story: Story) => string): string[] {
  return pub.items.slice(0, ctx.feedSize).map((item) => {
    let f = fragments.get(item);
    if (f === undefined) {
      f = render(item, ctx.world.storyOf(item));
      fragments.set(item, f);
    }
    return f;
  });
}

function html(story: Story): string {
  return story.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('');
}

/** RSS 2.0 with atom, media, content and dc namespaces, as most news sites serve it. */
export function renderRss(ctx: RenderContext, pub: SimPublisherState): Rendered {
  const s = pub.spec;
  const self = ctx.urls.feed(s);
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"',
    ' xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n',
    `<title>${esc(s.name)}</title>\n<link>${esc(ctx.urls.site(s.id))}</link>\n`,
    `<description>${esc(`${s.section} news from ${s.name}, ${s.city.city}`)}</description>\n<language>en</language>\n`,
    `<lastBuildDate>${new Date(pub.lastModified).toUTCString()}</lastBuildDate>\n`,
    `<atom:link rel="self" type="application/rss+xml" href="${esc(self)}"/>\n`,
  ];
  if (ctx.websub) parts.push(`<atom:link rel="hub" href="${esc(ctx.urls.hub())}"/>\n`);
  if (s.ttlMinutes !== null) parts.push(`<ttl>${s.ttlMinutes}</ttl>\n`);
  parts.push(...latest(ctx, pub, (item, story) => ['<item>\n', `<title>${esc(story.title)}</title>\n<link>${esc(ctx.urls.item(item))}</link>\n`,
    `<guid isPermaLink="false">${esc(item.guid)}</guid>\n<pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate>\n`,
    `<dc:creator>${esc(story.author)}</dc:creator>\n<category>${item.category}</category>\n`,
    `<description>${esc(summaryOf(story))}</description>\n`,
    s.fullContent ? `<content:encoded><![CDATA[${html(story)}]]></content:encoded>\n` : '',
    item.thumbnail ? `<media:thumbnail url="${esc(ctx.urls.thumb(item))}" width="64" height="36"/>\n` : '',
    '</item>\n'].join('')));
  parts.push('</channel>\n</rss>\n');
  return { body: parts.join(''), contentType: 'application/rss+xml; charset=utf-8' };
}

/** Atom 1.0. */
export function renderAtom(ctx: RenderContext, pub: SimPublisherState): Rendered {
  const s = pub.spec;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en">\n',
    `<title>${esc(s.name)}</title>\n<id>urn:newsagg-sim:${s.id}</id>\n`,
    `<updated>${new Date(pub.lastModified).toISOString()}</updated>\n`,
    `<link rel="alternate" type="text/html" href="${esc(ctx.urls.site(s.id))}"/>\n`,
    `<link rel="self" type="application/atom+xml" href="${esc(ctx.urls.feed(s))}"/>\n`,
  ];
  if (ctx.websub) parts.push(`<link rel="hub" href="${esc(ctx.urls.hub())}"/>\n`);
  parts.push(...latest(ctx, pub, (item, story) => {
    const ts = new Date(item.publishedAt).toISOString();
    return ['<entry>\n', `<title type="text">${esc(story.title)}</title>\n<id>${esc(item.guid)}</id>\n`,
      `<link rel="alternate" type="text/html" href="${esc(ctx.urls.item(item))}"/>\n`,
      `<published>${ts}</published>\n<updated>${ts}</updated>\n`,
      `<author><name>${esc(story.author)}</name></author>\n<category term="${item.category}"/>\n`,
      `<summary type="text">${esc(summaryOf(story))}</summary>\n`,
      s.fullContent ? `<content type="html">${esc(html(story))}</content>\n` : '',
      item.thumbnail ? `<media:thumbnail url="${esc(ctx.urls.thumb(item))}" width="64" height="36"/>\n` : '',
      '</entry>\n'].join('');
  }));
  parts.push('</feed>\n');
  return { body: parts.join(''), contentType: 'application/atom+xml; charset=utf-8' };
}

/** JSON Feed 1.1. */
export function renderJsonFeed(ctx: RenderContext, pub: SimPublisherState): Rendered {
  const s = pub.spec;
  const head = {
    version: 'https://jsonfeed.org/version/1.1',
    title: s.name,
    home_page_url: ctx.urls.site(s.id),
    feed_url: ctx.urls.feed(s),
    language: 'en',
    ...(ctx.websub ? { hubs: [{ type: 'WebSub', url: ctx.urls.hub() }] } : {}),
  };
  const items = latest(ctx, pub, (item, story) => JSON.stringify({
    id: item.guid,
    url: ctx.urls.item(item),
    title: story.title,
    summary: summaryOf(story),
    ...(s.fullContent ? { content_html: html(story) } : { content_text: summaryOf(story) }),
    date_published: new Date(item.publishedAt).toISOString(),
    authors: [{ name: story.author }],
    tags: [item.category],
    ...(item.thumbnail ? { image: ctx.urls.thumb(item) } : {}),
  }));
  // the head's closing brace is replaced by the items array: valid JSON without re-serialising items
  const body = `${JSON.stringify(head).slice(0, -1)},"items":[\n${items.join(',\n')}\n]}\n`;
  return { body, contentType: 'application/feed+json; charset=utf-8' };
}

/** A Google News sitemap: the latest articles with `<news:news>` publication data. */
export function renderSitemap(ctx: RenderContext, pub: SimPublisherState): Rendered {
  const s = pub.spec;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"',
    ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n',
  ];
  parts.push(...latest(ctx, pub, (item, story) => {
    const ts = new Date(item.publishedAt).toISOString();
    return ['<url>\n', `<loc>${esc(ctx.urls.item(item))}</loc>\n<lastmod>${ts}</lastmod>\n`,
      '<news:news>\n<news:publication>', `<news:name>${esc(s.name)}</news:name><news:language>en</news:language>`,
      '</news:publication>\n', `<news:publication_date>${ts}</news:publication_date>\n`,
      `<news:title>${esc(story.title)}</news:title>\n<news:keywords>${item.category}</news:keywords>\n</news:news>\n`,
      item.thumbnail ? `<image:image><image:loc>${esc(ctx.urls.thumb(item))}</image:loc></image:image>\n` : '',
      '</url>\n'].join('');
  }));
  parts.push('</urlset>\n');
  return { body: parts.join(''), contentType: 'application/xml; charset=utf-8' };
}

/** The publisher's feed in its own format. */
export function renderFeed(ctx: RenderContext, pub: SimPublisherState): Rendered {
  switch (pub.spec.format) {
    case 'rss': return renderRss(ctx, pub);
    case 'atom': return renderAtom(ctx, pub);
    case 'jsonfeed': return renderJsonFeed(ctx, pub);
    case 'sitemap': return renderSitemap(ctx, pub);
  }
}
