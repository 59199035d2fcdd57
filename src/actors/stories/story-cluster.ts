import { defineBehaviour, type ActorContext, type Behaviour, type Message } from '../../runtime/actor.js';
import type { ArticleInput } from '../enrich/text.js';
import { describeError } from '../../runtime/errors.js';
import { StoryClusterer, type AddResult, type ClustererOptions, type StorySummary, type StoryView } from './clusterer.js';
import type { ClusterHints } from './features.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.js';
import { CATCH_UP_AFTER_MS, catchUpDelay, storedSince as storedSinceOf } from '../ingest/decision-time.js';

/**
 * The StoryCluster actor: owns one cluster shard's active window (a `StoryClusterer`). What it
 * decides travels back in its replies: each article's story, and every story the message changed
 * as it stands afterwards, so the caller stores them with the articles (the actor writes
 * nothing, and can live on another thread or node). `init` doubles as the reload hook: it replays
 * the articles of the active window from the store, each into the story it is stored in.
 *
 * Catching up after a replay (see ../ingest/decision-time.ts). In a cluster the shard moves (its
 * node died or lost NATS) and the new owner replays the store; so does an actor restarted after a
 * fault. Batches the previous owner had already answered may still be on their way to the store
 * then: the replay cannot see them, and an index without them would let a later article of their
 * events open a story of its own. A process node stores a decided batch only within
 * `DECISION_TTL_MS` of its first question, so after the replay the actor reads the store again a
 * few times (`catchUpAfterMs`, the last past the TTL), each pass the rows stored since the
 * previous read could have missed them, and adds those it does not know into their stored
 * stories. (A wire copy does not wait for this: its process node names its original's story when
 * it asks, see `ClusterItem.story_id`.)
 */

/** One article as clustered, kept by the store so the window can be replayed. */
export interface ClusteredArticle {
  article: ArticleInput;
  hints: ClusterHints;
  story_id: string;
}

/** Where the window is replayed from (the stored articles in a node; memory in tests). */
export interface StoryStore {
  /**
   * clustered articles published at or after `since`, in the order they were added; with
   * `storedSince`, only those stored at or after that instant of the store's clock
   */
  loadSince(since: number, storedSince?: number): Promise<ClusteredArticle[]> | ClusteredArticle[];
  /** the store's clock (ms); without it the actor does not catch up after its replay, nor takes snapshots */
  now?(): Promise<number> | number;
  /**
   * as `loadSince`, a page at a time in order (the replay then yields to the event loop between
   * pages and holds one page in memory); `onPage` is awaited before the next page is read
   */
  pageSince?(since: number, storedSince: number | undefined, onPage: (page: ClusteredArticle[]) => Promise<void>): Promise<number>;
  /** the latest snapshot of the clusterer (`encodeSnapshot` chunks) and its watermark (the store's clock) */
  loadSnapshot?(): Promise<{ chunks: Uint8Array[]; watermark: number } | null>;
  /** stores a snapshot; false when it was refused (a successor owns the shard now) */
  saveSnapshot?(chunks: Buffer[], meta: { watermark: number; stories: number; articles: number }): Promise<boolean>;
}

/** A store in memory (tests): the caller records what it clustered, as a node stores its rows. */
export class MemoryStoryStore implements StoryStore {
  readonly articles: ClusteredArticle[] = [];

  loadSince(since: number): ClusteredArticle[] {
    return this.articles.filter((a) => {
      const t = typeof a.article.published_at === 'number' ? a.article.published_at : Date.parse(a.article.published_at);
      return !(t < since);
    });
  }

  /** Keep the articles of an `add-batch` with the stories its reply gave them. */
  record(items: readonly ClusterItem[], reply: ClusterBatchReply): void {
    items.forEach((it, i) => {
      const r = reply.results[i]!;
      if ('storyId' in r) this.articles.push({ article: it.article, hints: it.hints ?? {}, story_id: r.storyId });
    });
  }
}

