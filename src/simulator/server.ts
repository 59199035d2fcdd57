import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { SimBehaviour, PublisherSpec } from './catalogue.js';
import { acceptsGzip, httpDate, isNotModified } from './conditional.js';
import type { WebSubHub } from './hub.js';
import { malformBody, streamHuge, type MisbehaviourOptions } from './misbehaviour.js';
import { thumbnailPng } from './png.js';
import { hashString } from './prng.js';
import { renderFeed, type RenderContext } from './render-feeds.js';
import { renderArticle, renderHome, renderOpml, renderRobots, renderSiteRobots } from './render-site.js';
import { SimStats } from './stats.js';
import { FEED_FILE } from './urls.js';
import type { SimPublisherState, World } from './world.js';

/** A rendered feed version, with both encodings and their strong validators. */
export interface FeedVersion {
  readonly version: number;
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  readonly lastModified: number;
  gz: Buffer | null;
}

export interface ServerDeps {
  readonly ctx: RenderContext;
  readonly world: World;
  readonly specs: readonly PublisherSpec[];
  readonly hub: WebSubHub | null;
  readonly misbehaviour: MisbehaviourOptions;
  readonly stats: SimStats;
  readonly opmlTitle: string;
  /** control endpoints under /_sim/ (truth, stats, the publisher list) */
  readonly truthJson: () => string;
  readonly publishersJson: () => string;
}

const SITE_RE = /^\/s\/([a-z0-9]+)\/(.*)$/;
const ARTICLE_RE = /^a\/(\d+)-[a-z0-9-]*\.html$/;
const IMG_RE = /^\/img\/([a-z0-9]+)-(\d+)\.png$/;

/**
 * The HTTP side of the simulator: one handler that plays every publisher's site, feed and
 * misbehaviour, plus robots.txt, OPML, thumbnails and the WebSub hub endpoint.
 */
