import { defineBehaviour, type ActorContext, type Behaviour, type Message } from '../../runtime/actor.js';
import type { ArticleInput } from '../enrich/text.js';
import { StoryClusterer, type AddResult, type ClustererOptions, type StoryView } from './clusterer.js';
import type { ClusterHints } from './features.js';

/**
 * The StoryCluster actor: owns one cluster shard's active window (a `StoryClusterer`) and
 * persists what it decides through a `StoryStore`. `init` doubles as the reload hook: it
 * replays the articles of the active window from the store, and because story ids derive from
 * the founding article, a restarted actor rebuilds the same stories.
 */

/** One article as clustered, kept by the store so the window can be replayed. */
export interface ClusteredArticle {
  article: ArticleInput;
  hints: ClusterHints;
  story_id: string;
}

/** Where stories and clustered articles live (Postgres/PGlite in a node; memory in tests). */
export interface StoryStore {
  /** clustered articles published at or after `since`, in the order they were added */
  loadSince(since: number): Promise<ClusteredArticle[]> | ClusteredArticle[];
  appendArticle(a: ClusteredArticle): Promise<void> | void;
  saveStory(story: StoryView): Promise<void> | void;
  getStory(id: string): Promise<StoryView | undefined> | StoryView | undefined;
}

/** A store in memory (tests, `newsagg process`). */
export class MemoryStoryStore implements StoryStore {
  readonly articles: ClusteredArticle[] = [];
  readonly stories = new Map<string, StoryView>();

  loadSince(since: number): ClusteredArticle[] {
    return this.articles.filter((a) => {
      const t = typeof a.article.published_at === 'number' ? a.article.published_at : Date.parse(a.article.published_at);
      return !(t < since);
    });
  }
  appendArticle(a: ClusteredArticle): void {
    this.articles.push(a);
  }
  saveStory(story: StoryView): void {
    this.stories.set(story.id, story);
  }
  getStory(id: string): StoryView | undefined {
    return this.stories.get(id);
  }
}

export type StoryClusterMsg =
  | { type: 'add'; article: ArticleInput; hints?: ClusterHints }
  | { type: 'add-batch'; items: { article: ArticleInput; hints?: ClusterHints }[] }
  | { type: 'get'; story_id: string }
  | { type: 'story-of'; article_id: string }
  | { type: 'sweep' };

/** Replies, by request: add -> AddResult, add-batch -> AddResult[], get -> StoryView | null, story-of -> string | null, sweep -> {evicted}. */
export type StoryClusterReply = AddResult | AddResult[] | StoryView | string | null | { evicted: number };

export interface StoryClusterState {
  clusterer: StoryClusterer;
  /** stories archived during the current message, saved before it completes */
  archived: StoryView[];
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
  const sweepMs = cfg.sweepMs ?? 600_000;

  async function addOne(state: StoryClusterState, article: ArticleInput, hints: ClusterHints, touched: Set<string>): Promise<AddResult> {
    const r = state.clusterer.add(article, hints);
    await cfg.store.appendArticle({ article, hints, story_id: r.storyId });
    touched.add(r.storyId);
    await flushArchived(state);
    return r;
  }

  /** Each story a message changed is saved once, as it stands after the message (not once per article). */
  async function saveTouched(state: StoryClusterState, touched: Set<string>): Promise<void> {
    for (const id of touched) {
      const view = state.clusterer.get(id);
      if (view?.active) await cfg.store.saveStory(view);
    }
  }

  async function flushArchived(state: StoryClusterState): Promise<void> {
    while (state.archived.length > 0) await cfg.store.saveStory(state.archived.shift()!);
  }

  return defineBehaviour<StoryClusterState, StoryClusterMsg>({
    kind: 'story-cluster',
    mailbox: { capacity: 10_000, overflow: 'backpressure' },
    async init(_key: string, ctx: ActorContext): Promise<StoryClusterState> {
      const archived: StoryView[] = [];
      const clusterer = new StoryClusterer({ ...cfg.clusterer, keepArchive: false, onArchive: (s) => archived.push(s) });
      for (const a of await cfg.store.loadSince(ctx.now() - windowMs)) clusterer.add(a.article, a.hints);
      archived.length = 0;
      ctx.schedule(sweepMs, { type: 'sweep' }, 'sweep');
      return { clusterer, archived };
    },
    async receive(state, msg, ctx): Promise<StoryClusterReply> {
      switch (msg.type) {
        case 'add': {
          const touched = new Set<string>();
          const r = await addOne(state, msg.article, msg.hints ?? {}, touched);
          await saveTouched(state, touched);
          return r;
        }
        case 'add-batch': {
          const out: AddResult[] = [];
          const touched = new Set<string>();
          for (const it of msg.items) out.push(await addOne(state, it.article, it.hints ?? {}, touched));
          await saveTouched(state, touched);
          return out;
        }
        case 'get':
          return state.clusterer.get(msg.story_id) ?? (await cfg.store.getStory(msg.story_id)) ?? null;
        case 'story-of':
          return state.clusterer.storyOf(msg.article_id) ?? null;
        case 'sweep': {
          const evicted = state.clusterer.evictBefore(ctx.now() - windowMs);
          await flushArchived(state);
          ctx.schedule(sweepMs, { type: 'sweep' }, 'sweep');
          return { evicted };
        }
      }
    },
  });
}

/** Message type guard for routers. */
export function isStoryClusterMsg(m: Message): m is StoryClusterMsg {
  return m.type === 'add' || m.type === 'add-batch' || m.type === 'get' || m.type === 'story-of' || m.type === 'sweep';
}
