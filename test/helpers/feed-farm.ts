import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../../src/simulator/prng.js';

/**
 * Publishers on the loopback network for the fault tests and the soak benchmark: RSS 2.0 feeds
 * spread over several loopback addresses (127.0.0.2, 127.0.0.3, ...: each is its own host to a
 * node's per-host politeness), honouring If-None-Match / If-Modified-Since with 304 like real
 * publishers. A feed keeps its newest `keep` items. Texts are invented here from small word
 * lists (no real news), varied enough that most items are their own story.
 */

export interface FarmItem {
  guid: string;
  title: string;
  link: string;
  description: string;
  pubDate: number;
  /** the title as raw XML, written as it is (character references such as `&#0;` included) */
  xmlTitle?: string;
}

export interface FarmFeed {
  name: string;
  url: string;
  items: FarmItem[];
  requests: number;
  notModified: number;
  /** requests being answered now, and the most ever at once (two pollers of one feed overlap) */
  inFlight: number;
  maxInFlight: number;
  /** User-Agent of each request, in order (which node polled) */
  agents: string[];
  /** each request: its User-Agent and when it arrived (ms since epoch) */
  hits: { agent: string; at: number }[];
  /** serve this instead of the items (a feed document of any size or content) */
  body?: string;
}

const WHO = ['Council', 'Ministry', 'Union', 'Airline', 'University', 'Court', 'Hospital', 'Club', 'Museum', 'Port authority', 'Bank', 'Regulator', 'Orchestra', 'Startup', 'Police', 'Farmers'];
const DOES = ['approves', 'rejects', 'delays', 'announces', 'opens', 'closes', 'expands', 'reviews', 'funds', 'suspends', 'launches', 'questions'];
const WHAT = ['harbour plan', 'rail link', 'budget', 'wage deal', 'water project', 'new terminal', 'research centre', 'housing scheme', 'solar farm', 'bus routes', 'school reform', 'flood defences', 'museum wing', 'drug trial', 'bridge repair', 'stadium'];
const WHERE = ['Aldmoor', 'Brackwater', 'Cindervale', 'Dunmarsh', 'Eastholm', 'Fallowmere', 'Greystoke', 'Hollins', 'Ivybridge', 'Jarrowfield', 'Kestrel Bay', 'Larkspur', 'Millbrook', 'Northwick', 'Oakhaven', 'Pembury'];
const AFTER = ['talks', 'vote', 'protest', 'report', 'audit', 'storm', 'inquiry', 'strike', 'election', 'court ruling', 'heatwave', 'merger'];
const pick = <T>(r: Rng, list: readonly T[]): T => list[r.u32() % list.length]!;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderFarmRss(f: FarmFeed): string {
  const items = f.items
    .map((i) => `<item><title>${i.xmlTitle ?? esc(i.title)}</title><link>${esc(i.link)}</link><guid isPermaLink="false">${esc(i.guid)}</guid><description>${esc(i.description)}</description><pubDate>${new Date(i.pubDate).toUTCString()}</pubDate></item>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Farm feed ${esc(f.name)}</title><link>https://farm.example/${esc(f.name)}</link>${items}</channel></rss>`;
}

export class FeedFarm {
  readonly feeds: FarmFeed[] = [];
  private readonly servers: Server[] = [];
  private readonly rng: Rng;
  private seq = 0;
  /** every item ever published, by link */
  readonly published = new Set<string>();

  constructor(
    private readonly o: {
      hosts: number;
      feedsPerHost: number;
      keep?: number;
      seed?: string;
      /** answer each request this late (widens overlaps) */
      delayMs?: number;
      /** a 200 answer sends its headers at once and its body in pieces over this long (a slow server; no silence over 5 s) */
      slowBodyMs?: number;
    },
  ) {
    this.rng = new Rng(o.seed ?? 'farm');
  }

  async start(): Promise<this> {
    for (let h = 0; h < this.o.hosts; h++) {
      const host = `127.0.0.${h + 2}`;
      const names: string[] = [];
      const server = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0]!;
        const f = this.feeds.find((x) => x.url.endsWith(`${host}:${(server.address() as AddressInfo).port}${path}`));
        if (!f) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
          return;
        }
        f.requests++;
        f.agents.push(String(req.headers['user-agent'] ?? ''));
        f.hits.push({ agent: String(req.headers['user-agent'] ?? ''), at: Date.now() });
        f.inFlight++;
        f.maxInFlight = Math.max(f.maxInFlight, f.inFlight);
        let done = false;
        const finish = () => {
          if (!done) f.inFlight--;
          done = true;
        };
        res.once('close', finish);
        res.once('finish', finish);
        if (this.o.delayMs) setTimeout(() => this.answer(f, req, res), this.o.delayMs);
        else this.answer(f, req, res);
      });
      server.keepAliveTimeout = 60_000;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, resolve);
      });
      this.servers.push(server);
      const port = (server.address() as AddressInfo).port;
      for (let k = 0; k < this.o.feedsPerHost; k++) {
        const name = `h${h}-f${k}`;
        names.push(name);
        this.feeds.push({ name, url: `http://${host}:${port}/feed/${name}`, items: [], requests: 0, notModified: 0, inFlight: 0, maxInFlight: 0, agents: [], hits: [] });
      }
    }
    return this;
  }

  private answer(f: FarmFeed, req: IncomingMessage, res: ServerResponse): void {
    const body = f.body ?? renderFarmRss(f);
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const lastModified = new Date(f.items[0]?.pubDate ?? 0).toUTCString();
    const inm = req.headers['if-none-match'];
    if (inm === etag || (!inm && req.headers['if-modified-since'] === lastModified)) {
      f.notModified++;
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag, 'last-modified': lastModified });
    const slow = this.o.slowBodyMs ?? 0;
    if (slow <= 0) {
      res.end(body);
      return;
    }
    const pieces = Math.max(2, Math.ceil(slow / 4_000));
    const size = Math.ceil(body.length / pieces);
    let k = 0;
    const next = () => {
      if (res.destroyed) return;
      const part = body.slice(k * size, (k + 1) * size);
      k++;
      if (k >= pieces) res.end(part);
      else {
        res.write(part);
        setTimeout(next, slow / pieces);
      }
    };
    next();
  }

  /** New items on a feed (newest first; the feed keeps its newest `keep`); `over` may change any of an item's fields. */
  publish(feed: FarmFeed, n: number, now: number, over?: (item: FarmItem, k: number) => Partial<FarmItem>): FarmItem[] {
    const made: FarmItem[] = [];
    for (let k = 0; k < n; k++) {
      const s = ++this.seq;
      const r = this.rng;
      const title = `${pick(r, WHO)} ${pick(r, DOES)} ${pick(r, WHAT)} in ${pick(r, WHERE)} after ${pick(r, WHAT)} ${pick(r, AFTER)}`;
      const item: FarmItem = {
        guid: `${feed.name}-${s}`,
        title,
        link: `https://${feed.name}.farm.example/news/${s}`,
        description: `${title}. Officials in ${pick(r, WHERE)} said the ${pick(r, WHAT)} would be discussed again; item ${s} of ${feed.name}.`,
        pubDate: now - (n - k),
      };
      if (over) Object.assign(item, over(item, k));
      made.push(item);
      feed.items.unshift(item);
      this.published.add(item.link);
    }
    feed.items.length = Math.min(feed.items.length, this.o.keep ?? 100);
    return made;
  }

  async close(): Promise<void> {
    for (const s of this.servers) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  }
}
