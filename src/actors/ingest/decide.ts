import type { DedupDecision, DedupInput, StoredFingerprint } from '../dedup/coordinator.js';
import type { ArticleRow, OriginalInfo, RefreshRow } from '../store/articles.js';
import { storyRowOf, type StoryRow } from '../store/stories.js';
import type { StorySummary } from '../stories/clusterer.js';
import { ORIGINAL_UNKNOWN, type ClusterBatchReply, type ClusterItem } from '../stories/story-cluster.js';
import { unfence, type Fenced, type FenceToken } from '../../runtime/fence.js';
import { DECISION_TTL_MS } from './decision-time.js';
import type { ThumbnailJob } from './thumbnails.js';
import type { PreparedArticle, RejectedArticle } from './types.js';

/**
 * The decisions about a prepared batch, the same for a node and for `newsagg process`: exact
 * dedup by URL hash (a known URL is an update of its article, never a second one), near-duplicate
 * decisions from the dedup shards, and story clustering by the story actor. Each collaborator
 * answers with a reply (decisions with the fingerprints to keep; stories as they now stand), so
 * any of them can live on another thread or node. What to store travels on in the `Decided`.
 */

/** An article already known by its URL: what exact dedup needs to turn a repeat into an update. */
export interface KnownArticle {
  id: string;
  published_at: string;
  story_id: string | null;
  duplicate_of: string | null;
}

/** Where stored (or, in `process`, remembered) articles are looked up by URL hash. */
export interface KnownUrls {
  lookup(hashes: readonly string[]): Promise<Map<string, KnownArticle>> | Map<string, KnownArticle>;
}

/** Where the categories and stories of stored (or, in `process`, remembered) articles are looked up by id. */
export interface KnownOriginals {
  lookup(ids: readonly string[]): Promise<Map<string, OriginalInfo>> | Map<string, OriginalInfo>;
}

export interface DecideDeps {
  urls: KnownUrls;
  /**
   * the categories and stories of earlier articles, for wire copies of them (a copy takes its
   * original's category and joins its story); without it only originals in the batch or in a
   * batch still being stored are known
   */
  originals?: KnownOriginals;
  /**
   * the dedup coordinator: decisions in input order (in a cluster `Fenced`: with the token of
   * the shard owner that answered, which the write checks)
   */
  dedup: { submit(batch: readonly DedupInput[]): Promise<DedupDecision[] | Fenced<DedupDecision[]>> };
  /** the story actor (ask add-batch; in a cluster `Fenced`, as `dedup`) */
  cluster(items: ClusterItem[]): Promise<ClusterBatchReply | Fenced<ClusterBatchReply>>;
  /**
   * articles per ask to the story actor; between slices I/O callbacks run (clustering is
   * synchronous work: a node serving the API must not stall for a whole batch of it)
   */
  clusterSlice?: number;
  /** the clock of `Decided.storeBy` (default `Date.now`) */
  now?: () => number;
  /** how long a decision may wait to be stored (default `DECISION_TTL_MS`) */
  decisionTtlMs?: number;
  /**
   * how long a wire copy waits for its original's story when neither the story actor nor the
   * store (nor this node's batches in flight) knows it: in a cluster the original may be in a
   * batch another node is storing, decided by a previous owner of the story shard (default 0:
   * not at all, the copy is clustered as the actor sees fit)
   */
  originalWaitMs?: number;
}

/** What became of one prepared article. */
export interface Outcome {
  a: PreparedArticle;
  id: string;
  duplicate_of: string | null;
  story_id: string | null;
  /** its URL was known: it refreshed that article instead of adding one */
  update: boolean;
}

