import { getArticles } from '../actors/store/articles.js';
import { feedKey, feedScore, storyKey, toCachedStory, type CachedStory, type FeedItem } from '../actors/store/feed-items.js';
import { FEED_KEEP, INVALIDATE_CHANNEL } from '../actors/store/feed-cache.js';
import { getStories, rankedStories } from '../actors/store/stories.js';
import type { Cache } from '../runtime/cache.js';
import { describeError } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Sql } from '../runtime/sql.js';
import type { CursorCodec } from './cursor.js';
import { diversify } from './diversity.js';
import { SnapshotStore } from './feed-snapshots.js';
import { HotCache, type HotEntry } from './hot-cache.js';

export interface FeedQuery {
  region: string;
  category: string;
  cursor: string | null;
  limit: number;
}

interface FeedCursor extends Record<string, unknown> {
  /** snapshot id, or null when paging by keyset alone */
  s: string | null;
  /** items served so far from the snapshot and the ranking after it */
  o: number;
  /** (score, id) of the last item served, for keyset paging without a snapshot */
  k: number;
  i: string;
}

/** the part of a snapshot re-ranked for diversity; the rest keeps rank order */
const DIVERSIFIED = 500;

interface Ranked {
  id: string;
  score: number;
}

export interface FeedServiceOptions {
  sql: Sql;
  cache: Cache;
  codec: CursorCodec;
  log?: Logger;
  now?: () => number;
  hotTtlMs?: number;
  snapshotTtlMs?: number;
  /**
   * How many ranked stories the first page fixes for the pages after it (the first 500 of them
   * diversified). Within the snapshot paging is exact even while stories move; beyond it pages
   * continue by keyset in rank order, where a story that moves up can be missed.
   */
  snapshotSize?: number;
  maxPerPublisher?: number;
  minCategoriesOnTop?: number;
}

/**
 * Feed pages. The first page takes the top of the feed's ranking, applies the diversity rules
 * and fixes that order as a snapshot; cursors point into it, so pages neither repeat nor skip
 * while new articles arrive. Past the snapshot, pages continue in rank order after the
 * snapshot's end. Rankings and stories come from the cache, or from PostgreSQL when the cache
 * fails: slower, same answers.
 */