export interface ClusterItem {
  article: ArticleInput;
  hints?: ClusterHints;
  /**
   * the story the article goes to without being scored: for a wire copy, its original's, as
   * stored or as decided in an earlier batch or slice (the owner may not know the original when
   * the shard moved after the original was clustered, and its copy must not open a story of its own)
   */
  story_id?: string;
  /**
   * a wire copy: when this actor does not know its original and no story is named, answer
   * `ORIGINAL_UNKNOWN` instead of placing it (the caller looks for the original's story again: the
   * original may be in a batch a previous owner of the shard decided, still on its way to the store)
   */
  await_original?: boolean;
}

/** The code of an `add-batch` result for a copy with `await_original` whose original is unknown here. */
export const ORIGINAL_UNKNOWN = 'ORIGINAL_UNKNOWN';

/** An article the clusterer could not place (an error in its code on hostile input): set aside, the others go on. */
export interface ClusterFailure {
  error: { code: string; message: string };
}

/** The reply to `add-batch`: per item in order its story (or why not), and the stories changed, as they now stand. */
export interface ClusterBatchReply {
  results: (AddResult | ClusterFailure)[];
  stories: StorySummary[];
}

export type StoryClusterMsg =
  | { type: 'add-batch'; items: ClusterItem[] }
  | { type: 'get'; story_id: string }
  | { type: 'story-of'; article_id: string }
  | { type: 'sweep' }
  /** a catch-up pass (a timer): reads the store, then sends itself `caught-up` */
  | { type: 'catch-up'; pass: number }
  | { type: 'caught-up'; pass: number; articles: ClusteredArticle[]; storedSince: number }
  /** a snapshot is due (a timer): reads the store's clock, then sends itself `snapshot-take` */
  | { type: 'snapshot' }
  | { type: 'snapshot-take'; clock: number };

/**
 * Replies, by request: add-batch -> ClusterBatchReply, get -> StoryView | null, story-of -> string | null,
 * sweep -> {evicted}, caught-up -> {added}.
 */
export type StoryClusterReply = ClusterBatchReply | StoryView | string | null | { evicted: number } | { added: number } | undefined;

export interface StoryClusterState {
  clusterer: StoryClusterer;
  /** the next catch-up pass reads rows stored since this instant of the store's clock */
  storedSince: number;
  /** the catch-up passes are over: every article stored before a snapshot's clock (less the decision TTL) is in the index */
  caughtUp: boolean;
}

export interface StoryClusterConfig {
  store: StoryStore;
  clusterer?: ClustererOptions;
  /** how often idle stories are moved out of the window (default 10 min) */
  sweepMs?: number;
  /** when catch-up passes run after the replay (ms after it; default `CATCH_UP_AFTER_MS`, the last after `DECISION_TTL_MS`); [] = none */
  catchUpAfterMs?: readonly number[];
  /**
   * how often the clusterer's state is written to the store (default 5 min; 0 = never), when the
   * store keeps snapshots: a new owner loads the latest and replays only the articles stored since
   */
  snapshotEveryMs?: number;
}

/** Replays of more than this many articles are followed by a snapshot soon, not after `snapshotEveryMs`. */
const SNAPSHOT_SOON_AFTER = 20_000;
const SNAPSHOT_SOON_MS = 5_000;

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

const WINDOW_MS = 48 * 3_600_000;

