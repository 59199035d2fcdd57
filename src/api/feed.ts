import { getArticles } from '../actors/store/articles.js';
import { feedKey, feedScore, listedItem, storyKey, toCachedStory, upgradeCachedStory, type CachedStory, type FeedItem } from '../actors/store/feed-items.js';
import { FEED_KEEP, INVALIDATE_CHANNEL } from '../actors/store/feed-cache.js';
import { FeedCacheGuard } from '../actors/store/feed-rebuild.js';
import { withRelated } from '../actors/store/related.js';
import { getStories, rankedStories } from '../actors/store/stories.js';
import type { Cache } from '../runtime/cache.js';
import { describeError } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Sql } from '../runtime/sql.js';
import { explainCursorScope, type CursorCodec } from './cursor.js';
import { diversify } from './diversity.js';
import { SnapshotStore } from './feed-snapshots.js';
import { HotCache, type HotEntry } from './hot-cache.js';
import { FEED_CATEGORIES, FEED_REGIONS } from './params.js';

export interface FeedQuery {
  region: string;
  category: string;
  cursor: string | null;
  limit: number;
  /**
   * Items keep their headlines of other publishers (`related`). Asked for, not default: they
   * double a page's bytes, and a cached page's cost is mostly its bytes.
   */
  related?: boolean;
  /** only stories whose lead is in this language (ISO 639-1); absent or null: every language */
  lang?: string | null;
}

/** The hot-cache key of a page. */
function pageKey(q: FeedQuery): string {
  return `${feedKey(q.region, q.category)}|${q.limit}|${q.cursor ?? ''}|${q.related ? 'r' : ''}${q.lang ? `|${q.lang}` : ''}`;
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
  /** how often the cache's epoch is checked for a restart or lost keys (default 2 s; 0 = never) */
  epochCheckMs?: number;
  /**
   * Story ids breaking now in an edition (`global` = all), newest first: they open the first page
   * of every feed they belong to, ahead of the ranking and outside the diversity rules.
   */
  breaking?: (region: string) => Promise<string[]>;
}

/**
 * Feed pages. The first page takes the top of the feed's ranking, applies the diversity rules
 * and fixes that order as a snapshot; cursors point into it, so pages neither repeat nor skip
 * while new articles arrive. Past the snapshot, pages continue in rank order after the
 * snapshot's end. Rankings and stories come from the cache, or from PostgreSQL when the cache
 * fails or is being rebuilt after losing its data (see feed-rebuild.ts): slower, same answers.
 */