export class SimServer {
  private readonly feeds = new Map<string, FeedVersion>();
  private readonly rateWindows = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly d: ServerDeps) {
    const start = d.world.now();
    const windowMs = d.misbehaviour.retryAfterSeconds * 1000;
    // rate-limited publishers start closed: the first poll gets 429 and must wait
    for (const s of d.specs) if (s.behaviour === 'rateLimited') this.rateWindows.set(s.id, start + windowMs);
  }

  /** Switches a publisher's behaviour at run time (a site that starts failing, then recovers). */
  setBehaviour(pub: SimPublisherState, behaviour: SimBehaviour): void {
    pub.spec.behaviour = behaviour;
    // malformed bodies are cached per version: the next request renders afresh
    this.feeds.delete(pub.spec.id);
    if (behaviour === 'rateLimited') this.rateWindows.set(pub.spec.id, this.d.world.now() + this.d.misbehaviour.retryAfterSeconds * 1000);
  }

  /** The current feed of a publisher, rendered once per version. */
  feed(pub: SimPublisherState): FeedVersion {
    const cached = this.feeds.get(pub.spec.id);
    if (cached && cached.version === pub.version) return cached;
    const r = renderFeed(this.d.ctx, pub);
    const text = pub.spec.behaviour === 'malformed' ? malformBody(r.body, pub.spec.format) : r.body;
    const body = Buffer.from(text);
    const etag = `"${pub.spec.id}-${pub.version}-${hashString(text).toString(36)}"`;
    const fv: FeedVersion = { version: pub.version, body, contentType: r.contentType, etag, lastModified: pub.lastModified, gz: null };
    this.feeds.set(pub.spec.id, fv);
    return fv;
  }

  /** Topic URL -> current feed content, for the hub. */
  topicContent(topic: string): { body: Buffer; contentType: string } | null {
    let url: URL;
    try {
      url = new URL(topic);
    } catch {
      return null;
    }
    const id = this.d.ctx.urls.vhostOf(url.host) ?? SITE_RE.exec(url.pathname)?.[1];
    const pub = id ? this.lookup(id) : null;
    if (!pub || pub.spec.format === 'sitemap' || topic !== this.d.ctx.urls.feed(pub.spec)) return null;
    const fv = this.feed(pub);
    return { body: fv.body, contentType: fv.contentType };
  }

  private lookup(id: string): SimPublisherState | null {
    try {
      return this.d.world.publisher(id);
    } catch {
      return null;
    }
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    let path: string;
    try {
      // a path like `//[` is a protocol-relative URL with a bad host: hostile input, not a crash
      path = new URL(req.url ?? '/', 'http://sim.invalid').pathname;
    } catch {
      return this.send(res, 400, 'text/plain', 'bad request target');
    }
    const method = req.method ?? 'GET';
    this.d.world.advance();
    res.on('finish', () => this.d.stats.response(res.statusCode));
    const vhost = this.d.ctx.urls.vhostOf(req.headers.host);
    if (vhost !== null) {
      const pub = this.lookup(vhost);
      if (!pub) return this.send(res, 404, 'text/plain', 'no such site');
      if (method !== 'GET' && method !== 'HEAD') return this.send(res, 405, 'text/plain', 'method not allowed', { Allow: 'GET, HEAD' });
      if (path === '/robots.txt') return this.send(res, 200, 'text/plain; charset=utf-8', renderSiteRobots(this.d.ctx.urls, pub.spec));
      return this.site(req, res, pub, path.slice(1));
    }
    if (method === 'POST' && path === '/hub') return this.hubRequest(req, res);
    if (method !== 'GET' && method !== 'HEAD') return this.send(res, 405, 'text/plain', 'method not allowed', { Allow: 'GET, HEAD' });
    if (path === '/robots.txt') return this.send(res, 200, 'text/plain; charset=utf-8', renderRobots(this.d.ctx.urls, this.d.specs));
    if (path === '/opml.xml') {
      return this.page(req, res, 'text/x-opml; charset=utf-8', renderOpml(this.d.ctx.urls, this.d.specs, this.d.opmlTitle, this.d.world.now()));
    }
    if (path === '/_sim/stats.json') return this.send(res, 200, 'application/json', JSON.stringify(this.d.stats.snapshot()));
    if (path === '/_sim/truth.json') return this.page(req, res, 'application/json', this.d.truthJson());
    if (path === '/_sim/publishers.json') return this.send(res, 200, 'application/json', this.d.publishersJson());
    const img = IMG_RE.exec(path);
    if (img) return this.send(res, 200, 'image/png', thumbnailPng(`${img[1]}-${img[2]}`), { 'Cache-Control': 'public, max-age=86400' });
    const site = SITE_RE.exec(path);
    const pub = site ? this.lookup(site[1] as string) : null;
    if (!site || !pub) return this.send(res, 404, 'text/plain', 'not found');
    return this.site(req, res, pub, site[2] as string);
  };

  /** A request for `rest` (path below the site root) on a publisher's site. */
  private site(req: IncomingMessage, res: ServerResponse, pub: SimPublisherState, rest: string): void {
    this.d.stats.siteRequest(pub.spec.id);
    if (pub.spec.behaviour === 'robotsDisallow') this.d.stats.robotsViolation(pub.spec.id);
    if (rest === FEED_FILE[pub.spec.format]) return this.feedRequest(req, res, pub);
    if (rest === '') return this.page(req, res, 'text/html; charset=utf-8', renderHome(this.d.ctx, pub));
    const loop = /^loop\/(\d)$/.exec(rest);
    if (loop && pub.spec.behaviour === 'redirectLoop') {
      const next = loop[1] === '1' ? 'loop/2' : FEED_FILE[pub.spec.format];
      return this.redirect(res, `${this.d.ctx.urls.site(pub.spec.id)}${next}`);
    }
    const art = ARTICLE_RE.exec(rest);
    if (art) {
      const item = pub.items.find((i) => i.seq === Number(art[1]));
      if (item) return this.page(req, res, 'text/html; charset=utf-8', renderArticle(this.d.ctx, pub, item));
      return this.send(res, 404, 'text/html', '<!doctype html><title>Not found</title><p>This article is no longer available.</p>');
    }
    return this.send(res, 404, 'text/plain', 'not found');
  }

  private feedRequest(req: IncomingMessage, res: ServerResponse, pub: SimPublisherState): void {
    const s = pub.spec;
    this.d.stats.feedRequest(s.id);
    switch (s.behaviour) {
      case 'error500':
        return this.send(res, 500, 'text/html', '<!doctype html><title>500 Internal Server Error</title><h1>Internal Server Error</h1>');
      case 'redirectLoop':
        return this.redirect(res, `${this.d.ctx.urls.site(s.id)}loop/1`);
      case 'huge':
        if (req.method === 'HEAD') return this.send(res, 200, 'application/rss+xml', '');
        return streamHuge(res, this.d.misbehaviour.hugeBytes, s.format);
      case 'rateLimited': {
        const now = this.d.world.now();
        const openAt = this.rateWindows.get(s.id) ?? 0;
        if (now < openAt) {
          this.d.stats.rateLimitViolation(s.id);
          const wait = Math.max(1, Math.ceil((openAt - now) / 1000));
          return this.send(res, 429, 'text/plain', 'Too Many Requests', { 'Retry-After': String(wait) });
        }
        this.rateWindows.set(s.id, now + this.d.misbehaviour.retryAfterSeconds * 1000);
        break;
      }
      case 'slow': {
        const t = setTimeout(() => {
          this.timers.delete(t);
          if (!res.destroyed) this.serveFeed(req, res, pub);
        }, this.d.misbehaviour.slowMs);
        this.timers.add(t);
        return;
      }
      default:
        break;
    }
    this.serveFeed(req, res, pub);
  }

  private serveFeed(req: IncomingMessage, res: ServerResponse, pub: SimPublisherState): void {
    const fv = this.feed(pub);
    const gzEtag = `${fv.etag.slice(0, -1)}-gz"`;
    const useGzip = acceptsGzip(req.headers);
    const headers: Record<string, string> = {
      ETag: useGzip ? gzEtag : fv.etag,
      'Last-Modified': httpDate(fv.lastModified),
      Vary: 'Accept-Encoding',
    };
    if (pub.spec.maxAgeSeconds !== null) headers['Cache-Control'] = `public, max-age=${pub.spec.maxAgeSeconds}`;
    if (isNotModified(req.headers, [fv.etag, gzEtag], fv.lastModified)) {
      this.d.stats.notModified(pub.spec.id);
      res.writeHead(304, headers);
      res.end();
      return;
    }
    let body = fv.body;
    if (useGzip) {
      fv.gz ??= gzipSync(fv.body);
      body = fv.gz;
      headers['Content-Encoding'] = 'gzip';
    }
    this.d.stats.feedServed(pub.spec.id);
    this.send(res, 200, fv.contentType, body, headers, req.method === 'HEAD');
  }

  private hubRequest(req: IncomingMessage, res: ServerResponse): void {
    const hub = this.d.hub;
    if (!hub) return this.send(res, 404, 'text/plain', 'no hub');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const r = hub.handle(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      this.send(res, r.status, 'text/plain', r.body);
    });
  }

  /** A 200 text page, gzipped when the client asks (pages are rendered per request, so not cached). */
  private page(req: IncomingMessage, res: ServerResponse, type: string, text: string): void {
    if (text.length < 512 || !acceptsGzip(req.headers)) return this.send(res, 200, type, text, { Vary: 'Accept-Encoding' });
    this.send(res, 200, type, gzipSync(text), { Vary: 'Accept-Encoding', 'Content-Encoding': 'gzip' });
  }

  private redirect(res: ServerResponse, location: string): void {
    this.send(res, 302, 'text/plain', `see ${location}`, { Location: location });
  }

  private send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}, headOnly = false): void {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(buf.length), ...headers });
    this.d.stats.bytes(headOnly ? 0 : buf.length);
    res.end(headOnly ? undefined : buf);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
