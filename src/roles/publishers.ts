import { fromTaskError, type ParseTask } from '../actors/feed/index.js';
import { looksLikeSitemap, sitemapAsFeed } from '../actors/html/source.js';
import { publisherBehaviour, type PublisherMsg, type PublisherReply } from '../actors/publisher/actor.js';
import type { PolicyConfig } from '../actors/publisher/policy.js';
import { SqlPublisherStore } from '../actors/publisher/sql-store.js';
import type { PublisherStore } from '../actors/publisher/state.js';
import type { ParsedFeed } from '../actors/publisher/types.js';
import type { RawArticle } from '../actors/ingest/types.js';
import { listPublishers } from '../actors/store/publishers.js';
import { HttpError } from '../api/reply.js';
import type { Component, Node } from '../node.js';
import type { SharedFetcher } from './fetcher.js';
import { siblingModule } from '../runtime/module-url.js';
import { TaskFailedError } from '../runtime/task-pool.js';

export interface PublishersOptions {
  /** where publishers put what they find (the ingest component); resolves once it is stored */
  emit(articles: RawArticle[]): Promise<void>;
  /** the node's shared safe fetcher */
  fetcher: SharedFetcher;
  /** base URL hubs call back: --public-url by default; 'self' = this node's own URL (a local hub) */
  publicUrl?: 'self';
  /** a never-polled publisher polls within this spread (default: the policy's, up to 15 min) */
  firstPollSpreadMs?: number;
  /** the polling policy (default: DEFAULT_POLICY; the soak benchmark polls faster) */
  policy?: PolicyConfig;
}

export interface PublishersComponent extends Component {
  /** start actors for publishers added after start (admin API, OPML import) */
  added(ids: readonly string[]): void;
  removed(ids: readonly string[]): void;
}

const address = (id: string) => `publisher/${id}`;

/**
 * The publishers role: one PublisherActor per feed, all sharing the node's timer heap, the safe
 * fetcher and the CPU pool for parsing, emitting into the ingest log. Actors start for every
 * stored publisher and load their persisted polling state, so a restarted node continues where
 * it stopped. WebSub callbacks are routed to the actor of the publisher they name.
 */
export function publishersComponent(opts: PublishersOptions): PublishersComponent {
  let node: Node | null = null;
  const parseUrl = siblingModule(import.meta.url, '../actors/feed/parse-task.js').filename;

  return {
    name: 'publishers',
    async start(n: Node) {
      node = n;
      const cfg = n.config;
      const f = opts.fetcher.get();
      const configured = cfg.publicUrl ? cfg.publicUrl.replace(/\/$/, '') : null;
      const publicUrl = opts.publicUrl === 'self' ? () => n.url : configured ? () => configured : null;
      n.system.register(
        publisherBehaviour({
          fetch: (req) => f.fetch({ url: req.url, etag: req.etag, lastModified: req.lastModified }),
          parse: async (body, o): Promise<ParsedFeed> => {
            const task: ParseTask = { body: typeof body === 'string' ? new TextEncoder().encode(body) : body, baseUrl: o.baseUrl };
            if (o.contentType) task.contentType = o.contentType;
            try {
              return await n.tasks.run<ParseTask, ParsedFeed>(parseUrl, task);
            } catch (err) {
              const e = fromTaskError(err instanceof TaskFailedError ? err.cause : err);
              // a site without a feed is polled through its news sitemap
              if ((e as { code?: string }).code === 'PARSE_UNSUPPORTED') {
                const text = new TextDecoder().decode(task.body);
                if (looksLikeSitemap(text)) return sitemapAsFeed(text, { baseUrl: o.baseUrl, now: Date.now });
              }
              throw e;
            }
          },
          // resolves once the articles are stored: only then do the feed's validators move on
          emit: (articles) => opts.emit(articles),
          maxEntriesPerPoll: cfg.maxEntriesPerPoll,
          ...(opts.policy ? { policy: opts.policy } : {}),
          store: firstPollSooner(new SqlPublisherStore(n.sql, Date.now, Math.random, opts.policy), opts.firstPollSpreadMs),
          now: Date.now,
          random: Math.random,
          ...(publicUrl
            ? { websub: { callbackUrl: (id: string) => `${publicUrl()}/websub/${encodeURIComponent(id)}`, post: (r) => f.postForm(r.url, r.headers, r.body) } }
            : {}),
        }),
      );
      addWebSubRoutes(n);
      let after: string | null = null;
      for (;;) {
        const page = await listPublishers(n.sql, { after, limit: 1000 });
        for (const p of page) n.system.spawn(address(p.id));
        if (page.length < 1000) break;
        after = page[page.length - 1]!.id;
      }
      n.log.info({ publishers: n.system.count('publisher') }, 'publishers started');
    },
    added(ids) {
      for (const id of ids) node?.system.spawn(address(id));
    },
    removed(ids) {
      for (const id of ids) node?.system.stop(address(id));
    },
  };
}

/** A store whose never-polled publishers are due within `spreadMs` (the demo wants a full page soon). */
function firstPollSooner(store: PublisherStore, spreadMs: number | undefined): PublisherStore {
  if (spreadMs === undefined) return store;
  return {
    async load(id) {
      const s = await store.load(id);
      if (s && s.polls === 0) s.nextPollAt = Math.min(s.nextPollAt, Date.now() + Math.floor(Math.random() * spreadMs));
      return s;
    },
    save: (s) => store.save(s),
  };
}

/** WebSub callbacks: GET answers verification of intent, POST takes signed content. */
function addWebSubRoutes(n: Node): void {
  const known = async (id: string) => {
    const { rows } = await n.sql.query('SELECT 1 FROM publishers WHERE id = $1', [id]);
    if (rows.length === 0) throw new HttpError(404, 'not_found', 'no such subscription');
  };
  n.router.get('/websub/:id', async (req) => {
    await known(req.params.id!);
    const q = req.query;
    const lease = q.get('hub.lease_seconds');
    const r = await n.system.ask<PublisherReply, PublisherMsg>(address(req.params.id!), {
      type: 'websub-verify',
      mode: q.get('hub.mode') ?? '',
      topic: q.get('hub.topic') ?? '',
      challenge: q.get('hub.challenge'),
      leaseSeconds: lease !== null && /^\d+$/.test(lease) ? Number(lease) : null,
      reason: q.get('hub.reason'),
    });
    const out = r as { status: number; body?: string };
    return { status: out.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: out.body ?? '' };
  });
  n.router.post('/websub/:id', async (req) => {
    await known(req.params.id!);
    const body = await req.body();
    const r = (await n.system.ask<PublisherReply, PublisherMsg>(address(req.params.id!), {
      type: 'websub-push',
      body: new Uint8Array(body),
      signature: req.headers['x-hub-signature'] ?? null,
      contentType: req.headers['content-type'] ?? null,
    }, 30_000)) as { status: number };
    // 2xx tells the hub the delivery arrived; a bad signature is acknowledged and ignored (WebSub §8)
    return { status: r.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: '' };
  });
}