export class FeedService {
  private readonly hot: HotCache;
  private readonly log: Logger;
  private readonly snapshots: SnapshotStore;
  private readonly snapshotSize: number;
  private readonly guard: FeedCacheGuard | null;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly o: FeedServiceOptions) {
    this.log = o.log ?? silentLogger;
    const now = o.now ?? Date.now;
    this.hot = new HotCache(o.hotTtlMs ?? 5_000, now);
    this.snapshots = new SnapshotStore(o.cache, o.sql, o.snapshotTtlMs ?? 30 * 60_000, now);
    this.snapshotSize = o.snapshotSize ?? 1_000;
    this.guard =
      o.epochCheckMs === 0
        ? null
        : new FeedCacheGuard({ sql: o.sql, cache: o.cache, log: this.log, now, everyMs: o.epochCheckMs ?? 2_000, onRebuilt: () => this.hot.clear() });
  }

  /** Listen for invalidation events (stories written by any node); watch the cache's epoch. */
  async start(): Promise<void> {
    this.guard?.start();
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
    await this.guard?.stop();
    await this.unsubscribe?.().catch(() => {});
  }

  /** Checks the cache's epoch now and rebuilds the feeds when it was lost; resolves when done. */
  checkCache(): Promise<void> {
    return this.guard?.check() ?? Promise.resolve();
  }

  /** The rendered page when the hot cache holds a fresh one, else null; synchronous, no I/O. */
  cached(q: FeedQuery): HotEntry | null {
    return this.hot.get(pageKey(q));
  }

  /** The rendered page (JSON body + ETag), from the hot cache when fresh. Throws InvalidCursorError. */
  async render(q: FeedQuery): Promise<HotEntry> {
    const scope = feedKey(q.region, q.category);
    const key = pageKey(q);
    const hit = this.hot.get(key);
    if (hit) return hit;
    const token = this.hot.token(scope);
    return this.hot.set(key, scope, JSON.stringify(await this.page(q)), token);
  }

  async page(q: FeedQuery): Promise<{ items: FeedItem[]; next_cursor: string | null }> {
    // a language's feed has cursors of its own (its snapshot holds that language's head)
    const scope = q.lang ? `${feedKey(q.region, q.category)}:${q.lang}` : feedKey(q.region, q.category);
    const cur = q.cursor ? this.decodeCursor(scope, q.cursor) : null;
    let rows: CachedStory[];
    let snap: string | null = null;
    let snapIds: string[] = [];
    if (!cur) {
      const first = await this.first(q);
      snap = first.id;
      snapIds = first.ids;
      rows = first.head.slice(0, q.limit + 1);
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
    return { items: items.map((r) => pageItem(r, q)), next_cursor: next };
  }

  /** The cursor's position; one of another feed (region or category) is refused naming that feed. */
  private decodeCursor(scope: string, cursor: string): FeedCursor {
    try {
      return this.o.codec.decode<FeedCursor>(scope, cursor);
    } catch (err) {
      throw explainCursorScope(err, this.o.codec, cursor, feedScopes(''));
    }
  }

  /** Breaking stories of this feed, newest first (none when the breaking set cannot be read). */
  private async boosted(q: FeedQuery): Promise<CachedStory[]> {
    if (!this.o.breaking) return [];
    const ids = await this.o.breaking(q.region).catch(() => []);
    return ids.length > 0 ? this.loadFor(q, ids) : [];
  }

  /**
   * The first page's ranking fixed as a snapshot: its id (what cursors name; the same id for the
   * same ranking), the story ids in order, and the stories of its diversified head.
   */
  private async first(q: FeedQuery): Promise<{ id: string; ids: string[]; head: CachedStory[] }> {
    const [ranking, boosted] = await Promise.all([this.rank(q, null, this.snapshotSize, 0), this.boosted(q)]);
    // breaking stories open the page, ahead of the ranking and outside the diversity rules
    const lead = new Set(boosted.map((s) => s.item.story_id));
    const ranked = lead.size > 0 ? ranking.filter((r) => !lead.has(r.id)) : ranking;
    const head = [...boosted, ...this.diversified(await this.loadFor(q, ranked.slice(0, DIVERSIFIED).map((r) => r.id)), q)];
    const ids = [...head.map((s) => s.item.story_id), ...ranked.slice(DIVERSIFIED).map((r) => r.id)];
    const end = ranking.length >= this.snapshotSize ? ranking[ranking.length - 1]! : null;
    const id = await this.snapshots.put({ ids, end: end && { score: end.score, id: end.id } });
    return { id, ids, head };
  }

  /**
   * A feed's current ranking as a snapshot (what the first page with `limit` fixes): the
   * candidates the personalised feed re-ranks, under an id its cursors can name on any node.
   */
  async snapshot(region: string, category: string, limit = 20): Promise<{ id: string; ids: string[] }> {
    const { id, ids } = await this.first({ region, category, cursor: null, limit });
    return { id, ids };
  }

  /** The story ids of a snapshot, or null once it expired. */
  async snapshotIds(id: string): Promise<string[] | null> {
    return (await this.snapshots.get(id))?.ids ?? null;
  }

  /** Rank order after (score, id), skipping `skip` entries; cache first, database when it fails or is cold. */
  private async rank(q: FeedQuery, after: Ranked | { score: number; id: string } | null, limit: number, skip: number): Promise<Ranked[]> {
    const key = feedKey(q.region, q.category);
    try {
      if (this.guard?.rebuilding) throw new Error('the feed cache is being rebuilt');
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
    return (await this.stories(ids)).filter(
      (s) => (q.category === 'top' || s.item.category === q.category) && (q.region === 'global' || s.regions.includes(q.region)) && (!q.lang || s.language === q.lang),
    );
  }

  /** Story entries by id, in the given order; misses (or a failed cache) are read from SQL. */
  async stories(ids: string[]): Promise<CachedStory[]> {
    if (ids.length === 0) return [];
    const found = new Map<string, CachedStory>();
    let missing = ids;
    try {
      const raw = await this.o.cache.mget(ids.map(storyKey));
      missing = [];
      raw.forEach((v, i) => (v ? found.set(ids[i]!, cachedEntry(v)) : missing.push(ids[i]!)));
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
    const cached = stories.flatMap((s) => {
      const lead = s.lead_article_id ? leads.get(s.lead_article_id) : undefined;
      return lead ? [toCachedStory(s, lead)] : [];
    });
    return withRelated(this.o.sql, cached);
  }
}

/**
 * Every feed's cursor scope, and how to name that feed to a client (`prefix` + feed key: the
 * personalised feed prefixes its own), for explainCursorScope.
 */
export function feedScopes(prefix: string, suffix = '', what = ''): { scope: string; what: string }[] {
  const out: { scope: string; what: string }[] = [];
  for (const r of FEED_REGIONS) for (const c of FEED_CATEGORIES) out.push({ scope: `${prefix}${prefix ? `${r}:${c}` : feedKey(r, c)}${suffix}`, what: `the feed region=${r}&category=${c}${what}` });
  return out;
}

/** A story entry as the cache holds it (one written by an older version gets what items carry now). */
function cachedEntry(raw: string): CachedStory {
  return upgradeCachedStory(JSON.parse(raw) as CachedStory);
}

/** An entry's item on a page of feed `q`: labelled with the edition it is listed under, related headlines only when asked. */
function pageItem(s: CachedStory, q: FeedQuery): FeedItem {
  const item = listedItem(s, q.region);
  return q.related || item.related === undefined ? item : withoutRelated(item);
}

function withoutRelated(item: FeedItem): FeedItem {
  const { related: _r, ...rest } = item;
  return rest;
}