/** A batch after dedup and clustering: per article its outcome, and every row its transaction writes. */
export interface Decided {
  /** one per prepared article, in batch order (rejected ones excluded) */
  outcomes: Outcome[];
  rows: ArticleRow[];
  refresh: RefreshRow[];
  stories: StoryRow[];
  fingerprints: StoredFingerprint[];
  thumbnails: ThumbnailJob[];
  /** set aside before storage: refused by the CPU stage or by the clusterer */
  rejected: RejectedArticle[];
  /** the batch's new URLs (url hash -> article), known to exact dedup until released */
  known: Map<string, KnownArticle>;
  /**
   * the categories (a copy's are its original's) and stories of the batch's new articles by id,
   * known to later copies until released
   */
  originals: Map<string, OriginalInfo>;
  /**
   * the batch must be stored before this instant (`now` of the deps) or be decided again: the
   * dedup and story shards were asked from `DECISION_TTL_MS` before it, and a new owner of either
   * counts on no older decision being stored after that long (decision-time.ts)
   */
  storeBy: number;
  /**
   * the fencing tokens of the shard owners that answered (a cluster): the write is refused when
   * one of them has been deposed since, and the batch decided again (fence.ts)
   */
  fences?: FenceToken[];
}

/**
 * Decides batches strictly one at a time, in order. A batch may be decided while the one before
 * is still being stored: URLs of batches decided and not yet released count as known, so a URL
 * repeated across two such batches refreshes one article. The caller releases a batch once it
 * is stored (or given up: its URLs are then unknown again, so a redelivery adds them).
 */
export class Decider {
  private readonly inFlight: Map<string, KnownArticle>[] = [];
  private readonly inFlightOriginals: Map<string, OriginalInfo>[] = [];
  private readonly slice: number;
  private readonly now: () => number;

  constructor(private readonly d: DecideDeps) {
    this.slice = d.clusterSlice ?? 1_000_000;
    this.now = d.now ?? Date.now;
  }