export class FeedService {
  private readonly hot: HotCache;
  private readonly log: Logger;
  private readonly snapshots: SnapshotStore;
  private readonly snapshotSize: number;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly o: FeedServiceOptions) {
    this.log = o.log ?? silentLogger;
    const now = o.now ?? Date.now;
    this.hot = new HotCache(o.hotTtlMs ?? 5_000, now);
    this.snapshots = new SnapshotStore(o.cache, o.sql, o.snapshotTtlMs ?? 30 * 60_000, now);
    this.snapshotSize = o.snapshotSize ?? 1_000;
  }

  /** Listen for invalidation events (stories written by any node). */
  async start(): Promise<void> {
    try {
      this.unsubscribe = await this.o.cache.subscribe(INVALIDATE_CHANNEL, (m) => {
        try {
          this.hot.invalidate((JSON.parse(m) as { feeds: string[] }).feeds);
        } catch {
          this.hot.clear();
        }
      });
    } catch (err) {
      // without events the hot cache still expires by TTL
      this.log.warn({ err: describeError(err) }, 'feed invalidation subscription failed');
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.().catch(() => {});
  }

  /** The rendered page when the hot cache holds a fresh one, else null; synchronous, no I/O. */
  cached(q: FeedQuery): HotEntry | null {
    return this.hot.get(`${feedKey(q.region, q.category)}|${q.limit}|${q.cursor ?? ''}`);
  }

  /** The rendered page (JSON body + ETag), from the hot cache when fresh. Throws InvalidCursorError. */
  async render(q: FeedQuery): Promise<HotEntry> {
    const scope = feedKey(q.region, q.category);
    const key = `${scope}|${q.limit}|${q.cursor ?? ''}`;
    const hit = this.hot.get(key);
    if (hit) return hit;
    const token = this.hot.token(scope);
    return this.hot.set(key, scope, JSON.stringify(await this.page(q)), token);
  }

  async page(q: FeedQuery): Promise<{ items: FeedItem[]; next_cursor: string | null }> {
    const scope = feedKey(q.region, q.category);
    const cur = q.cursor ? this.o.codec.decode<FeedCursor>(scope, q.cursor) : null;
    let rows: CachedStory[];
    let snap: string | null = null;
    let snapIds: string[] = [];
    if (!cur) {
      const ranked = await this.rank(q, null, this.snapshotSize, 0);
      const head = this.diversified(await this.loadFor(q, ranked.slice(0, DIVERSIFIED).map((r) => r.id)), q);
      const ids = [...head.map((s) => s.item.story_id), ...ranked.slice(DIVERSIFIED).map((r) => r.id)];
      const end = ranked.length >= this.snapshotSize ? ranked[ranked.length - 1]! : null;
      snap = await this.snapshots.put({ ids, end: end && { score: end.score, id: end.id } });
      snapIds = ids;
      rows = head.slice(0, q.limit + 1);
    } else {
      const s = cur.s ? await this.snapshots.get(cur.s) : null;
      if (s) {
        snap = cur.s;
        snapIds = s.ids;
        rows = await this.loadFor(q, s.ids.slice(cur.o, cur.o + q.limit + 1));
        const want = q.limit + 1 - rows.length;
        if (want > 0 && s.end) {
          const skip = Math.max(0, cur.o - s.ids.length);
          const after = await this.rank(q, s.end, want, skip);
          rows = rows.concat(await this.loadFor(q, after.map((r) => r.id)));
        }
      } else {
        rows = await this.loadFor(q, (await this.rank(q, { score: cur.k, id: cur.i }, q.limit + 1, 0)).map((r) => r.id));
      }
    }
    const items = rows.slice(0, q.limit);
    const last = items[items.length - 1];
    // the offset counts snapshot positions, which filtered-out entries also take
    const at = last ? snapIds.indexOf(last.item.story_id, cur?.o ?? 0) : -1;
    const offset = at >= 0 ? at + 1 : (cur?.o ?? 0) + items.length;
    const next =
      rows.length > q.limit && last
        ? this.o.codec.encode(scope, { s: snap, o: offset, k: feedScore(last, q.region), i: last.item.story_id } satisfies FeedCursor)
        : null;
    return { items: items.map((r) => r.item), next_cursor: next };
  }

  /** Rank order after (score, id), skipping `skip` entries; cache first, database when it fails or is cold. */
  private async rank(q: FeedQuery, after: Ranked | { score: number; id: string } | null, limit: number, skip: number): Promise<Ranked[]> {
    const key = feedKey(q.region, q.category);
    try {
      const extra = after ? 50 : 0; // ties at the boundary score are filtered below
      const got = await this.o.cache.zrevrangebyscore(key, after ? after.score : Infinity, -Infinity, { limit: limit + skip + extra });
      if (got.length > 0 || (await this.o.cache.zcard(key)) > 0) {
        const list = after ? got.filter((r) => r.score < after.score || (r.score === after.score && r.member < after.id)) : got;
        return list.slice(skip, skip + limit).map((r) => ({ id: r.member, score: r.score }));
      }
      // an empty set after a cache restart: answer from the database and warm the set again
      const rows = await rankedStories(this.o.sql, { region: q.region, category: q.category, limit: FEED_KEEP });
      if (rows.length) await this.o.cache.zaddTrim(key, rows.map((r) => ({ member: r.id, score: r.score })), FEED_KEEP);
      const list = after ? rows.filter((r) => r.score < after.score || (r.score === after.score && r.id < after.id)) : rows;
      return list.slice(skip, skip + limit);
    } catch (err) {
      this.log.debug({ err: describeError(err) }, 'ranking from the database');
      const rows = await rankedStories(this.o.sql, { region: q.region, category: q.category, limit: limit + skip, after });
      return rows.slice(skip);
    }
  }

  private diversified(stories: CachedStory[], q: FeedQuery): CachedStory[] {
    const ranked = stories.map((s) => ({ id: s.item.story_id, publisher: s.publisher_id, category: s.item.category, s }));
    return diversify(ranked, {
      pageSize: q.limit,
      maxPerPublisher: this.o.maxPerPublisher ?? 3,
      minCategories: q.category === 'top' ? (this.o.minCategoriesOnTop ?? 3) : 0,
    }).map((x) => x.s);
  }

  /** Entries for one feed: a story whose category or regions changed since it was ranked is left out. */
  private async loadFor(q: FeedQuery, ids: string[]): Promise<CachedStory[]> {
    return (await this.load(ids)).filter(
      (s) => (q.category === 'top' || s.item.category === q.category) && (q.region === 'global' || s.regions.includes(q.region)),
    );
  }

  /** Story entries by id, in the given order; misses (or a failed cache) are read from SQL. */
  private async load(ids: string[]): Promise<CachedStory[]> {
    if (ids.length === 0) return [];
    const found = new Map<string, CachedStory>();
    let missing = ids;
    try {
      const raw = await this.o.cache.mget(ids.map(storyKey));
      missing = [];
      raw.forEach((v, i) => (v ? found.set(ids[i]!, JSON.parse(v) as CachedStory) : missing.push(ids[i]!)));
    } catch (err) {
      this.log.debug({ err: describeError(err) }, 'stories from the database');
    }
    if (missing.length) {
      const rebuilt = await this.fromSql(missing);
      for (const s of rebuilt) found.set(s.item.story_id, s);
      // write back so the next reader finds them (best effort: the cache may be the thing that is down)
      if (rebuilt.length) this.o.cache.mset(rebuilt.map((s) => ({ key: storyKey(s.item.story_id), value: JSON.stringify(s), ttlMs: 14 * 86_400_000 }))).catch(() => {});
    }
    return ids.map((id) => found.get(id)).filter((s): s is CachedStory => s !== undefined);
  }

  private async fromSql(ids: string[]): Promise<CachedStory[]> {
    const stories = await getStories(this.o.sql, ids);
    const leadIds = stories.map((s) => s.lead_article_id).filter((x): x is string => !!x);
    const leads = new Map((await getArticles(this.o.sql, leadIds)).map((a) => [a.id, a]));
    return stories.flatMap((s) => {
      const lead = s.lead_article_id ? leads.get(s.lead_article_id) : undefined;
      return lead ? [toCachedStory(s, lead)] : [];
    });
  }
}
