import { defineBehaviour, type ActorContext, type Behaviour, type Message } from '../../runtime/actor.js';
import type { ArticleInput } from '../enrich/text.js';
import { describeError } from '../../runtime/errors.js';
import { StoryClusterer, type AddResult, type ClustererOptions, type StorySummary, type StoryView } from './clusterer.js';
import type { ClusterHints } from './features.js';

/**
 * The StoryCluster actor: owns one cluster shard's active window (a `StoryClusterer`). What it
 * decides travels back in its replies: each article's story, and every story the message changed
 * as it stands afterwards, so the caller stores them with the articles (the actor writes
 * nothing, and can live on another thread or node). `init` doubles as the reload hook: it replays
 * the articles of the active window from the store, and because story ids derive from the
 * founding article, a restarted actor rebuilds the same stories.
 */

/** One article as clustered, kept by the store so the window can be replayed. */
export interface ClusteredArticle {
  article: ArticleInput;
  hints: ClusterHints;
  story_id: string;
}

/** Where the window is replayed from (the stored articles in a node; memory in tests). */
export interface StoryStore {
  /** clustered articles published at or after `since`, in the order they were added */
  loadSince(since: number): Promise<ClusteredArticle[]> | ClusteredArticle[];
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
}

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
  | { type: 'sweep' };

/** Replies, by request: add-batch -> ClusterBatchReply, get -> StoryView | null, story-of -> string | null, sweep -> {evicted}. */
export type StoryClusterReply = ClusterBatchReply | StoryView | string | null | { evicted: number };

export interface StoryClusterState {
  clusterer: StoryClusterer;
}

export interface StoryClusterConfig {
  store: StoryStore;
  clusterer?: ClustererOptions;
  /** how often idle stories are moved out of the window (default 10 min) */
  sweepMs?: number;
}

const WINDOW_MS = 48 * 3_600_000;

/** Build the behaviour for a store (one behaviour per node, many shard keys). */
export function storyClusterBehaviour(cfg: StoryClusterConfig): Behaviour<StoryClusterState, StoryClusterMsg> {
  const windowMs = cfg.clusterer?.windowMs ?? WINDOW_MS;
  const sweepMs = cfg.sweepMs ?? Math.min(600_000, Math.max(1_000, windowMs / 4));

  return defineBehaviour<StoryClusterState, StoryClusterMsg>({
    kind: 'story-cluster',
    mailbox: { capacity: 10_000, overflow: 'backpressure' },
    async init(_key: string, ctx: ActorContext): Promise<StoryClusterState> {
      // archived stories need no keeping: they were stored as they stood when last changed
      const clusterer = new StoryClusterer({ ...cfg.clusterer, keepArchive: false });
      for (const a of await cfg.store.loadSince(ctx.now() - windowMs)) clusterer.add(a.article, a.hints);
      ctx.schedule(sweepMs, { type: 'sweep' }, 'sweep');
      return { clusterer };
    },
    receive(state, msg, ctx): StoryClusterReply {
      switch (msg.type) {
        case 'add-batch': {
          const results: (AddResult | ClusterFailure)[] = [];
          const touched = new Set<string>();
          for (const it of msg.items) {
            try {
              const r = state.clusterer.add(it.article, it.hints ?? {});
              results.push(r);
              if (r.via !== 'known') touched.add(r.storyId);
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
      }
    },
  });
}

/** Message type guard for routers. */
export function isStoryClusterMsg(m: Message): m is StoryClusterMsg {
  return m.type === 'add-batch' || m.type === 'get' || m.type === 'story-of' || m.type === 'sweep';
}