  async decide({ ok, rejected }: { ok: PreparedArticle[]; rejected: RejectedArticle[] }): Promise<Decided> {
    // exact dedup against what is stored, what is being stored and the batch itself (the in-flight
    // maps are captured before the lookup: a write finishing meanwhile is seen by one or the other)
    const inFlight = [...this.inFlight];
    const inFlightOriginals = [...this.inFlightOriginals];
    const stored = await this.d.urls.lookup([...new Set(ok.map((a) => a.url_hash))]);
    const firstInBatch = new Map<string, KnownArticle>();
    const fresh: PreparedArticle[] = [];
    const seen: (KnownArticle | null)[] = new Array(ok.length);
    ok.forEach((a, i) => {
      let known: KnownArticle | undefined = stored.get(a.url_hash);
      for (let k = 0; !known && k < inFlight.length; k++) known = inFlight[k]!.get(a.url_hash);
      known ??= firstInBatch.get(a.url_hash);
      if (known) seen[i] = known;
      else {
        seen[i] = null;
        firstInBatch.set(a.url_hash, { id: a.id, published_at: a.published_at, story_id: null, duplicate_of: null });
        fresh.push(a);
      }
    });

    // from before the first question to a shard (dedup, then stories): they answer after this
    const storeBy = fresh.length > 0 ? this.now() + (this.d.decisionTtlMs ?? DECISION_TTL_MS) : Infinity;
    // near duplicates, in submission order
    const fences: FenceToken[] = [];
    const fenced = <T>(answer: T | Fenced<T>): T => {
      const [value, token] = unfence(answer);
      if (token) fences.push(token);
      return value;
    };
    const decisions = fenced(await this.d.dedup.submit(
      fresh.map((a) => ({ id: a.id, fp: { hi: a.hi, lo: a.lo, sketch: a.sketch, hasText: a.hasText, empty: a.empty, short: a.short }, publishedAt: Date.parse(a.published_at) })),
    ));

    // a wire copy takes its original's category before it is clustered and stored, and its story
    const { originals, outside } = await this.copyOriginals(fresh, decisions, inFlightOriginals);

    // stories, a slice at a time
    const items: ClusterItem[] = fresh.map((a, i) => ({
      article: {
        id: a.id, url: a.url, title: a.title, summary: a.snippet, publisher: a.publisher, published_at: a.published_at,
        language: a.language, duplicate_of: decisions[i]!.duplicateOf,
      },
      hints: { entities: a.entities, places: a.places, category: a.category, region: a.region },
      ...(outside[i] ? { story_id: outside[i] } : {}),
    }));
    const results: ClusterBatchReply['results'] = [];
    const stories = new Map<string, StorySummary>();
    const waitMs = this.d.originalWaitMs ?? 0;
    const ask = async (slice: ClusterItem[]): Promise<ClusterBatchReply['results']> => {
      const reply = fenced(await this.d.cluster(slice));
      reply.results.forEach((r, k) => {
        if ('storyId' in r) originals.get(slice[k]!.article.id)!.story_id = r.storyId;
      });
      // a later slice's view of a story is the newer one
      for (const s of reply.stories) stories.set(s.id, s);
      return reply.results;
    };
    for (let i = 0; i < items.length; i += this.slice) {
      if (i > 0) await new Promise((r) => setImmediate(r));
      const slice = items.length <= this.slice ? items : items.slice(i, i + this.slice);
      // a copy of an article of an earlier slice names its story: the shard may have moved since
      // (an original in the same slice is added before its copy, by the same owner)
      for (const it of slice) {
        const dup = it.article.duplicate_of;
        const s = dup ? originals.get(dup)?.story_id : undefined;
        if (s && !it.story_id) it.story_id = s;
        // (an original in this batch is the actor's to place, whichever comes first)
        if (dup && !it.story_id && waitMs > 0 && !originals.has(dup)) it.await_original = true;
      }
      results.push(...(await ask(slice)));
      if (waitMs > 0) {
        await this.awaitOriginals(items, results, i, ask, waitMs, (k, o) => {
          // found late: the copy takes its original's category after all (as copyOriginals does)
          const a = fresh[k]!;
          if (!o.category) return;
          a.category = o.category;
          a.secondary_category = o.secondary_category !== o.category ? o.secondary_category : null;
          Object.assign(originals.get(a.id)!, { category: a.category, secondary_category: a.secondary_category });
        });
      }
    }

    const out: Decided = { outcomes: [], rows: [], refresh: [], stories: [], fingerprints: [], thumbnails: [], rejected: [...rejected], known: firstInBatch, originals, storeBy, ...(fences.length > 0 ? { fences } : {}) };
    const storyOf = new Map<string, string | null>();
    fresh.forEach((a, i) => {
      const r = results[i]!;
      const dup = decisions[i]!.duplicateOf;
      if ('error' in r) {
        out.rejected.push({ index: a.index, url: a.url, publisher: a.publisher, reason: 'cluster_failed', code: r.error.code, message: r.error.message });
        firstInBatch.delete(a.url_hash);
        storyOf.set(a.id, null);
        return;
      }
      storyOf.set(a.id, r.storyId);
      const k = firstInBatch.get(a.url_hash)!;
      k.story_id = r.storyId;
      k.duplicate_of = dup;
      const record = decisions[i]!.record;
      if (record) out.fingerprints.push(record);
      out.rows.push({
        // only our own thumbnails are shown (never a hotlink): the job fills it in after storing
        id: a.id, url: a.url, url_hash: a.url_hash, simhash: a.simhash, title: a.title, snippet: a.snippet, thumbnail_url: null,
        publisher_id: a.publisher, published_at: a.published_at, category: a.category, secondary_category: a.secondary_category,
        region: a.region, language: a.language, story_id: r.storyId, duplicate_of: dup, entities: a.entities, places: a.places,
      });
      if (a.thumbnail) out.thumbnails.push({ articleId: a.id, publishedAt: a.published_at, source: a.thumbnail });
    });
    ok.forEach((a, i) => {
      const known = seen[i];
      if (known) {
        out.refresh.push({ id: known.id, published_at: known.published_at, title: a.title, snippet: a.snippet, thumbnail_url: null });
        // a repeat within the batch of an article whose clustering failed is set aside with it
        out.outcomes.push({ a, id: known.id, duplicate_of: known.duplicate_of, story_id: known.story_id, update: true });
      } else if (storyOf.get(a.id) !== null) {
        const row = firstInBatch.get(a.url_hash)!;
        out.outcomes.push({ a, id: a.id, duplicate_of: row.duplicate_of, story_id: row.story_id, update: false });
      }
    });
    out.stories = [...stories.values()].map(storyRowOf);
    this.inFlight.push(firstInBatch);
    this.inFlightOriginals.push(originals);
    return out;
  }

