import type { SimFeedFormat, PublisherSpec } from './catalogue.js';
import type { SimItem } from './world.js';

/** Feed file name per format, relative to the site root. */
export const FEED_FILE: Record<SimFeedFormat, string> = {
  rss: 'rss.xml',
  atom: 'atom.xml',
  jsonfeed: 'feed.json',
  sitemap: 'sitemap-news.xml',
};

/** The reserved testing TLD (RFC 2606): per-site host names never leak onto the real network. */
export const VHOST_DOMAIN = 'sim.test';

export function sitePath(id: string): string {
  return `/s/${id}/`;
}

/**
 * Where things live on the simulator. One server plays every publisher. By default each site is
 * a path prefix `/s/{id}/` of the one host; with virtual hosts each site is its own host
 * `{id}.sim.test:{port}` (the client maps `*.sim.test` to the simulator's address), so per-host
 * politeness and per-site robots.txt work as on the real web. Thumbnails, OPML and the hub stay
 * on the main host.
 */
export class SimUrls {
  constructor(readonly base: string, readonly vhostPort: number | null = null) {}

  site(id: string): string {
    return this.vhostPort === null ? `${this.base}${sitePath(id)}` : `http://${id}.${VHOST_DOMAIN}:${this.vhostPort}/`;
  }

  feed(spec: Pick<PublisherSpec, 'id' | 'format'>): string {
    return `${this.site(spec.id)}${FEED_FILE[spec.format]}`;
  }

  item(item: Pick<SimItem, 'publisherId' | 'seq' | 'slug'>): string {
    return `${this.site(item.publisherId)}a/${item.seq}-${item.slug}.html`;
  }

  thumb(item: Pick<SimItem, 'publisherId' | 'seq'>): string {
    return `${this.base}/img/${item.publisherId}-${item.seq}.png`;
  }

  hub(): string {
    return `${this.base}/hub`;
  }

  /** The publisher id a request's Host header names, in virtual-host mode. */
  vhostOf(host: string | undefined): string | null {
    if (this.vhostPort === null || !host) return null;
    const m = /^([a-z0-9]+)\.sim\.test(?::\d+)?$/i.exec(host);
    return m ? (m[1] as string).toLowerCase() : null;
  }
}

/** XML/HTML text and attribute escaping. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
