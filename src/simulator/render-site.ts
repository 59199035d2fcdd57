import type { PublisherSpec } from './catalogue.js';
import type { RenderContext } from './render-feeds.js';
import { esc, sitePath, type SimUrls } from './urls.js';
import { summaryOf } from './writer.js';
import type { SimPublisherState, SimItem } from './world.js';

const FEED_TYPES: Record<string, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  jsonfeed: 'application/feed+json',
};

/** The site's home page: latest headlines and `<link rel="alternate">` to its feed. */
export function renderHome(ctx: RenderContext, pub: SimPublisherState): string {
  const s = pub.spec;
  const alt = s.format === 'sitemap' ? ''
    : `<link rel="alternate" type="${FEED_TYPES[s.format]}" title="${esc(s.name)}" href="${esc(ctx.urls.feed(s))}">\n`;
  const list = pub.items.slice(0, ctx.feedSize)
    .map((it) => `<li><a href="${esc(ctx.urls.item(it))}">${esc(it.title)}</a></li>`).join('\n');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n<title>${esc(s.name)}</title>\n${alt}`
    + `<meta name="description" content="${esc(`${s.section} news from ${s.city.city}`)}">\n</head>\n`
    + `<body><h1>${esc(s.name)}</h1>\n<ul>\n${list}\n</ul></body></html>\n`;
}

/** An article page with Open Graph and JSON-LD NewsArticle metadata, as news sites publish. */
export function renderArticle(ctx: RenderContext, pub: SimPublisherState, item: SimItem): string {
  const s = pub.spec;
  const story = ctx.world.storyOf(item);
  const url = ctx.urls.item(item);
  const ts = new Date(item.publishedAt).toISOString();
  const description = summaryOf(story, 200);
  const image = item.thumbnail ? ctx.urls.thumb(item) : null;
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: story.title,
    description,
    datePublished: ts,
    dateModified: ts,
    articleSection: item.category,
    mainEntityOfPage: url,
    author: [{ '@type': 'Person', name: story.author }],
    publisher: { '@type': 'Organization', name: s.name, url: ctx.urls.site(s.id) },
    ...(image ? { image: [image] } : {}),
  };
  // `</` inside JSON-LD would end the script element early: escape the slash
  const ldText = JSON.stringify(ld).replace(/<\//g, '<\\/');
  const meta = [
    `<meta property="og:type" content="article">`,
    `<meta property="og:title" content="${esc(story.title)}">`,
    `<meta property="og:description" content="${esc(description)}">`,
    `<meta property="og:url" content="${esc(url)}">`,
    `<meta property="og:site_name" content="${esc(s.name)}">`,
    ...(image ? [`<meta property="og:image" content="${esc(image)}">`] : []),
    `<meta property="article:published_time" content="${ts}">`,
    `<meta property="article:section" content="${item.category}">`,
    `<meta name="description" content="${esc(description)}">`,
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
    `<link rel="canonical" href="${esc(url)}">`,
  ].join('\n');
  const paras = story.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n<title>${esc(story.title)} - ${esc(s.name)}</title>\n`
    + `${meta}\n<script type="application/ld+json">${ldText}</script>\n</head>\n<body>\n<header><a href="${esc(ctx.urls.site(s.id))}">${esc(s.name)}</a></header>\n`
    + `<article>\n<h1>${esc(story.title)}</h1>\n<p class="byline">By ${esc(story.author)} <time datetime="${ts}">${ts}</time></p>\n`
    + `${paras}\n</article>\n<footer>Related coverage and comments</footer>\n</body></html>\n`;
}

/** One robots.txt for the shared host: disallows the sites of `robotsDisallow` publishers. */
export function renderRobots(urls: SimUrls, specs: readonly PublisherSpec[]): string {
  const lines = ['User-agent: *'];
  for (const s of specs) if (s.behaviour === 'robotsDisallow') lines.push(`Disallow: ${sitePath(s.id)}`);
  lines.push('Disallow: /_sim/', '');
  for (const s of specs) if (s.format === 'sitemap') lines.push(`Sitemap: ${urls.feed(s)}`);
  return `${lines.join('\n')}\n`;
}

/** A site's own robots.txt in virtual-host mode. */
export function renderSiteRobots(urls: SimUrls, spec: PublisherSpec): string {
  const lines = ['User-agent: *', spec.behaviour === 'robotsDisallow' ? 'Disallow: /' : 'Disallow: /private/'];
  if (spec.format === 'sitemap') lines.push('', `Sitemap: ${urls.feed(spec)}`);
  return `${lines.join('\n')}\n`;
}

/** OPML 2.0 listing every publisher with its section (`category`) and country (`newsagg:country`). */
export function renderOpml(urls: SimUrls, specs: readonly PublisherSpec[], title: string, createdAt: number): string {
  const outlines = specs.map((s) => `<outline type="${s.format === 'sitemap' ? 'sitemap' : 'rss'}" text="${esc(s.name)}" title="${esc(s.name)}"`
    + ` xmlUrl="${esc(urls.feed(s))}" htmlUrl="${esc(urls.site(s.id))}" category="${s.section}" language="en"`
    + ` newsagg:country="${s.city.country}" newsagg:format="${s.format}" newsagg:kind="${s.kind}"/>`);
  return '<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0" xmlns:newsagg="https://newsagg.invalid/ns/opml/1">\n'
    + `<head><title>${esc(title)}</title><dateCreated>${new Date(createdAt).toUTCString()}</dateCreated></head>\n<body>\n`
    + `${outlines.join('\n')}\n</body>\n</opml>\n`;
}