  /**
   * The copies of `items` from `from` on that the story actor answered `ORIGINAL_UNKNOWN`: their
   * originals are looked up in the store again, with pauses, for up to `waitMs`, and the copies
   * asked again, naming the story when it is found (the last time without waiting for it).
   */
  private async awaitOriginals(
    items: ClusterItem[], results: ClusterBatchReply['results'], from: number, ask: (slice: ClusterItem[]) => Promise<ClusterBatchReply['results']>, waitMs: number,
    found: (k: number, original: OriginalInfo) => void,
  ): Promise<void> {
    const unknown = (): number[] => {
      const at: number[] = [];
      for (let k = from; k < results.length; k++) {
        const r = results[k]!;
        if ('error' in r && r.error.code === ORIGINAL_UNKNOWN) at.push(k);
      }
      return at;
    };
    let pending = unknown();
    let waited = 0;
    for (let pause = 100; pending.length > 0; pause = Math.min(pause * 2, 1_000)) {
      const last = waited >= waitMs;
      if (!last) {
        const p = Math.min(pause, waitMs - waited);
        await new Promise((r) => setTimeout(r, p));
        waited += p;
      }
      const stored = this.d.originals ? await this.d.originals.lookup(pending.map((k) => items[k]!.article.duplicate_of!)) : new Map<string, OriginalInfo>();
      const again = pending.map((k) => {
        const it = items[k]!;
        const o = stored.get(it.article.duplicate_of!);
        const s = o?.story_id;
        if (s) {
          it.story_id = s;
          found(k, o);
          if (o.category && it.hints) it.hints.category = o.category;
        }
        if (s || last) delete it.await_original;
        return it;
      });
      const replies = await ask(again);
      pending.forEach((k, j) => (results[k] = replies[j]!));
      pending = unknown();
    }
  }

  /**
   * Gives each wire copy of the batch its original's categories (the original in the batch, in a
   * batch still being stored, or looked up by id): a copy is the same report, filed once. A copy
   * whose original is unknown (expired, or set aside) keeps its own. Returns every new article's
   * categories by id (their stories are filled in as they are clustered), and per article the
   * story of its original when that original is outside the batch (in a batch still being stored,
   * or stored): the copy joins it whoever owns the story shard now. An original in a batch on
   * another node not yet stored is known only to the story actor that clustered it.
   */
  private async copyOriginals(
    fresh: PreparedArticle[], decisions: readonly DedupDecision[], inFlight: readonly Map<string, OriginalInfo>[],
  ): Promise<{ originals: Map<string, OriginalInfo>; outside: (string | undefined)[] }> {
    const originals = new Map<string, OriginalInfo>();
    const batchIds = new Set(fresh.map((a) => a.id));
    const inFlightOf = (id: string): OriginalInfo | undefined => {
      for (const m of inFlight) {
        const l = m.get(id);
        if (l) return l;
      }
      return undefined;
    };
    const wanted: string[] = [];
    for (const d of decisions) {
      if (d.duplicateOf !== null && !batchIds.has(d.duplicateOf) && !inFlightOf(d.duplicateOf)) wanted.push(d.duplicateOf);
    }
    const stored = wanted.length > 0 && this.d.originals ? await this.d.originals.lookup(wanted) : new Map<string, OriginalInfo>();
    const outside: (string | undefined)[] = new Array(fresh.length);
    fresh.forEach((a, i) => {
      const dup = decisions[i]!.duplicateOf;
      // the original comes first in submission order, so its own labels are settled by now
      const o = dup === null ? undefined : originals.get(dup) ?? inFlightOf(dup) ?? stored.get(dup);
      if (o && o.category) {
        a.category = o.category;
        a.secondary_category = o.secondary_category !== o.category ? o.secondary_category : null;
      }
      if (dup !== null && !batchIds.has(dup) && o?.story_id) outside[i] = o.story_id;
      originals.set(a.id, { category: a.category, secondary_category: a.secondary_category, story_id: null });
    });
    return { originals, outside };
  }

  /** The batch is stored (or given up): its URLs are now found where they are stored, if anywhere. */
  release(d: Decided): void {
    const at = this.inFlight.indexOf(d.known);
    if (at >= 0) this.inFlight.splice(at, 1);
    const l = this.inFlightOriginals.indexOf(d.originals);
    if (l >= 0) this.inFlightOriginals.splice(l, 1);
  }
}