/** Build the behaviour for a store (one behaviour per node, many shard keys). */
export function storyClusterBehaviour(cfg: StoryClusterConfig): Behaviour<StoryClusterState, StoryClusterMsg> {
  const windowMs = cfg.clusterer?.windowMs ?? WINDOW_MS;
  const sweepMs = cfg.sweepMs ?? Math.min(600_000, Math.max(1_000, windowMs / 4));
  const catchUpAfterMs = cfg.store.now ? cfg.catchUpAfterMs ?? CATCH_UP_AFTER_MS : [];
  const snapshotEveryMs = cfg.snapshotEveryMs ?? 5 * 60_000;
  const snapshots = snapshotEveryMs > 0 && !!cfg.store.now && !!cfg.store.saveSnapshot;
  const scheduleCatchUp = (pass: number, ctx: ActorContext): void => {
    const delay = catchUpDelay(catchUpAfterMs, pass);
    if (delay !== undefined) ctx.schedule(delay, { type: 'catch-up', pass }, 'catch-up');
  };

  return defineBehaviour<StoryClusterState, StoryClusterMsg>({
    kind: 'story-cluster',
    mailbox: { capacity: 10_000, overflow: 'backpressure' },
    async init(_key: string, ctx: ActorContext): Promise<StoryClusterState> {
      // archived stories need no keeping: they were stored as they stood when last changed
      const fresh = () => new StoryClusterer({ ...cfg.clusterer, keepArchive: false });
      let clusterer = fresh();
      // the store's clock before the replay's read: what a catch-up pass must look back to
      const clock = catchUpAfterMs.length > 0 || snapshots ? await cfg.store.now!() : 0;
      const started = Date.now();
      // the latest snapshot, then only what was stored since its watermark
      let replayFrom: number | undefined;
      if (cfg.store.loadSnapshot) {
        try {
          const snap = await cfg.store.loadSnapshot();
          if (snap) {
            clusterer.restore(decodeSnapshot(snap.chunks));
            replayFrom = snap.watermark;
            ctx.log.info({ stories: clusterer.activeCount, articles: clusterer.articleCount, ms: Date.now() - started }, 'story index restored from its snapshot');
          }
        } catch (err) {
          ctx.log.warn({ err: describeError(err) }, 'story snapshot not usable; replaying the window');
          clusterer = fresh();
        }
      }
      // each article into the story it is stored in (re-scoring could file it elsewhere than its row says)
      let replayed = 0;
      const since = ctx.now() - windowMs;
      const addAll = (rows: readonly ClusteredArticle[]) => {
        for (const a of rows) clusterer.add(a.article, a.hints, a.story_id);
        replayed += rows.length;
      };
      if (cfg.store.pageSince) {
        await cfg.store.pageSince(since, replayFrom, async (page) => {
          addAll(page);
          // a replay on the node's own thread lets timers and I/O (heartbeats, leases) run between pages
          await yieldLoop();
        });
      } else addAll(await cfg.store.loadSince(since, replayFrom));
      ctx.log.info({ replayed, from_snapshot: replayFrom !== undefined, stories: clusterer.activeCount, ms: Date.now() - started }, 'story index ready');
      ctx.schedule(sweepMs, { type: 'sweep' }, 'sweep');
      scheduleCatchUp(0, ctx);
      if (snapshots) ctx.schedule(replayFrom === undefined || replayed > SNAPSHOT_SOON_AFTER ? Math.min(snapshotEveryMs, SNAPSHOT_SOON_MS) : snapshotEveryMs, { type: 'snapshot' }, 'snapshot');
      return { clusterer, storedSince: storedSinceOf(clock), caughtUp: catchUpAfterMs.length === 0 };
    },
    receive(state, msg, ctx): StoryClusterReply {
      switch (msg.type) {
        case 'add-batch': {
          const results: (AddResult | ClusterFailure)[] = [];
          const touched = new Set<string>();
          for (const it of msg.items) {
            const dup = it.article.duplicate_of;
            if (it.await_original && dup && !it.story_id && state.clusterer.storyOf(dup) === undefined && state.clusterer.storyOf(it.article.id) === undefined) {
              results.push({ error: { code: ORIGINAL_UNKNOWN, message: `the original ${dup} is not in this story index` } });
              continue;
            }
            try {
              const r = state.clusterer.add(it.article, it.hints ?? {}, it.story_id);
              results.push(r);
              // a known article's story too: its batch may come again because it was never stored
              touched.add(r.storyId);
            } catch (err) {
              results.push({ error: { code: (err as { code?: string }).code ?? 'CLUSTER_FAILED', message: describeError(err) } });
            }
          }
          // each story the message changed, once, as it stands after the message
          const stories: StorySummary[] = [];
          for (const id of touched) {
            const v = state.clusterer.summary(id);
            if (v) stories.push(v);
          }
          return { results, stories };
        }
        case 'get':
          return state.clusterer.get(msg.story_id) ?? null;
        case 'story-of':
          return state.clusterer.storyOf(msg.article_id) ?? null;
        case 'sweep': {
          const evicted = state.clusterer.evictBefore(ctx.now() - windowMs);
          ctx.schedule(sweepMs, { type: 'sweep' }, 'sweep');
          return { evicted };
        }
        case 'catch-up': {
          // read off the mailbox (a read of the window's rows must not hold up the asks), added in it;
          // the result comes back as a timer, which reaches this actor only while it lives (a send
          // after it stopped, its shard gone, would start it anew)
          const { pass } = msg;
          const from = state.storedSince;
          void (async () => {
            const clock = await cfg.store.now!();
            const articles = await cfg.store.loadSince(ctx.now() - windowMs, from);
            ctx.schedule<StoryClusterMsg>(0, { type: 'caught-up', pass, articles, storedSince: storedSinceOf(clock) }, 'caught-up');
          })().catch((err: unknown) => {
            ctx.log.warn({ err: describeError(err), pass }, 'story catch-up read failed; the next pass reads the same rows');
            // the next pass from the same instant (after the last, that pass once more)
            scheduleCatchUp(catchUpAfterMs[pass + 1] !== undefined ? pass + 1 : pass, ctx);
          });
          return undefined;
        }
        case 'caught-up': {
          let added = 0;
          for (const a of msg.articles) {
            try {
              if (state.clusterer.add(a.article, a.hints, a.story_id).via !== 'known') added++;
            } catch {
              // an article the clusterer cannot place was set aside when it was decided
            }
          }
          state.storedSince = Math.max(state.storedSince, msg.storedSince);
          if (added > 0) ctx.log.info({ added, pass: msg.pass }, 'story index caught up with articles stored after its replay');
          if (catchUpDelay(catchUpAfterMs, msg.pass + 1) === undefined) state.caughtUp = true;
          scheduleCatchUp(msg.pass + 1, ctx);
          return { added };
        }
        case 'snapshot': {
          void (async () => cfg.store.now!())().then(
            (clock) => ctx.schedule<StoryClusterMsg>(0, { type: 'snapshot-take', clock }, 'snapshot-take'),
            (err: unknown) => {
              ctx.log.warn({ err: describeError(err) }, 'story snapshot skipped: the store is away');
              ctx.schedule(snapshotEveryMs, { type: 'snapshot' }, 'snapshot');
            },
          );
          return undefined;
        }
        case 'snapshot-take': {
          // what is stored from the watermark on is replayed by whoever loads it: rows a previous owner
          // decided stay after it until the catch-up passes have read them
          const watermark = state.caughtUp ? storedSinceOf(msg.clock) : Math.min(state.storedSince, storedSinceOf(msg.clock));
          const started = Date.now();
          const chunks = encodeSnapshot(state.clusterer.snapshot());
          const encodeMs = Date.now() - started;
          const meta = { watermark, stories: state.clusterer.activeCount, articles: state.clusterer.articleCount };
          const bytes = chunks.reduce((n, c) => n + c.length, 0);
          cfg.store.saveSnapshot!(chunks, meta).then(
            (saved) => {
              if (!saved) return ctx.log.warn({}, 'story snapshot refused: another node owns the shard now');
              ctx.log.info({ ...meta, bytes, encode_ms: encodeMs, ms: Date.now() - started }, 'story snapshot saved');
              ctx.schedule(snapshotEveryMs, { type: 'snapshot' }, 'snapshot');
            },
            (err: unknown) => {
              ctx.log.warn({ err: describeError(err) }, 'story snapshot not saved; the next one is due as usual');
              ctx.schedule(snapshotEveryMs, { type: 'snapshot' }, 'snapshot');
            },
          );
          return undefined;
        }
      }
    },
  });
}

/** Message type guard for routers. */
export function isStoryClusterMsg(m: Message): m is StoryClusterMsg {
  return m.type === 'add-batch' || m.type === 'get' || m.type === 'story-of' || m.type === 'sweep' || m.type === 'catch-up' || m.type === 'caught-up' || m.type === 'snapshot' || m.type === 'snapshot-take';
}
