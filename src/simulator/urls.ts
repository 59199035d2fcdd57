import type { FeedFormat, PublisherSpec } from './catalogue.js';
import type { SimItem } from './world.js';

/**
 * Where things live on the simulator. One server plays every publisher; each site is a path
 * prefix `/s/{id}/` (robots rules for all sites are in the one `/robots.txt`).
 */
export const FEED_FILE: Record<FeedFormat, string> = {
  rss: 'rss.xml',
  atom: 'atom.xml',
  jsonfeed: 'feed.json',
  sitemap: 'sitemap-news.xml',
};

export function sitePath(id: string): string {
  return `/s/${id}/`;
}

export function siteUrl(base: string, id: string): string {
  return `${base}${sitePath(id)}`;
}

export function feedUrl(base: string, spec: Pick<PublisherSpec, 'id' | 'format'>): string {
  return `${siteUrl(base, spec.id)}${FEED_FILE[spec.format]}`;
}

export function itemUrl(base: string, item: Pick<SimItem, 'publisherId' | 'seq' | 'slug'>): string {
  return `${siteUrl(base, item.publisherId)}a/${item.seq}-${item.slug}.html`;
}

export function thumbUrl(base: string, item: Pick<SimItem, 'publisherId' | 'seq'>): string {
  return `${base}/img/${item.publisherId}-${item.seq}.png`;
}

export function hubUrl(base: string): string {
  return `${base}/hub`;
}

/** XML/HTML text and attribute escaping. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
